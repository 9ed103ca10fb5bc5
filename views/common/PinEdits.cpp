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

/// Per-loop sizes of stage 0 as per-Func-dimension sizes (RVars dropped).
std::vector<int64_t> perDimension(const Node &node, const std::vector<int64_t> &perLoop) {
    std::vector<int64_t> out(size_t(node.dimensions), 1);
    const Stage &stage = node.stages.front();
    for (size_t l = 0; l < stage.loops.size() && l < perLoop.size(); ++l) {
        const int dim = stage.loops[l].funcDim;
        if (dim >= 0 && dim < node.dimensions) out[size_t(dim)] = perLoop[l];
    }
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

std::optional<Pin> freezePinFromState(const ScheduleState &state, int node) {
    const Node &n = state.dag().node(node);
    const FuncPlacement &p = state.placement(node);
    Pin pin;
    pin.func = n.name;
    pin.frozen = true;
    pin.location = p.kind;
    switch (p.kind) {
    case ComputeKind::Unscheduled:
        return std::nullopt;
    case ComputeKind::Inline:
        break;
    case ComputeKind::Root:
        if (!p.tiled || p.tilings.empty()) return std::nullopt;
        pin.threads = perDimension(n, p.tilings[0].threads);
        pin.serial = perDimension(n, p.tilings[0].serial);
        break;
    case ComputeKind::Block:
        pin.host = state.dag().node(p.host).name;
        if (!p.tilings.empty()) pin.serial = perDimension(n, p.tilings[0].serial);
        break;
    case ComputeKind::Thread:
        pin.host = state.dag().node(p.host).name;
        break;
    }
    return pin;
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
