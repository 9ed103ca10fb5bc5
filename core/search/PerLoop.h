// PerLoop: per-dimension sizes (a pin's or a Why not? question's tiling, given per Func
// dimension) laid out per loop of a stage.
#pragma once

#include "dag/FunctionDAG.h"

#include <cstdint>
#include <vector>

namespace beamscope {

/// `perDim[d]` at each loop of `stage` over Func dimension d, 1 at its other loops (RVars) and
/// where `perDim` is too short.
inline std::vector<int64_t> perLoop(const Stage &stage, const std::vector<int64_t> &perDim) {
    std::vector<int64_t> out(stage.loops.size(), 1);
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        const int d = stage.loops[l].funcDim;
        if (d >= 0 && size_t(d) < perDim.size()) out[l] = perDim[size_t(d)];
    }
    return out;
}

} // namespace beamscope
