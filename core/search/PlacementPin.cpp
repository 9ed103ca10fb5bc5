// PlacementPin: a placement's pin, and the frozen pin of a state's placement.
#include "search/PlacementPin.h"

namespace beamscope {

namespace {

/// Per-loop sizes of stage 0 as per-Func-dimension sizes (RVars dropped): a pin's sizes are per
/// Func dimension, and the pure stage's loops are the dimensions.
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

Pin pinOfPlacement(const FunctionDAG &dag, int node, const FuncPlacement &p) {
    const Node &n = dag.node(node);
    Pin pin;
    pin.func = n.name;
    pin.location = p.kind;
    if (p.host >= 0) pin.host = dag.node(p.host).name;
    if (p.kind == ComputeKind::Root && !p.tilings.empty()) {
        pin.threads = perDimension(n, p.tilings[0].threads);
        pin.serial = perDimension(n, p.tilings[0].serial);
    } else if (p.kind == ComputeKind::Block && !p.tilings.empty()) {
        pin.serial = perDimension(n, p.tilings[0].serial);
    }
    return pin;
}

std::optional<Pin> freezePinFromState(const ScheduleState &state, int node) {
    const FuncPlacement &p = state.placement(node);
    if (p.kind == ComputeKind::Unscheduled) return std::nullopt;
    if (p.kind == ComputeKind::Root && (!p.tiled || p.tilings.empty())) return std::nullopt;
    Pin pin = pinOfPlacement(state.dag(), node, p);
    pin.frozen = true;
    return pin;
}

} // namespace beamscope
