// runProcess: posix_spawn into a new process group, poll() both output pipes against a
// deadline (stopped while the child says it waits for a device), SIGKILL the group at the
// deadline or on cancel (and once the child is gone, so no grandchild outlives it), reap with
// waitpid.
#include "util/Subprocess.h"

#include "util/Timing.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string_view>
#include <thread>

extern char **environ;

namespace beamscope {

namespace {

using Clock = std::chrono::steady_clock;

void append(std::string &to, const char *data, size_t n, size_t cap) {
    if (to.size() < cap) to.append(data, std::min(n, cap - to.size()));
}

/// Reads what is available on `fd` into `to`; returns false at EOF or error.
bool drain(int fd, std::string &to, size_t cap) {
    char buffer[65536];
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
        append(to, buffer, size_t(n), cap);
        return true;
    }
    return n < 0 && (errno == EINTR || errno == EAGAIN);
}

/// The child's timeout clock, stopped between its pause and resume lines on stderr.
class TimeoutClock {
public:
    TimeoutClock(const ProcessOptions &options, Clock::time_point start)
        : m_options(options), m_limited(options.timeoutS > 0),
          m_deadline(start + std::chrono::microseconds(int64_t(options.timeoutS * 1e6))) {}

    /// Reads the complete stderr lines not read yet.
    void follow(const std::string &err) {
        if (m_options.pauseLine.empty()) return;
        size_t end;
        while ((end = err.find('\n', m_scanned)) != std::string::npos) {
            const std::string_view line(err.data() + m_scanned, end - m_scanned);
            m_scanned = end + 1;
            if (line == m_options.pauseLine && !m_paused) {
                m_paused = true;
                m_pausedAt = Clock::now();
            } else if (line == m_options.resumeLine && m_paused) {
                m_paused = false;
                m_deadline += Clock::now() - m_pausedAt;
            }
        }
    }
    bool expired() const { return m_limited && !m_paused && Clock::now() >= m_deadline; }
    /// How long poll() may wait before the clock could expire (at most `cap` ms).
    int waitMs(int cap) const {
        if (!m_limited || m_paused) return cap;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(m_deadline - Clock::now());
        return int(std::max<int64_t>(1, std::min<int64_t>(cap, left.count())));
    }

private:
    const ProcessOptions &m_options;
    bool m_limited;
    Clock::time_point m_deadline;
    size_t m_scanned = 0;
    bool m_paused = false;
    Clock::time_point m_pausedAt;
};

} // namespace

std::string ProcessResult::describeEnd(double timeoutS) const {
    if (spawnFailed) return "could not start: " + err;
    if (cancelled) return "cancelled";
    if (timedOut) {
        char text[64];
        snprintf(text, sizeof text, "timed out after %g s", timeoutS);
        return text;
    }
    if (signal != 0) {
        return "signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
    }
    return "exit status " + std::to_string(exitCode);
}

ProcessResult runProcess(const std::vector<std::string> &argv, const ProcessOptions &options) {
    ProcessResult result;
    const Clock::time_point start = Clock::now();
    if (argv.empty()) {
        result.spawnFailed = true;
        result.err = "empty command";
        return result;
    }
    int outPipe[2], errPipe[2];
    if (pipe2(outPipe, O_CLOEXEC) != 0) {
        result.spawnFailed = true;
        result.err = strerror(errno);
        return result;
    }
    if (pipe2(errPipe, O_CLOEXEC) != 0) {
        result.spawnFailed = true;
        result.err = strerror(errno);
        close(outPipe[0]);
        close(outPipe[1]);
        return result;
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults, empty;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigemptyset(&empty);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                        POSIX_SPAWN_SETSIGMASK);

    std::vector<char *> args;
    for (const std::string &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    std::vector<char *> env;
    for (char **e = environ; *e; ++e) {
        const std::string_view entry(*e);
        const std::string_view name = entry.substr(0, entry.find('='));
        bool replaced = false;
        for (const std::string &o : options.environment)
            replaced = replaced || std::string_view(o).substr(0, o.find('=')) == name;
        if (!replaced) env.push_back(*e);
    }
    for (const std::string &o : options.environment)
        env.push_back(const_cast<char *>(o.c_str()));
    env.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0].c_str(), &actions, &attr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(outPipe[1]);
    close(errPipe[1]);
    if (rc != 0) {
        close(outPipe[0]);
        close(errPipe[0]);
        result.spawnFailed = true;
        result.err = argv[0] + ": " + strerror(rc);
        return result;
    }

    TimeoutClock clock(options, start);
    bool outOpen = true, errOpen = true, reaped = false;
    int status = 0;
    while (!reaped) {
        if (clock.expired()) {
            kill(-pid, SIGKILL);
            result.timedOut = true;
            waitpid(pid, &status, 0);
            reaped = true;
            break;
        }
        if (options.cancel && options.cancel->load()) {
            kill(-pid, SIGKILL);
            result.cancelled = true;
            waitpid(pid, &status, 0);
            reaped = true;
            break;
        }
        if (outOpen || errOpen) {
            pollfd fds[2] = {{outPipe[0], short(outOpen ? POLLIN : 0), 0},
                             {errPipe[0], short(errOpen ? POLLIN : 0), 0}};
            if (poll(fds, 2, clock.waitMs(100)) > 0) {
                if (outOpen && fds[0].revents)
                    outOpen = drain(outPipe[0], result.out, options.maxCaptureBytes);
                if (errOpen && fds[1].revents) {
                    errOpen = drain(errPipe[0], result.err, options.maxCaptureBytes);
                    clock.follow(result.err);
                }
            }
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            reaped = true;
            kill(-pid, SIGKILL); // grandchildren still holding the pipes
            // Collect what is left in the pipes (they close once every writer is gone).
            const Clock::time_point drainUntil = Clock::now() + std::chrono::seconds(2);
            while ((outOpen || errOpen) && Clock::now() < drainUntil) {
                pollfd fds[2] = {{outPipe[0], short(outOpen ? POLLIN : 0), 0},
                                 {errPipe[0], short(errOpen ? POLLIN : 0), 0}};
                if (poll(fds, 2, 50) <= 0) continue;
                if (outOpen && fds[0].revents)
                    outOpen = drain(outPipe[0], result.out, options.maxCaptureBytes);
                if (errOpen && fds[1].revents)
                    errOpen = drain(errPipe[0], result.err, options.maxCaptureBytes);
            }
        }
    }
    close(outPipe[0]);
    close(errPipe[0]);
    result.err = withoutLines(result.err, options.pauseLine, options.resumeLine);
    if (!result.timedOut && !result.cancelled) {
        if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
        if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    }
    result.wallMs = msSince(start);
    return result;
}

std::string lastLine(const std::string &text) {
    size_t end = text.size();
    while (end > 0) {
        while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' '))
            --end;
        if (end == 0) break;
        const size_t begin = text.rfind('\n', end - 1);
        const size_t from = begin == std::string::npos ? 0 : begin + 1;
        std::string line = text.substr(from, end - from);
        if (!line.empty()) return line;
        end = from;
    }
    return "";
}

bool isExecutableFile(const std::string &path) {
    struct stat st {};
    return !path.empty() && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           access(path.c_str(), X_OK) == 0;
}

std::string withoutLines(const std::string &text, const std::string &a, const std::string &b) {
    if (a.empty() && b.empty()) return text;
    std::string kept;
    size_t begin = 0;
    while (begin < text.size()) {
        size_t end = text.find('\n', begin);
        const size_t next = end == std::string::npos ? text.size() : end + 1;
        const std::string_view line(text.data() + begin,
                                    (end == std::string::npos ? text.size() : end) - begin);
        if (line.empty() || (line != a && line != b)) kept.append(text, begin, next - begin);
        begin = next;
    }
    return kept;
}

} // namespace beamscope
