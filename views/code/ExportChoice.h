// ExportChoice: which schedule the export view shows for the state the user inspects. Only a
// complete schedule is valid Halide C++, and mid-search the inspected state rarely is one; a user
// who asks to export expects a schedule to use, so the view shows the inspected state when it is
// complete, else the best complete schedule the search has found so far (saying so), else a
// message telling when there will be one. Never throws.
#pragma once

#include "cost/CostModel.h"
#include "schedule/ScheduleState.h"

#include <QString>

#include <optional>

namespace beamscope {

class SelectionHub;

struct ExportChoice {
    StatePtr state;                ///< the complete state to export; null when there is none
    std::optional<StateCost> cost; ///< its cost per stage, when known
    QString caption;               ///< one line (rich text): what is shown and why
    QString message;               ///< when `state` is null: why nothing can be exported yet
};

/// The choice for what `hub` inspects now.
ExportChoice chooseExport(const SelectionHub &hub);

/// Funcs of `state` with a final placement, and Funcs to place (inputs not counted).
std::pair<int, int> placedFuncs(const ScheduleState &state);

} // namespace beamscope
