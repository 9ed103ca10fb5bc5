// costOf: one state costed outside a search gives what the search itself gave it (the engine's
// batched, memoized path), with the model's own term names; a spec that names no model is a
// usage error.
#include "ScheduleTestUtil.h"

#include "cost/AnalyticalGpuCostModel.h"
#include "cost/CostOf.h"
#include "search/SearchEngine.h"
#include "util/Error.h"

#include <gtest/gtest.h>

using namespace beamscope;
using namespace beamscope::testing;

TEST(CostOf, GivesTheSearchsOwnCostOfItsBestState) {
    auto dag = stencilChainDag(3);
    SearchOptions options;
    options.beamSize = 4;
    options.passes = 1;
    options.gpu = GpuSpec::load("v100");
    SearchEngine engine(dag, options);
    engine.run();
    const BeamEntry *best = engine.best();
    ASSERT_TRUE(best && best->state->complete());
    const ModelCost cost = costOf(*best->state, "analytic", options.gpu);
    EXPECT_DOUBLE_EQ(cost.cost.total, best->cost.total);
    ASSERT_EQ(cost.cost.stages.size(), best->cost.stages.size());
    for (size_t t = 0; t < kMaxCostTerms; ++t)
        EXPECT_DOUBLE_EQ(cost.cost.terms[t], best->cost.terms[t]) << t;
    EXPECT_EQ(cost.termNames, analyticTermNames());
    const nlohmann::json terms = cost.termsByName();
    ASSERT_EQ(terms.size(), analyticTermNames().size());
    EXPECT_DOUBLE_EQ(terms.at("compute").get<double>(), cost.cost.terms[0]);
    // The same model built once and reused gives the same answer.
    AnalyticalGpuCostModel model(options.gpu);
    EXPECT_DOUBLE_EQ(costOf(*best->state, model, options.gpu).cost.total, best->cost.total);
}

TEST(CostOf, PolyMageHasItsOwnTermsAndUnknownSpecsAreRefused) {
    const StatePtr state = handMadeStencilChain(stencilChainDag(3)); // made for length 3
    const GpuSpec gpu = GpuSpec::load("v100");
    const ModelCost polymage = costOf(*state, "polymage", gpu);
    EXPECT_NE(polymage.termNames, analyticTermNames());
    EXPECT_EQ(polymage.termsByName().size(), polymage.termNames.size());
    EXPECT_GT(polymage.cost.total, 0);
    EXPECT_THROW(costOf(*state, "no-such-model", gpu), UsageError);
}
