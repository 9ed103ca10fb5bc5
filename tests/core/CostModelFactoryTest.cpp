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

#include <algorithm>

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
        EXPECT_STREQ(e.what(), "unknown cost model 'x': use analytic, polymage, pretrained, "
                               "default or a model file");
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
    ASSERT_EQ(names.size(), 2 * kCostTerms + 1 + 5 + 23 + kFeatureCount);
    EXPECT_EQ(names.front(), "analytic_compute");
    EXPECT_EQ(names.back(), "sum_num_global_mem_scattered_requests_per_block");
    auto at = [&](const std::string &name) {
        const auto it = std::find(names.begin(), names.end(), name);
        EXPECT_NE(it, names.end()) << name;
        return size_t(it - names.begin());
    };

    // The same length for pipelines of different sizes.
    for (int length : {1, 4}) {
        auto dag = stencilChainDag(length);
        const StatePtr state = placeRest(ScheduleState::initial(dag));
        const GpuSpec gpu = GpuSpec::load("v100");
        Featurizer featurizer(gpu, false);
        const auto kernels = featurizer.featurize(*state);
        AnalyticalGpuCostModel model(gpu);
        StateCost cost;
        model.enqueue(*state, kernels, &cost);
        model.evaluateAll();
        const std::vector<float> v = scheduleFeatureVector(kernels, cost, gpu);
        ASSERT_EQ(v.size(), names.size());
        EXPECT_EQ(v, scheduleFeatureVector(kernels, cost, gpu));
        size_t stages = 0;
        double blocks = 0, weightedThreads = 0;
        for (const auto &k : kernels) {
            stages += k->size();
            for (const StageFeatureRow &r : *k)
                blocks += r.features[Feature::num_blocks];
        }
        for (size_t i = 0, row = 0; i < kernels.size(); ++i) {
            for (const StageFeatureRow &r : *kernels[i])
                weightedThreads += cost.stages[row++].total() / cost.total *
                                   r.features[Feature::num_threads_per_block] /
                                   gpu.maxThreadsPerBlock;
        }
        EXPECT_FLOAT_EQ(v[at("kernels")], float(std::log1p(double(kernels.size()))));
        EXPECT_FLOAT_EQ(v[at("stages")], float(std::log1p(double(stages))));
        EXPECT_FLOAT_EQ(v[at("sum_num_blocks")], float(std::log1p(blocks)));
        EXPECT_FLOAT_EQ(v[at("analytic_total")], float(std::log(cost.total)));
        // The cost-weighted mean of a stage shape, by hand.
        EXPECT_NEAR(v[at("mean_threads_per_block_fraction")], weightedThreads, 1e-6);
        // The term shares add up to 1.
        double shares = 0;
        for (size_t t = 0; t < kCostTerms; ++t)
            shares += v[at(std::string("share_") + costTermName(CostTerm(t)))];
        EXPECT_NEAR(shares, 1.0, 1e-5);
        // A zero term reads as log(1e-9), not -infinity.
        for (float x : v)
            EXPECT_TRUE(std::isfinite(x));
    }
}
