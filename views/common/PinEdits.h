// PinEdits: the small pin operations the views offer — describe a pin, and replace or remove
// the pin on one Func. The pin that freezes a Func where a state placed it is core's
// freezePinFromState (search/PlacementPin.h).
#pragma once

#include "search/Pins.h"
#include "search/PlacementPin.h" // freezePinFromState

#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// "root, threads 16×4, serial 4×8, frozen" and the like.
std::string pinDescription(const Pin &pin);

/// `pins` with the pin on `pin.func` replaced by `pin` (or added).
std::vector<Pin> withPin(std::vector<Pin> pins, const Pin &pin);
/// `pins` without any pin on Func `func`.
std::vector<Pin> withoutPin(std::vector<Pin> pins, const std::string &func);

} // namespace beamscope
