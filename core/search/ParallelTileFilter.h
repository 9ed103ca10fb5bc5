// ParallelTileFilter: which tilings of a root Func give the GPU enough blocks (paper 4.3, as
// the authors' implementation filters them before states are formed). A tiling's parallelism
// is its block count per stage; the filter keeps the tilings with at least 2x the SMs in every
// stage (relaxing the floor to 1x, 1/2x, ... when none has that many), and of those, the ones
// whose blocks fill the SMs' last wave to within 1.2x (idle-core wastage) when any do.
#pragma once

#include "dag/FunctionDAG.h"
#include "schedule/ScheduleState.h"

#include <cstdint>
#include <string>
#include <vector>

namespace beamscope {

/// The parallelism of one tiling of a root Func.
struct TileParallelism {
    /// Fewest blocks of a stage that counts (a stage too small for 2x the SMs whatever the
    /// tiling, tiled with one thread per block, does not count); 0 when none counts.
    int64_t minBlocks = 0;
    /// ceil(blocks / SMs) / (blocks / SMs), the most over the counted stages (1: the last wave
    /// of blocks fills every SM).
    double idleCoreWastage = 1;
};

/// Thresholds of the filter (the authors' implementation's values by default).
struct ParallelFilterOptions {
    double minBlocksPerSm = 2;       ///< blocks per SM a tiling should give every stage
    double maxIdleCoreWastage = 1.2; ///< above it, a tiling is used only when no other is
};

/// Blocks and idle-core wastage of `tilings` (one per stage of `node`) on `smCount` SMs.
TileParallelism tileParallelism(const Node &node, const std::vector<StageTiling> &tilings,
                                int smCount);

/// Why each option is dropped ("" when kept), in the options' order. Kept: those with
/// minBlocks >= minBlocksPerSm x SMs; when there are none, those with at least SMs, then SMs/2,
/// ... blocks (at least one option is always kept). Of the kept, those with a wastage above
/// maxIdleCoreWastage are dropped when some kept option is within it.
std::vector<std::string> filterParallelTilings(const std::vector<TileParallelism> &options,
                                               int smCount, const ParallelFilterOptions &limits);

} // namespace beamscope
