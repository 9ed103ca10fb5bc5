// PlacementPin: the pin that stands for a Func's placement, so that a placement seen elsewhere
// (an imported schedule, a state shown in the GUI) can be asked about (Why not?) or frozen.
#pragma once

#include "search/Pins.h"

#include <optional>

namespace beamscope {

/// `placement` of `node` as a pin's fields (not frozen): its location, host, and per Func
/// dimension the pure stage's threads and serial sizes for a root Func, its serial sizes for a
/// block-level one.
Pin pinOfPlacement(const FunctionDAG &dag, int node, const FuncPlacement &placement);

/// A frozen pin that reproduces `node`'s placement in `state`; nullopt when the Func is not
/// placed yet (or is root but not tiled yet).
std::optional<Pin> freezePinFromState(const ScheduleState &state, int node);

} // namespace beamscope
