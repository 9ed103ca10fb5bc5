// CompareSide: one of the two schedule states the side-by-side view compares — the state, its
// predicted cost by stage and term when known, what it is ("beam #3 at step 120"), and its
// measured time when it was benchmarked.
#pragma once

#include "cost/CostModel.h"
#include "schedule/ScheduleState.h"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace beamscope {

struct CompareSide {
    StatePtr state;
    std::optional<StateCost> cost;
    QString label;
    std::optional<double> measuredMs; ///< median measured time, when benchmarked
    QString measuredAs; ///< where and as what ("OpenCL CPU, Benchmark dock: result"), or empty
    std::vector<std::string> termNames; ///< the cost model's terms (empty: the analytic ones)

    bool isSet() const { return state != nullptr; }
};

} // namespace beamscope
