// ParallelTileFilter: block counts and idle-core wastage of a tiling, and the filter that keeps
// the tilings with enough parallelism (4.3).
#include "search/ParallelTileFilter.h"

#include "util/IntMath.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace beamscope {

namespace {

std::string wastageText(double w) {
    std::ostringstream s;
    s.precision(3);
    s << w;
    return s.str();
}

} // namespace

TileParallelism tileParallelism(const Node &node, const std::vector<StageTiling> &tilings,
                                int smCount) {
    TileParallelism out;
    const int64_t floor = 2 * int64_t(std::max(1, smCount));
    bool counted = false;
    for (size_t s = 0; s < node.stages.size() && s < tilings.size(); ++s) {
        const Stage &stage = node.stages[s];
        const StageTiling &t = tilings[s];
        // Blocks of the stage, and the most it could have (one thread per block).
        int64_t blocks = 1, available = 1;
        for (size_t l = 0; l < stage.loops.size(); ++l) {
            if (stage.loops[l].isReduction) continue;
            blocks *= t.blocks[l];
            available *= ceilDiv(stage.loops[l].estimate.extent(), t.serial[l]);
        }
        // A stage too small for 2x the SMs whatever the tiling, which keeps its whole extent
        // in blocks, is not held against the tiling.
        if (available < floor && blocks == available) continue;
        out.minBlocks = counted ? std::min(out.minBlocks, blocks) : blocks;
        counted = true;
        const double perSm = double(blocks) / double(std::max(1, smCount));
        out.idleCoreWastage = std::max(out.idleCoreWastage, std::ceil(perSm) / perSm);
    }
    return out;
}

std::vector<std::string> filterParallelTilings(const std::vector<TileParallelism> &options,
                                               int smCount, const ParallelFilterOptions &limits) {
    const int64_t sms = std::max(1, smCount);
    std::vector<std::string> why(options.size());
    std::vector<bool> kept(options.size(), false);
    auto keepFrom = [&](double floor) {
        bool any = false;
        for (size_t i = 0; i < options.size(); ++i) {
            kept[i] = double(options[i].minBlocks) >= floor;
            any |= kept[i];
        }
        return any;
    };
    // The preferred floor, then SMs, SMs / 2, ..., 1, 0 (every option).
    bool any = keepFrom(limits.minBlocksPerSm * double(sms));
    for (int64_t floor = sms; !any; floor /= 2) {
        any = keepFrom(double(floor));
        if (floor == 0) break;
    }
    bool wellFilled = false;
    for (size_t i = 0; i < options.size(); ++i)
        wellFilled |= kept[i] && options[i].idleCoreWastage <= limits.maxIdleCoreWastage;
    for (size_t i = 0; i < options.size(); ++i) {
        if (!kept[i]) {
            why[i] = std::to_string(options[i].minBlocks) + " blocks for " + std::to_string(sms) +
                     " SMs (other tilings give more)";
        } else if (wellFilled && options[i].idleCoreWastage > limits.maxIdleCoreWastage) {
            why[i] = "its last wave of blocks leaves SMs idle (idle-core wastage " +
                     wastageText(options[i].idleCoreWastage) + ", others within " +
                     wastageText(limits.maxIdleCoreWastage) + ")";
        }
    }
    return why;
}

} // namespace beamscope
