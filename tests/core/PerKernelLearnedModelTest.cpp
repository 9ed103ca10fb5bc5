// The per-kernel learned model (objective "kernels", the paper's structure) with the real
// XGBoost: each kernel's analytic time corrected by a learned factor and the kernels summed. It
// learns a per-kernel slowdown its analytic prior misses, predicts a sum (two copies of a kernel
// cost twice one), round-trips through its file with its structure, refuses a schedule-level
// prediction and a mismatched fine-tuning with one line, and serves a search; the kernel rows it
// reads are the schedule's kernels read as one-kernel schedules.
#include "LearnedModelTestUtil.h"
#include "ScheduleTestUtil.h"

#include "cost/AnalyticalGpuCostModel.h"
#include "cost/CostOf.h"
#include "cost/Featurizer.h"
#include "cost/LearnedCostModel.h"
#include "cost/RankMetrics.h"
#include "cost/ScheduleFeatures.h"
#include "search/SearchEngine.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

/// Schedules of 1 to 4 kernels. A kernel's true time is its analytic time times exp(1.5 x0),
/// x0 its feature 0 in [0, 1) (up to 4.5x slower than the prior says); the measured time is the
/// kernels' sum with 1% noise; the prior is the plain sum of the analytic times. Two groups at
/// different scales.
std::vector<TrainingRow> kernelRows(int count, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::uniform_int_distribution<int> kernelCount(1, 4);
    std::normal_distribution<double> noise(0.0, 0.01);
    const size_t width = kernelFeatureNames().size();
    std::vector<TrainingRow> rows;
    for (int i = 0; i < count; ++i) {
        TrainingRow r;
        r.group = i % 2 ? "pipeline_b" : "pipeline_a";
        const double scale = i % 2 ? 10.0 : 1.0;
        double truth = 0;
        for (int k = kernelCount(rng); k > 0; --k) {
            KernelFeatureRow kernel;
            kernel.features.resize(width);
            for (float &f : kernel.features)
                f = unit(rng);
            kernel.analyticMs = scale * (0.2 + unit(rng));
            truth += kernel.analyticMs * std::exp(1.5 * kernel.features[0]);
            r.analyticMs += kernel.analyticMs;
            r.kernels.push_back(std::move(kernel));
        }
        r.features.assign(scheduleFeatureNames().size(), 0.0f);
        r.measuredMs = truth * std::exp(noise(rng));
        rows.push_back(std::move(r));
    }
    return rows;
}

std::string tempPath(const std::string &name) {
    return beamscope::testing::tempPath("beamscope-per-kernel", name);
}

ModelMetadata testMetadata() {
    return beamscope::testing::testMetadata("PerKernelLearnedModelTest");
}

TrainOptions kernelOptions(int rounds) {
    TrainOptions options;
    options.objective = TrainObjective::SummedKernels;
    options.rounds = rounds;
    options.maxDepth = 3;
    options.eta = 0.2;
    return options;
}

/// A real state (the stencil chain of 4 placed by placeRest), its kernels' features and its
/// analytic cost, on the v100 preset.
struct FeaturizedState {
    GpuSpec gpu;
    std::vector<std::shared_ptr<const KernelFeatures>> kernels;
    StateCost cost;
};

FeaturizedState featurizedStencilChain() {
    auto dag = stencilChainDag(4);
    const StatePtr state = placeRest(ScheduleState::initial(dag));
    FeaturizedState f{GpuSpec::load("v100"), {}, {}};
    Featurizer featurizer(f.gpu, false);
    f.kernels = featurizer.featurize(*state);
    AnalyticalGpuCostModel analytic(f.gpu);
    f.cost = costOf(*state, analytic, f.kernels).cost;
    return f;
}

} // namespace

TEST(PerKernelLearnedModel, LearnsAKernelSlowdownItsPriorMisses) {
    const std::vector<TrainingRow> rows = kernelRows(600, 3);
    const std::vector<TrainingRow> train(rows.begin(), rows.begin() + 400),
        test(rows.begin() + 400, rows.end());
    auto model = LearnedCostModel::train(train, testMetadata(), kernelOptions(60));
    EXPECT_EQ(model->structure(), ModelStructure::Kernels);
    std::vector<double> prior;
    for (const TrainingRow &r : test)
        prior.push_back(r.analyticMs);
    const double priorTau = meanTau(test, prior);
    const double learnedTau = meanTau(test, model->predictMs(test));
    EXPECT_GT(learnedTau, 0.8);
    EXPECT_GT(learnedTau, priorTau + 0.1) << "prior " << priorTau;
    // One row's prediction is the batch's.
    EXPECT_DOUBLE_EQ(model->predictMs(test[5]), model->predictMs(test)[5]);
}

TEST(PerKernelLearnedModel, FittedToEachKernelsOwnTimeItLearnsTheKernelsFactor) {
    // The same schedules, each kernel's own time known (as CUPTI gives it on CUDA): the factor
    // exp(1.5 x0) is learned from the kernels themselves, schedules without times left out.
    std::vector<TrainingRow> rows = kernelRows(400, 13);
    for (size_t i = 0; i < rows.size(); ++i) {
        if (i % 4 == 3) continue; // a quarter without per-kernel times
        for (const KernelFeatureRow &k : rows[i].kernels)
            rows[i].kernelMeasuredMs.push_back(k.analyticMs * std::exp(1.5 * k.features[0]));
    }
    TrainOptions options = kernelOptions(80);
    options.objective = TrainObjective::KernelTimes;
    auto model = LearnedCostModel::train(rows, testMetadata(), options);
    EXPECT_EQ(model->structure(), ModelStructure::Kernels);
    TrainingRow one = kernelRows(1, 17).front();
    one.kernels.resize(1);
    for (float x0 : {0.1f, 0.5f, 0.9f}) {
        one.kernels.front().features[0] = x0;
        const double factor = model->predictMs(one) / one.kernels.front().analyticMs;
        EXPECT_NEAR(std::log(factor), 1.5 * x0, 0.15) << "x0 " << x0;
    }
    const std::string file = tempPath("kernel-times.model");
    model->save(file);
    const nlohmann::json doc = nlohmann::json::parse(readFile(file));
    EXPECT_EQ(doc.at("metadata").at("extra").at("training").at("objective"), "kernel-times");
    // Kernels of the 300 rows with times, none of the others.
    size_t timed = 0;
    for (size_t i = 0; i < rows.size(); ++i)
        timed += rows[i].kernelMeasuredMs.empty() ? 0 : rows[i].kernels.size();
    EXPECT_EQ(doc.at("metadata").at("extra").at("training_kernels"), timed);
    // Without a single kernel time there is nothing to fit: one line.
    const std::string message =
        errorOf([&] { LearnedCostModel::train(kernelRows(20, 19), testMetadata(), options); });
    EXPECT_NE(message.find("no training row has per-kernel times"), std::string::npos) << message;
    EXPECT_EQ(parseTrainObjective("kernel-times"), TrainObjective::KernelTimes);
}

TEST(PerKernelLearnedModel, PredictsTheSumOfItsKernels) {
    auto model = LearnedCostModel::train(kernelRows(200, 5), testMetadata(), kernelOptions(20));
    TrainingRow one = kernelRows(1, 9).front();
    one.kernels.resize(1);
    TrainingRow twice = one;
    twice.kernels.push_back(one.kernels.front());
    // Only the sum's structure: the share feature is not changed, so each copy is corrected alike.
    EXPECT_DOUBLE_EQ(model->predictMs(twice), 2 * model->predictMs(one));
    // A kernel's corrected time is proportional to its analytic time at the same features.
    TrainingRow slower = one;
    slower.kernels.front().analyticMs *= 3;
    EXPECT_DOUBLE_EQ(model->predictMs(slower), 3 * model->predictMs(one));
    // Schedule-level features alone cannot be predicted from.
    const std::string message = errorOf([&] { model->predictMs(one.features, one.analyticMs); });
    EXPECT_NE(message.find("corrects each kernel"), std::string::npos) << message;
}

TEST(PerKernelLearnedModel, RoundTripsThroughItsFileWithItsStructure) {
    const std::vector<TrainingRow> rows = kernelRows(200, 11);
    const std::string a = tempPath("a.model"), b = tempPath("b.model");
    auto model = LearnedCostModel::train(rows, testMetadata(), kernelOptions(20));
    model->save(a);
    LearnedCostModel::train(rows, testMetadata(), kernelOptions(20))->save(b);
    EXPECT_EQ(readFile(a), readFile(b)); // deterministic, byte for byte
    nlohmann::json doc = nlohmann::json::parse(readFile(a));
    EXPECT_EQ(doc.at("structure"), "kernels");
    EXPECT_EQ(doc.at("metadata").at("extra").at("training").at("objective"), "kernels");

    const GpuSpec gpu = GpuSpec::load("v100");
    auto loaded = LearnedCostModel::load(a, gpu);
    EXPECT_EQ(loaded->structure(), ModelStructure::Kernels);
    EXPECT_EQ(loaded->predictMs(rows), model->predictMs(rows));
    loaded->save(b);
    EXPECT_EQ(readFile(a), readFile(b));

    // Without its structure the file reads as a schedule-level model of the wrong width.
    doc.erase("structure");
    std::ofstream(a, std::ios::binary) << doc.dump();
    std::string message = errorOf([&] { LearnedCostModel::load(a, gpu); });
    EXPECT_NE(message.find("features"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    doc["structure"] = "per-thread";
    std::ofstream(a, std::ios::binary) << doc.dump();
    message = errorOf([&] { LearnedCostModel::load(a, gpu); });
    EXPECT_NE(message.find("unknown structure 'per-thread'"), std::string::npos) << message;
    std::filesystem::remove(a);
    std::filesystem::remove(b);
}

TEST(PerKernelLearnedModel, FineTunesOnlyWithItsOwnObjective) {
    const std::vector<TrainingRow> rows = kernelRows(400, 13);
    const std::vector<TrainingRow> first(rows.begin(), rows.begin() + 100),
        device(rows.begin() + 100, rows.end());
    auto base = LearnedCostModel::train(first, testMetadata(), kernelOptions(5));
    const std::vector<double> before = base->predictMs(device);
    auto tuned = base->fineTuned(device, testMetadata(), kernelOptions(30));
    EXPECT_EQ(base->predictMs(device), before);
    EXPECT_EQ(tuned->structure(), ModelStructure::Kernels);
    EXPECT_GT(meanTau(device, tuned->predictMs(device)), meanTau(device, before));

    TrainOptions regression = kernelOptions(5);
    regression.objective = TrainObjective::CenteredRegression;
    const std::string message =
        errorOf([&] { base->fineTuned(device, testMetadata(), regression); });
    EXPECT_NE(message.find("cannot be fine-tuned with the regression objective"), std::string::npos)
        << message;
    // A row without a kernel of positive time cannot be trained on.
    std::vector<TrainingRow> bad = first;
    for (KernelFeatureRow &k : bad[7].kernels)
        k.analyticMs = 0;
    EXPECT_NE(errorOf([&] {
                  LearnedCostModel::train(bad, testMetadata(), kernelOptions(2));
              }).find("training row 7"),
              std::string::npos);
}

TEST(PerKernelLearnedModel, KernelRowsAreTheKernelsReadAsSchedules) {
    const FeaturizedState f = featurizedStencilChain();
    const GpuSpec &gpu = f.gpu;
    const auto &kernels = f.kernels;
    const StateCost &cost = f.cost;
    const std::vector<KernelFeatureRow> rows = kernelFeatureRows(kernels, cost, gpu);
    ASSERT_EQ(rows.size(), kernels.size());
    ASSERT_GT(rows.size(), 1u);
    const std::vector<std::string> names = kernelFeatureNames();
    EXPECT_EQ(names.back(), "share_of_schedule");
    double sum = 0;
    size_t stage = 0;
    for (size_t k = 0; k < rows.size(); ++k) {
        ASSERT_EQ(rows[k].features.size(), names.size());
        // The kernel's time is its own stages' analytic totals, by hand.
        double own = 0;
        for (size_t s = 0; s < kernels[k]->size(); ++s)
            own += cost.stages[stage++].total();
        EXPECT_NEAR(rows[k].analyticMs, own, 1e-12 * own);
        EXPECT_FLOAT_EQ(rows[k].features.back(), float(own / cost.total));
        EXPECT_FLOAT_EQ(rows[k].features[kCostTerms], float(std::log(own))); // analytic_total
        EXPECT_FLOAT_EQ(rows[k].features[2 * kCostTerms + 1], float(std::log1p(1.0))); // kernels
        sum += rows[k].analyticMs;
    }
    EXPECT_NEAR(sum, cost.total, 1e-12 * cost.total);
    // Costs of another schedule do not line up: refused.
    StateCost shorter = cost;
    shorter.stages.pop_back();
    EXPECT_NE(errorOf([&] { kernelFeatureRows(kernels, shorter, gpu); }), "");
}

TEST(PerKernelLearnedModel, AMemoReusesAKernelsRowButNotItsShare) {
    const FeaturizedState f = featurizedStencilChain();
    const GpuSpec &gpu = f.gpu;
    const auto &kernels = f.kernels;
    const StateCost &cost = f.cost;
    KernelRowMemo memo;
    const std::vector<KernelFeatureRow> plain = kernelFeatureRows(kernels, cost, gpu);
    for (int pass = 0; pass < 2; ++pass) { // built, then read back from the memo
        const std::vector<KernelFeatureRow> memoized = kernelFeatureRows(kernels, cost, gpu, &memo);
        ASSERT_EQ(memoized.size(), plain.size());
        for (size_t k = 0; k < plain.size(); ++k) {
            EXPECT_EQ(memoized[k].features, plain[k].features)
                << "pass " << pass << " kernel " << k;
            EXPECT_EQ(memoized[k].analyticMs, plain[k].analyticMs);
        }
    }
    // The first kernel as a schedule of its own: the memo's row, with the whole schedule's share.
    StateCost alone;
    alone.stages.assign(cost.stages.begin(), cost.stages.begin() + long(kernels[0]->size()));
    alone.addUpStages();
    const std::vector<KernelFeatureRow> own = kernelFeatureRows({kernels[0]}, alone, gpu, &memo);
    ASSERT_EQ(own.size(), 1u);
    EXPECT_FLOAT_EQ(own[0].features.back(), 1.0f);
    EXPECT_LT(plain[0].features.back(), 1.0f);
    EXPECT_TRUE(
        std::equal(own[0].features.begin(), own[0].features.end() - 1, plain[0].features.begin()));
    // Another analytic time for the same kernel builds the row again.
    int builds = 0;
    auto build = [&] {
        ++builds;
        KernelFeatureRow r;
        r.analyticMs = builds == 1 ? 1.0 : 2.0;
        r.features.assign(3, float(builds));
        return r;
    };
    KernelRowMemo fresh;
    fresh.get(kernels[0], 1.0, build);
    EXPECT_EQ(fresh.get(kernels[0], 1.0, build).features.front(), 1.0f);
    EXPECT_EQ(builds, 1);
    EXPECT_EQ(fresh.get(kernels[0], 2.0, build).features.front(), 2.0f);
    EXPECT_EQ(builds, 2);
}

TEST(PerKernelLearnedModel, ServesASearch) {
    const std::string path = tempPath("search.model");
    LearnedCostModel::train(kernelRows(100, 17), testMetadata(), kernelOptions(10))->save(path);
    SearchOptions options;
    options.gpu = GpuSpec::load("v100");
    options.beamSize = 4;
    options.passes = 1;
    options.costModel = path;
    SearchEngine engine(stencilChainDag(2), options);
    engine.run();
    ASSERT_NE(engine.best(), nullptr);
    const StateCost &cost = engine.best()->cost;
    EXPECT_TRUE(std::isfinite(cost.total) && cost.total > 0);
    double terms = 0;
    for (double t : cost.terms)
        terms += t;
    EXPECT_NEAR(terms, cost.total, 1e-9 * cost.total);
    std::filesystem::remove(path);
}
