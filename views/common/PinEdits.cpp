// PinEdits: pin descriptions and edits.
#include "views/common/PinEdits.h"

#include <algorithm>

namespace beamscope {

namespace {

std::string joinSizes(const std::vector<int64_t> &sizes) {
    std::string out;
    for (size_t i = 0; i < sizes.size(); ++i)
        out += (i ? "×" : "") + std::to_string(sizes[i]);
    return out;
}

} // namespace

std::string pinDescription(const Pin &pin) {
    std::string out = pin.location ? computeKindName(*pin.location) : "any location";
    if (!pin.host.empty()) out += " of " + pin.host;
    if (!pin.threads.empty()) out += ", threads " + joinSizes(pin.threads);
    if (!pin.serial.empty()) out += ", serial " + joinSizes(pin.serial);
    if (pin.frozen) out += ", frozen";
    return out;
}

std::vector<Pin> withPin(std::vector<Pin> pins, const Pin &pin) {
    pins = withoutPin(std::move(pins), pin.func);
    pins.push_back(pin);
    return pins;
}

std::vector<Pin> withoutPin(std::vector<Pin> pins, const std::string &func) {
    pins.erase(
        std::remove_if(pins.begin(), pins.end(), [&](const Pin &p) { return p.func == func; }),
        pins.end());
    return pins;
}

} // namespace beamscope
