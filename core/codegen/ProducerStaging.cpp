// ProducerStaging: the rule for staging producers in registers (paper 4.7).
//
// A consumer C stages a producer P, i.e. reads it through P.in(C) computed at C's innermost
// thread loop and stored in registers, when all of these hold:
//  - C is a single-stage root Func whose tiles have a constant size (its tile splits shift
//    inwards) and whose serial loops are unrolled with more than one point: there is reuse
//    within a thread, the copy has a constant size, and the unrolled loops index it with
//    constants, which is what lets it live in registers. (An update's tiles are guarded, and
//    so are a block-level Func's; nothing is staged into them, as nothing is fused into them.)
//  - P is a Func computed at root (global memory), at C's block level (shared memory) or
//    inlined. An inlined P's copy is computed, once per point a thread needs, instead of at
//    every use: that is how the paper stages "ones inlined". A Func already at C's thread
//    level is in registers. An ImageParam is read through its inlined "<name>_im" Func, which
//    is staged like any inlined Func; a Buffer called directly is not (Func::in wraps Funcs).
//  - Every argument of every call of C to P is affine, without division or clamp, and the
//    calls have the same slopes along each dimension (f(x, c) and f(x, 3) do not: the hull of
//    c and 3 depends on the tile): the points a tile reads then form a box of the same size in
//    every thread.
//  - The box is smaller than the loads it replaces (calls at distinct points x serial points):
//    there is reuse.
//  - It fits in the register budget the search gives a thread-level Func, together with the
//    Funcs already at C's thread level and the producers staged before it (edge order).
#include "codegen/ProducerStaging.h"

#include <algorithm>

namespace beamscope {

namespace {

/// Every call's arguments are affine without division or clamp, and the calls have the same
/// slopes along each dimension (see the rule above).
bool readsTranslatedBox(const Edge &edge) {
    if (edge.calls.empty()) return false;
    const CallSite &first = edge.calls.front();
    for (const CallSite &site : edge.calls) {
        if (site.args.size() != first.args.size()) return false;
        for (size_t d = 0; d < site.args.size(); ++d) {
            const CallArg &arg = site.args[d];
            if (!arg.affine || arg.affine->denominator != 1 || arg.affine->isClamped())
                return false;
            // f(x, c) and f(x, 3): the hull of c and 3 has a size that depends on the tile.
            if (!first.args[d].affine || arg.affine->coeffs != first.args[d].affine->coeffs)
                return false;
        }
    }
    return true;
}

bool sameForm(const AffineForm &a, const AffineForm &b) {
    return a.coeffs == b.coeffs && a.constant == b.constant && a.denominator == b.denominator &&
           a.clampMin == b.clampMin && a.clampMax == b.clampMax;
}

/// Calls at distinct points: the elements of a Tuple, and repeated calls, load one point.
int64_t distinctCalls(const Edge &edge) {
    int64_t count = 0;
    for (size_t i = 0; i < edge.calls.size(); ++i) {
        const auto same = [&](const CallSite &earlier) {
            const auto &a = earlier.args, &b = edge.calls[i].args;
            if (a.size() != b.size()) return false;
            for (size_t d = 0; d < a.size(); ++d) {
                if (!sameForm(*a[d].affine, *b[d].affine)) return false;
            }
            return true;
        };
        if (std::none_of(edge.calls.begin(), edge.calls.begin() + long(i), same)) ++count;
    }
    return count;
}

/// P is a Func that Func::in can wrap, stored outside C's thread level.
bool canStage(const ScheduleState &state, int producer) {
    if (state.dag().node(producer).isInput) return false;
    switch (state.placement(producer).kind) {
    case ComputeKind::Root:
    case ComputeKind::Block:
    case ComputeKind::Inline:
        return true;
    default:
        return false;
    }
}

/// Register bytes per thread taken by the Funcs computed at `consumer`'s thread level.
int64_t threadLevelBytes(const ScheduleState &state, int consumer) {
    int64_t bytes = 0;
    for (const Node &n : state.dag().nodes()) {
        if (n.isInput) continue;
        const FuncPlacement &p = state.placement(n.index);
        if (p.kind == ComputeKind::Thread && p.host == consumer) {
            bytes += boxVolume(p.region) * n.bytesPerPoint;
        }
    }
    return bytes;
}

/// The points of one thread's serial tile, from 0 along each loop of the stage.
Box serialTile(const Stage &stage, const StageTiling &tiling) {
    Box box;
    for (size_t l = 0; l < stage.loops.size(); ++l) {
        box.push_back({0, std::max<int64_t>(1, tiling.serial[l]) - 1});
    }
    return box;
}

} // namespace

std::vector<StagedProducer> stagedProducers(const ScheduleState &state, const ThreadTile &tile,
                                            const ScheduleCallOptions &options) {
    if (!options.stageProducers || !tile.constantSize || !tile.unrolled) return {};
    const FunctionDAG &dag = state.dag();
    const Node &consumer = dag.node(tile.consumer);
    const FuncPlacement &placement = state.placement(tile.consumer);
    if (placement.kind != ComputeKind::Root || consumer.stages.size() != 1) return {};
    const Stage &stage = consumer.stages[0];
    const Box tileBox = serialTile(stage, placement.tilings.at(0));
    const int64_t points = boxVolume(tileBox);
    if (points <= 1) return {};

    std::vector<StagedProducer> staged;
    int64_t used = threadLevelBytes(state, tile.consumer);
    for (int e : stage.incoming) {
        const Edge &edge = dag.edge(e);
        if (!canStage(state, edge.producer) || !readsTranslatedBox(edge)) continue;
        const Box box = edge.requiredRegion(tileBox);
        const int64_t bytes = boxVolume(box) * dag.node(edge.producer).bytesPerPoint;
        const int64_t loads = distinctCalls(edge) * points;
        if (boxVolume(box) >= loads || used + bytes > options.registerBytesPerThread) continue;
        used += bytes;
        StagedProducer s{edge.producer, {}};
        for (const Interval &i : box)
            s.extents.push_back(i.extent());
        staged.push_back(std::move(s));
    }
    return staged;
}

} // namespace beamscope
