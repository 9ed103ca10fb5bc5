// JsonNumber: a double as a JSON value, null when it is not finite (JSON has no NaN or infinity).
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>

namespace beamscope {

inline nlohmann::json jsonNumber(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

} // namespace beamscope
