// Timing: the milliseconds progress lines and reports show.
#pragma once

#include <chrono>

namespace beamscope {

/// Milliseconds of the steady clock since `start`.
inline double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace beamscope
