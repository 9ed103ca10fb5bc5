// FreezeCosts: a Func's cost for freezing, on hand-made stencil-chain schedules costed by the
// analytic model; the expectations are the split rule worked out from the state's own numbers.
#include "ScheduleTestUtil.h"

#include "cost/AnalyticalGpuCostModel.h"
#include "cost/Featurizer.h"
#include "search/FreezeCosts.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

StateCost costOf(const ScheduleState &state) {
    const GpuSpec gpu = GpuSpec::load("v100");
    Featurizer featurizer(gpu, false);
    AnalyticalGpuCostModel model(gpu);
    StateCost cost;
    model.enqueue(state, featurizer.featurize(state), &cost);
    model.evaluateAll();
    return cost;
}

double stageTotal(const StateCost &cost, int node) {
    double sum = 0;
    for (const StageCost &sc : cost.stages)
        if (sc.node == node) sum += sc.total();
    return sum;
}

const StageCost &rowOf(const StateCost &cost, int node) {
    for (const StageCost &sc : cost.stages)
        if (sc.node == node && sc.stage == 0) return sc;
    throw std::logic_error("no cost row");
}

const int kCompute = int(CostTerm::Compute);

} // namespace

TEST(FreezeCosts, WithNothingInlinedAFuncCostsItsStages) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("stencil_chain", kShortChain));
    const StatePtr state = stagedStencilChain(dag, /*inlineStage2=*/false);
    const StateCost cost = costOf(*state);
    const std::vector<double> perNode = funcCostsForFreezing(*dag, *state, cost, kCompute);
    for (const char *name : {"output", "stage_1", "stage_2", "stage_3"}) {
        const int node = dag->find(name);
        EXPECT_DOUBLE_EQ(perNode[size_t(node)], stageTotal(cost, node)) << name;
        EXPECT_GT(perNode[size_t(node)], 0.0) << name;
    }
}

TEST(FreezeCosts, AnInlinedFuncTakesItsShareOfItsConsumersCompute) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("stencil_chain", kShortChain));
    const StatePtr state = stagedStencilChain(dag, /*inlineStage2=*/true);
    const int stage2 = dag->find("stage_2"), stage3 = dag->find("stage_3");
    ASSERT_EQ(state->placement(stage2).kind, ComputeKind::Inline);
    const StateCost cost = costOf(*state);
    EXPECT_DOUBLE_EQ(stageTotal(cost, stage2), 0.0); // the model has no row for it
    const std::vector<double> perNode = funcCostsForFreezing(*dag, *state, cost, kCompute);

    // stage_3 evaluates stage_2 at its 25 taps: of its ops per point, its own arithmetic and
    // loads are its part, 25 x stage_2's arithmetic stage_2's.
    const Stage &s2 = dag->node(stage2).stages[0], &s3 = dag->node(stage3).stages[0];
    const double own = double(s3.features.arithmeticOps() + s3.features.loads());
    const double inlined = 25.0 * double(s2.features.arithmeticOps());
    ASSERT_GT(inlined, 0.0);
    const StageCost &row = rowOf(cost, stage3);
    const double compute = row.terms[size_t(kCompute)];
    EXPECT_NEAR(perNode[size_t(stage2)], compute * inlined / (own + inlined), 1e-12);
    // stage_3 keeps its own compute and every other term (loads through stage_2 included).
    EXPECT_NEAR(perNode[size_t(stage3)], row.total() - compute * inlined / (own + inlined), 1e-12);
    // Nothing is created or lost: the Funcs' costs add up to the state's.
    const double all = std::accumulate(perNode.begin(), perNode.end(), 0.0);
    double total = 0;
    for (const StageCost &sc : cost.stages) total += sc.total();
    EXPECT_NEAR(all, total, 1e-9 * total);
    // The other Funcs are unaffected.
    for (const char *name : {"output", "stage_1"}) {
        const int node = dag->find(name);
        EXPECT_DOUBLE_EQ(perNode[size_t(node)], stageTotal(cost, node)) << name;
    }
}

TEST(FreezeCosts, AModelWithoutAComputeTermSharesTheWholeCost) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("stencil_chain", kShortChain));
    const StatePtr state = stagedStencilChain(dag, /*inlineStage2=*/true);
    const int stage2 = dag->find("stage_2"), stage3 = dag->find("stage_3");
    const StateCost cost = costOf(*state);
    const std::vector<double> perNode = funcCostsForFreezing(*dag, *state, cost, -1);
    const Stage &s2 = dag->node(stage2).stages[0], &s3 = dag->node(stage3).stages[0];
    const double own = double(s3.features.arithmeticOps() + s3.features.loads());
    const double inlined = 25.0 * double(s2.features.arithmeticOps());
    const double total3 = rowOf(cost, stage3).total();
    EXPECT_NEAR(perNode[size_t(stage2)], total3 * inlined / (own + inlined), 1e-12);
    EXPECT_NEAR(perNode[size_t(stage3)], total3 * own / (own + inlined), 1e-12);
}
