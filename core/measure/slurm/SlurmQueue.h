// SlurmQueue: Beamscope's side of the Slurm command-line tools. sbatch --parsable submits an
// array; squeue (--json where the installed Slurm has it, else a '|'-separated format) reports
// every task of the arrays we follow, including tasks that finished recently (--states=all),
// with their state, reason, node and exit status; scancel stops arrays. The parsers are plain
// functions of the tools' output, so they are tested on real output without a cluster.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// One array task as squeue reports it.
struct SlurmTask {
    long arrayJob = 0;  ///< the array's job id (the id sbatch printed)
    int task = -1;      ///< SLURM_ARRAY_TASK_ID
    std::string state;  ///< PENDING, RUNNING, COMPLETING, COMPLETED, FAILED, TIMEOUT, ...
    std::string reason; ///< squeue's reason ("None", "Priority", "NonZeroExitCode", ...)
    std::string node;   ///< node it runs / ran on ("" while pending)
    int exitStatus = 0; ///< the batch script's exit status (0 unknown or success)
    int signal = 0;     ///< the signal that ended it, 0 if none
    long jobId = 0;     ///< its own job id (SLURM_JOB_ID) once squeue lists it alone; 0 before

    /// True for states after which the task never runs again.
    bool finished() const;
    /// "TIMEOUT", "FAILED (NonZeroExitCode, exit status 1)", "PREEMPTED", ...
    std::string describe() const;
};

/// "12345" or "12345;cluster" (sbatch --parsable) to 12345; nullopt when it is not that.
std::optional<long> parseSbatchParsable(const std::string &output);

/// "0-3", "1-3%1", "0,2,5-7" (squeue's array_task_string / %K) to task ids.
std::vector<int> expandTaskString(const std::string &text);

/// The tasks of `arrays` in `squeue --json` output (a pending array's unstarted tasks, listed
/// once with their task string, are expanded). Throws Error when the text is not squeue JSON.
std::vector<SlurmTask> parseSqueueJson(const std::string &text, const std::vector<long> &arrays);

/// The same from `squeue -h -r --states=all -o '%F|%K|%T|%r|%N|%A'` lines (array job id, task
/// id, state, reason, node, the task's own job id).
std::vector<SlurmTask> parseSqueueText(const std::string &text, const std::vector<long> &arrays);

/// The Slurm commands, found in PATH (or next to each other in `binDir` when given).
class SlurmQueue {
public:
    explicit SlurmQueue(std::string binDir = "");
    /// Runs sbatch with `args`; returns the array job id. Throws Error with sbatch's message.
    long submit(const std::vector<std::string> &args) const;
    /// Every task of `arrays` squeue knows (running, queued, or finished within MinJobAge).
    /// Throws Error (one line) when squeue fails: controller unreachable, no such command.
    std::vector<SlurmTask> tasks(const std::vector<long> &arrays) const;
    /// scancel on `arrays`; throws Error when scancel fails.
    void cancel(const std::vector<long> &arrays) const;
    /// Whether squeue has --json here (probed once).
    bool hasJson() const;

    /// The path of Slurm command `name`; throws Error when it is not found.
    std::string tool(const std::string &name) const;

private:
    std::string m_binDir;
    mutable int m_json = -1; ///< -1 unknown, 0 no, 1 yes
};

} // namespace beamscope
