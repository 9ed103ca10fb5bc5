// PinEdits: the small pin operations the views offer — describe a pin, build the pin that
// freezes a Func where a state placed it, and replace or remove the pin on one Func.
#pragma once

#include "search/Pins.h"

#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// "root, threads 16×4, serial 4×8, frozen" and the like.
std::string pinDescription(const Pin &pin);

/// A frozen pin that reproduces `node`'s placement in `state`; nullopt when the Func is not
/// placed yet (or is root but not tiled yet).
std::optional<Pin> freezePinFromState(const ScheduleState &state, int node);

/// `pins` with the pin on `pin.func` replaced by `pin` (or added).
std::vector<Pin> withPin(std::vector<Pin> pins, const Pin &pin);
/// `pins` without any pin on Func `func`.
std::vector<Pin> withoutPin(std::vector<Pin> pins, const std::string &func);

} // namespace beamscope
