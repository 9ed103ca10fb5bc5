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

class DeviceLock {
public:
    /// Locks `path` (created if missing); no lock for an empty path. Throws std::runtime_error.
    explicit DeviceLock(const std::string &path) {
        if (path.empty()) return;
        m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (m_fd < 0) throw std::runtime_error("cannot open the device lock " + path);
        while (::flock(m_fd, LOCK_EX) != 0) {
            if (errno != EINTR) throw std::runtime_error("cannot lock the device lock " + path);
        }
    }
    /// Closing the file releases the lock; the kernel drops it too when the process dies, so a
    /// crashed worker never blocks the others.
    ~DeviceLock() {
        if (m_fd >= 0) ::close(m_fd);
    }
    DeviceLock(const DeviceLock &) = delete;
    DeviceLock &operator=(const DeviceLock &) = delete;

private:
    int m_fd = -1;
};

} // namespace beamscope
