// Integer division rounding toward negative infinity, as Halide's `/` on integers, for the
// index analyses (Affine.cpp, IndexBounds.cpp).
#pragma once

#include <cstdint>

namespace beamscope {

inline int64_t floorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

} // namespace beamscope
