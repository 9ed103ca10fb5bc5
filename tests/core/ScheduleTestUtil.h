// Helpers for tests that build schedules by hand on the stencil chain.
#pragma once

#include "dag/FunctionDAG.h"
#include "pipeline/AppCatalog.h"
#include "schedule/ScheduleState.h"
#include "search/SearchEngine.h"
#include "search/SearchSpace.h"
#include "util/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace beamscope::testing {

/// The greedy search's schedule of `dag` for the preset `gpu` (its cost in `cost` when given).
inline StatePtr greedySchedule(const std::shared_ptr<const FunctionDAG> &dag,
                               const std::string &gpu, StateCost *cost = nullptr) {
    SearchOptions options = SearchOptions::greedy();
    options.gpu = GpuSpec::load(gpu);
    SearchEngine engine(dag, options);
    engine.run();
    if (!engine.best()) throw Error("greedy search found no schedule");
    if (cost) *cost = engine.best()->cost;
    return engine.best()->state;
}

/// The stencil chain of `length` 5x5 stages over a 1536x2560 image.
inline std::shared_ptr<const FunctionDAG> stencilChainDag(int length) {
    return std::make_shared<const FunctionDAG>(
        buildApp("stencil_chain", {{"length", length}, {"width", 1536}, {"height", 2560}}));
}

/// A root tiling of every stage of `name` with the given per-loop threads and serial sizes.
inline StatePtr rootTiled(const StatePtr &state, const std::string &name,
                          std::vector<int64_t> threads, std::vector<int64_t> serial) {
    const int node = state->dag().find(name);
    std::vector<StageTiling> tilings;
    for (const Stage &s : state->dag().node(node).stages) {
        tilings.push_back(ScheduleState::makeTiling(s, threads, serial));
    }
    return state->withRootTiling(node, tilings);
}

/// Places every Func not yet placed, outputs first: pointwise ones inline, the rest at root
/// with 32x8 threads.
inline StatePtr placeRest(StatePtr state) {
    const FunctionDAG &dag = state->dag();
    for (int node : dag.outputsFirst()) {
        if (state->placement(node).kind != ComputeKind::Unscheduled) continue;
        if (dag.node(node).pointwiseUsesOnly) {
            state = state->withInline(node);
        } else {
            state = rootTiled(state, dag.node(node).name, {32, 8}, {1, 1});
        }
    }
    return state;
}

/// The parameters of the short stencil chain the hand-made schedules below are made for.
inline const AppParams kShortChain = {{"length", 3}, {"width", 1536}, {"height", 2560}};

/// Stencil chain of length 3: output at root (threads 16x8, serial 2x2), stage_3 and its
/// producer stage_2 in shared memory at output's block level, the other stencils at root.
inline StatePtr handMadeStencilChain(const std::shared_ptr<const FunctionDAG> &dag) {
    StatePtr s = ScheduleState::initial(dag);
    s = rootTiled(s, "output", {16, 8}, {2, 2});
    s = s->withBlock(dag->find("stage_3"), dag->find("output"), {1, 2});
    s = s->withBlock(dag->find("stage_2"), dag->find("output"), {2, 1});
    return placeRest(s);
}

/// Stencil chain of length 3: output at root (threads 32x8, serial 1x1), stage_3 in registers
/// at output's thread level (one point per thread, unrolled), stage_2 in shared memory at
/// output's block level.
inline StatePtr threadFusedStencilChain(const std::shared_ptr<const FunctionDAG> &dag) {
    StatePtr s = ScheduleState::initial(dag);
    s = rootTiled(s, "output", {32, 8}, {1, 1});
    s = s->withThread(dag->find("stage_3"), dag->find("output"));
    s = s->withBlock(dag->find("stage_2"), dag->find("output"), {2, 2});
    return placeRest(s);
}

/// Stencil chain of length 3 whose stage_3 (at root, threads 16x8, serial 2x2) reads stage_2
/// through its 5x5 window: each thread's 2x2 tile makes 100 loads from a 6x6 box, which it
/// stages in registers. stage_2 is at root (global memory) or, with `inlineStage2`, inlined.
/// Nothing else has a serial tile to stage into.
inline StatePtr stagedStencilChain(const std::shared_ptr<const FunctionDAG> &dag,
                                   bool inlineStage2 = false) {
    StatePtr s = ScheduleState::initial(dag);
    s = rootTiled(s, "output", {32, 8}, {1, 1});
    s = rootTiled(s, "stage_3", {16, 8}, {2, 2});
    if (inlineStage2) s = s->withInline(dag->find("stage_2"));
    return placeRest(s);
}

/// The labels of the locations the search offers `node` in `state`, kept ones first; with
/// `withPruned`, the pruned ones after them.
inline std::vector<std::string> locationLabels(const SearchSpace &space, const ScheduleState &state,
                                               int node, bool withPruned = false) {
    std::vector<Candidate> kept;
    std::vector<PrunedCandidate> pruned;
    space.locations(state, node, kept, pruned);
    std::vector<std::string> labels;
    for (const Candidate &c : kept)
        labels.push_back(c.label);
    if (withPruned) {
        for (const PrunedCandidate &p : pruned)
            labels.push_back(p.label);
    }
    return labels;
}

} // namespace beamscope::testing
