// StructuralHash: a stable 64-bit hash of a schedule's loop-nest structure to a depth (paper
// Fig. 3). Depth 0: which Funcs have kernels; 1: + what is computed at each kernel's block
// level and what is inlined; 2: + what is computed at thread level; 3: + block counts;
// 4: + thread extents; 5 and deeper: + serial extents. Defined on node indices and extents
// only: identical on every platform and run. Kernel hashes are cached in the shared LoopNest
// nodes, so hashing a state costs one step per kernel once its kernels have been seen.
#pragma once

#include "schedule/ScheduleState.h"

#include <cstdint>

namespace beamscope {

/// The deepest depth that adds detail; deeper depths hash the same.
constexpr int kMaxHashDepth = 5;

/// The hash of `state` to `depth`.
uint64_t structuralHash(const ScheduleState &state, int depth);

} // namespace beamscope
