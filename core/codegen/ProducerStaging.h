// ProducerStaging: which producers a consumer reads through a register copy made at its
// innermost thread loop (paper 4.7: "we stage producers (including ones inlined) at the thread
// level of their consumer"). ScheduleCalls turns each choice into Func::in calls.
#pragma once

#include "codegen/ScheduleCalls.h"

#include <cstdint>
#include <vector>

namespace beamscope {

/// How a consumer's stage plan lowers its thread tile.
struct ThreadTile {
    int consumer = -1;
    bool constantSize = false; ///< every tile split shifts inwards: all tiles have one size
    bool unrolled = false;     ///< serial loops unrolled: staged points get constant indices
};

/// A producer staged into one consumer, and the extent of each thread's copy per dimension.
struct StagedProducer {
    int producer = -1;
    std::vector<int64_t> extents;
};

/// The producers that `tile.consumer` stages, in the order of its incoming edges (the rule is
/// at the top of the .cpp). Empty when options.stageProducers is off.
std::vector<StagedProducer> stagedProducers(const ScheduleState &state, const ThreadTile &tile,
                                            const ScheduleCallOptions &options);

} // namespace beamscope
