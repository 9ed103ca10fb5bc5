// StructuralHash: a stable 64-bit hash of a schedule's loop-nest structure to a depth (paper
// Fig. 3). Depth 0: which Funcs have kernels; 1: + what is computed at each kernel's block
// level and what is inlined; 2: + thread-level Funcs and block counts; 3: + thread extents;
// 4 and deeper: + serial extents. Defined on node indices and extents only: identical on every
// platform and run.
#pragma once

#include "schedule/ScheduleState.h"

#include <cstdint>

namespace beamscope {

/// The hash of `state` to `depth`.
uint64_t structuralHash(const ScheduleState &state, int depth);

} // namespace beamscope
