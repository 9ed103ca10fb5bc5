// Subprocess: run a program in its own process group with captured output and a wall-clock
// limit; on timeout, or when the caller's cancel flag is set, the whole group is killed. Used for
// ptxas and the benchmark worker.
#pragma once

#include <atomic>
#include <string>
#include <vector>

namespace beamscope {

/// How a child process ended and what it printed.
struct ProcessResult {
    int exitCode = -1;        ///< exit status when it exited normally; -1 otherwise
    int signal = 0;           ///< the signal that killed it (0: none)
    bool timedOut = false;    ///< killed by us (SIGKILL to its process group) at the time limit
    bool cancelled = false;   ///< killed by us because ProcessOptions::cancel was set
    bool spawnFailed = false; ///< could not be started (message in err)
    std::string out;          ///< stdout (capped at ProcessOptions::maxCaptureBytes)
    std::string err;          ///< stderr (capped likewise)
    double wallMs = 0;

    bool succeeded() const { return !spawnFailed && !timedOut && signal == 0 && exitCode == 0; }
    /// "exit status 3", "signal 11 (Segmentation fault)", "timed out after 2 s", "cancelled", ...
    std::string describeEnd(double timeoutS) const;
};

struct ProcessOptions {
    double timeoutS = 0;                ///< 0: no limit
    size_t maxCaptureBytes = 16u << 20; ///< per stream; the tail beyond it is dropped
    /// Set from any thread to kill the process group within about 100 ms (nullptr: never).
    const std::atomic<bool> *cancel = nullptr;
    /// "NAME=value" entries set in the child's environment on top of ours (same name: replaced).
    std::vector<std::string> environment = {};
    /// Lines the child writes to stderr to stop the timeout clock (pause) and start it again
    /// (resume), e.g. around a wait for a device another process measures on (DeviceLock).
    /// Empty: the clock never stops. The lines are left out of ProcessResult::err.
    std::string pauseLine = {};
    std::string resumeLine = {};
};

/// Runs argv[0] (an absolute or relative path, not searched in PATH) with stdin from
/// /dev/null, in a new process group. Never throws; failures are in the result.
ProcessResult runProcess(const std::vector<std::string> &argv, const ProcessOptions &options = {});

/// The last non-empty line of `text` (trimmed), or "".
std::string lastLine(const std::string &text);

/// `text` without the lines equal to `a` or `b` (empty ones match nothing).
std::string withoutLines(const std::string &text, const std::string &a, const std::string &b);

/// True if `path` names an executable regular file.
bool isExecutableFile(const std::string &path);

} // namespace beamscope
