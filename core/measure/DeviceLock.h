// DeviceLock: an exclusive flock on a file for the lifetime of the object, held around the timed
// runs on a device so that two measurements never share it (across processes). Header-only and
// free of Halide: beamscope-worker and beamscope-aot-runner both hold it.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <string>

namespace beamscope {

/// Lines a process writes to its stderr around a wait for a device lock another process holds:
/// runProcess stops a child's timeout clock between them (ProcessOptions::pauseMarker), so a
/// measurement queued behind another one on the device is not reported as hung.
inline constexpr const char *kDeviceLockWaitLine = "beamscope-device-lock: waiting";
inline constexpr const char *kDeviceLockHeldLine = "beamscope-device-lock: held";

class DeviceLock {
public:
    /// Locks `path` (created if missing); no lock for an empty path. When another process holds
    /// it, the wait is announced on `announceFd` (stderr; -1: not announced) with the lines
    /// above. Throws std::runtime_error.
    explicit DeviceLock(const std::string &path, int announceFd = 2) {
        if (path.empty()) return;
        m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (m_fd < 0) throw std::runtime_error("cannot open the device lock " + path);
        if (::flock(m_fd, LOCK_EX | LOCK_NB) == 0) return;
        announce(announceFd, kDeviceLockWaitLine);
        while (::flock(m_fd, LOCK_EX) != 0) {
            if (errno != EINTR) {
                announce(announceFd, kDeviceLockHeldLine); // the wait is over either way
                throw std::runtime_error("cannot lock the device lock " + path);
            }
        }
        announce(announceFd, kDeviceLockHeldLine);
    }
    /// Closing the file releases the lock; the kernel drops it too when the process dies, so a
    /// crashed worker never blocks the others.
    ~DeviceLock() {
        if (m_fd >= 0) ::close(m_fd);
    }
    DeviceLock(const DeviceLock &) = delete;
    DeviceLock &operator=(const DeviceLock &) = delete;

private:
    static void announce(int fd, const char *line) {
        if (fd < 0) return;
        const std::string text = std::string(line) + "\n";
        [[maybe_unused]] const ssize_t n =
            ::write(fd, text.data(), text.size()); // one write: one line
    }

    int m_fd = -1;
};

} // namespace beamscope
