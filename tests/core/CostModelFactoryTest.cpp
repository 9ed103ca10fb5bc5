// makeCostModel and the schedule feature vector: built-in names, one-line errors, term names
// reaching the search steps, and a fixed-length deterministic feature vector.
#include "ScheduleTestUtil.h"

#include "cost/AnalyticalGpuCostModel.h"
#include "cost/CostModelFactory.h"
#include "cost/Featurizer.h"
#include "cost/ScheduleFeatures.h"
#include "search/SearchEngine.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace beamscope;
using namespace beamscope::testing;

TEST(CostModelFactory, BuiltInNamesAndErrors) {
    const GpuSpec gpu = GpuSpec::load("v100");
    EXPECT_EQ(makeCostModel("analytic", gpu)->name(), "analytical-gpu");
    EXPECT_EQ(makeCostModel("analytic", gpu)->termNames(),
              (std::vector<std::string>{"compute", "load", "store", "parallelism", "working_set",
                                        "malloc"}));
    EXPECT_EQ(makeCostModel("polymage", gpu)->name(), "polymage-gpu");
    EXPECT_EQ(makeCostModel("polymage", gpu)->termNames().size(), 7u);
    try {
        makeCostModel("x", gpu);
        ADD_FAILURE() << "no error for an unknown model";
    } catch (const UsageError &e) {
        EXPECT_STREQ(e.what(), "unknown cost model 'x': use analytic, polymage or a model file");
    }
    try {
        makeCostModel("/nonexistent/model.json", gpu);
        ADD_FAILURE() << "no error for a missing file";
    } catch (const Error &e) {
        EXPECT_EQ(std::string(e.what()), "cannot read cost model file '/nonexistent/model.json'");
    }
}

TEST(CostModelFactory, SearchStepsCarryTheTermNamesOfTheModel) {
    SearchOptions options;
    options.gpu = GpuSpec::load("v100");
    options.beamSize = 2;
    options.passes = 1;
    options.costModel = "polymage";
    SearchEngine polymage(stencilChainDag(2), options);
    const SearchStepPtr step = polymage.step();
    EXPECT_EQ(step->termNames, polymage.costModel().termNames());
    EXPECT_EQ(step->termNames.front(), "gl_transactions");
    polymage.run();
    ASSERT_NE(polymage.best(), nullptr);
    EXPECT_GT(polymage.best()->cost.total, 0.0);

    options.costModel = "analytic";
    SearchEngine analytic(stencilChainDag(2), options);
    EXPECT_EQ(analytic.step()->termNames, analyticTermNames());
}

TEST(ScheduleFeatures, FixedLengthDeterministicVector) {
    const std::vector<std::string> names = scheduleFeatureNames();
    ASSERT_EQ(names.size(), kFeatureCount + 3 + kCostTerms);
    EXPECT_EQ(names.front(), "sum_num_realizations");
    EXPECT_EQ(names.back(), "analytic_total");

    // The same length for pipelines of different sizes.
    for (int length : {1, 4}) {
        auto dag = stencilChainDag(length);
        const StatePtr state = placeRest(ScheduleState::initial(dag));
        Featurizer featurizer(GpuSpec::load("v100"), false);
        const auto kernels = featurizer.featurize(*state);
        AnalyticalGpuCostModel model(GpuSpec::load("v100"));
        StateCost cost;
        model.enqueue(*state, kernels, &cost);
        model.evaluateAll();
        const std::vector<float> v = scheduleFeatureVector(kernels, cost);
        ASSERT_EQ(v.size(), names.size());
        EXPECT_EQ(v, scheduleFeatureVector(kernels, cost));
        size_t stages = 0;
        double blocks = 0;
        for (const auto &k : kernels) {
            stages += k->size();
            for (const StageFeatureRow &r : *k)
                blocks += r.features[Feature::num_blocks];
        }
        EXPECT_FLOAT_EQ(v[kFeatureCount], float(std::log1p(double(kernels.size()))));
        EXPECT_FLOAT_EQ(v[kFeatureCount + 1], float(std::log1p(double(stages))));
        EXPECT_FLOAT_EQ(v[size_t(Feature::num_blocks)], float(std::log1p(blocks)));
        EXPECT_FLOAT_EQ(v.back(), float(std::log(cost.total)));
        // A zero term reads as log(1e-9), not -infinity.
        for (float x : v)
            EXPECT_TRUE(std::isfinite(x));
    }
}
