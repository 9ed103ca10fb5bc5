// StructuralHash: a stable 64-bit hash of a schedule's loop-nest structure to a depth (paper
// Fig. 3). As in the authors' implementation, each loop level takes two depth units: first its
// loop sizes (as >1 or not, then exactly), then what is computed inside it. Depth 0: which
// Funcs have kernels; 1: which block loops are parallel; 2: exact block counts and the Funcs
// fused at block level (shared memory); 3: which thread loops are parallel; 4: exact thread
// extents and the Funcs fused at thread level (registers); 5: which serial loops are longer than
// 1; 6: exact serial extents and what is inlined. The search buckets at depth pass - 1 and
// penalizes at depth pass (SearchEngine), so the five passes of the paper never tell serial
// sizes apart exactly. Defined on node indices and extents only: identical on every platform
// and run. Kernel hashes are cached in the shared LoopNest nodes, so hashing a state costs one
// step per kernel once its kernels have been seen.
#pragma once

#include "schedule/ScheduleState.h"

#include <cstdint>

namespace beamscope {

/// The deepest depth that adds detail; deeper depths hash the same.
constexpr int kMaxHashDepth = 6;

/// The hash of `state` to `depth` (clamped to 0..kMaxHashDepth).
uint64_t structuralHash(const ScheduleState &state, int depth);

/// The hash the derived state will have, without materializing it.
uint64_t structuralHash(const Derivation &child, int depth);

/// The search's hash of a state: the number of decisions taken combined with the structure to
/// `depth`; at depth -1 the number of decisions alone (every child of one parent alike, the
/// freezing pre-pass's single bucket per parent).
uint64_t searchHash(const ScheduleState &state, int depth);
uint64_t searchHash(const Derivation &child, int depth);

} // namespace beamscope
