// BeamDiff: placement comparison per Func.
#include "views/beam/BeamDiff.h"

#include "views/common/Format.h"

namespace beamscope {

namespace {
bool samePlacement(const FuncPlacement &a, const FuncPlacement &b) {
    if (a.kind != b.kind || a.host != b.host || a.tiled != b.tiled) return false;
    if (a.kind == ComputeKind::Inline || a.kind == ComputeKind::Unscheduled) return true;
    return a.tilings == b.tilings;
}
} // namespace

std::vector<FuncDifference> placementDifferences(const ScheduleState &state,
                                                 const ScheduleState &reference) {
    std::vector<FuncDifference> out;
    for (int node : state.dag().outputsFirst()) {
        if (samePlacement(state.placement(node), reference.placement(node))) continue;
        out.push_back({node, format::placement(state, node), format::placement(reference, node)});
    }
    return out;
}

} // namespace beamscope
