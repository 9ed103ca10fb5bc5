// StructuralHash: a stable 64-bit hash of a schedule's loop-nest structure to a depth (paper
// Fig. 3). Depth 0: which Funcs have kernels; 1: + what is computed at each kernel's block
// level (shared memory), what is inlined, and which block loops are parallel (extent > 1);
// 2: + what is computed at thread level (registers) and the exact block counts; 3: + which
// thread loops are parallel; 4: + exact thread extents; 5: + which serial loops are longer
// than 1; 6 and deeper: + exact serial extents. So early passes bucket by compute structure
// and the five passes of the paper never tell serial sizes apart exactly: those are what
// hierarchical sampling draws from. Defined on node indices and extents only: identical on
// every platform and run. Kernel hashes are cached in the shared LoopNest nodes, so hashing a
// state costs one step per kernel once its kernels have been seen.
#pragma once

#include "schedule/ScheduleState.h"

#include <cstdint>

namespace beamscope {

/// The deepest depth that adds detail; deeper depths hash the same.
constexpr int kMaxHashDepth = 6;

/// The hash of `state` to `depth`.
uint64_t structuralHash(const ScheduleState &state, int depth);

/// The hash the derived state will have, without materializing it.
uint64_t structuralHash(const Derivation &child, int depth);

} // namespace beamscope
