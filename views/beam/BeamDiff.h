// BeamDiff: the decisions in which one schedule state differs from another (the best of the
// beam): every Func whose compute location, host or tiling is not the same.
#pragma once

#include "schedule/ScheduleState.h"

#include <QString>

#include <vector>

namespace beamscope {

/// One Func decided differently.
struct FuncDifference {
    int node = -1;
    QString mine;   ///< the state's placement, in words
    QString theirs; ///< the reference's placement, in words
};

/// Funcs (in search order) placed differently in `state` than in `reference` (same DAG).
std::vector<FuncDifference> placementDifferences(const ScheduleState &state,
                                                 const ScheduleState &reference);

} // namespace beamscope
