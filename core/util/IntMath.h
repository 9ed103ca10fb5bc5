// IntMath: integer arithmetic of tile and block counts.
#pragma once

#include <cstdint>

namespace beamscope {

/// a / b rounded up, for a >= 0 and b > 0 (the number of tiles of size b that cover a).
inline int64_t ceilDiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

} // namespace beamscope
