// The per-kernel learned model (objective "kernels", the paper's structure) with the real
// XGBoost: each kernel's analytic time corrected by a learned factor and the kernels summed. It
// learns a per-kernel slowdown its analytic prior misses, predicts a sum (two copies of a kernel
// cost twice one), round-trips through its file with its structure, refuses a schedule-level
// prediction and a mismatched fine-tuning with one line, and serves a search; the kernel rows it
// reads are the schedule's kernels read as one-kernel schedules, and a search's predictions,
// which reuse a kernel's score within a band of its share that no split divides, are the plain
// ones to the bit.
#include "LearnedModelTestUtil.h"
#include "ScheduleTestUtil.h"

#include "cost/AnalyticalGpuCostModel.h"
#include "cost/CostOf.h"
#include "cost/FeatureBands.h"
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
    StatePtr state;
};

FeaturizedState featurizedStencilChain() {
    auto dag = stencilChainDag(4);
    const StatePtr state = placeRest(ScheduleState::initial(dag));
    FeaturizedState f{GpuSpec::load("v100"), {}, {}, state};
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
        StateCost own;
        for (size_t s = 0; s < kernels[k]->size(); ++s)
            own.stages.push_back(cost.stages[stage++]);
        double ownMs = 0;
        for (const StageCost &s : own.stages)
            ownMs += s.total();
        EXPECT_NEAR(rows[k].analyticMs, ownMs, 1e-12 * ownMs);
        EXPECT_FLOAT_EQ(rows[k].features.back(), float(ownMs / cost.total));
        EXPECT_FLOAT_EQ(rows[k].features[kCostTerms], float(std::log(ownMs))); // analytic_total
        EXPECT_FLOAT_EQ(rows[k].features[2 * kCostTerms + 1], float(std::log1p(1.0))); // kernels
        // Before its share, the kernel alone costed as a schedule.
        own.addUpStages();
        const std::vector<float> alone = scheduleFeatureVector({kernels[k]}, own, gpu);
        EXPECT_TRUE(std::equal(alone.begin(), alone.end(), rows[k].features.begin()))
            << "kernel " << k;
        sum += rows[k].analyticMs;
    }
    EXPECT_NEAR(sum, cost.total, 1e-12 * cost.total);
    // Costs of another schedule do not line up: refused.
    StateCost shorter = cost;
    shorter.stages.pop_back();
    EXPECT_NE(errorOf([&] { kernelFeatureRows(kernels, shorter, gpu); }), "");
}

TEST(PerKernelLearnedModel, AMemoBuildsAKernelsRowOnceAndAgainWhenItsTimeDiffers) {
    const FeaturizedState f = featurizedStencilChain();
    const GpuSpec &gpu = f.gpu;
    const auto &kernels = f.kernels;
    const StateCost &cost = f.cost;
    const std::vector<KernelFeatureRow> plain = kernelFeatureRows(kernels, cost, gpu);
    KernelRowMemo memo;
    const std::vector<KernelRowMemo::Entry *> first = memo.entries(kernels, cost, gpu);
    ASSERT_EQ(first.size(), plain.size());
    for (size_t k = 0; k < plain.size(); ++k) {
        ASSERT_NE(first[k], nullptr);
        // The row but its share.
        EXPECT_EQ(first[k]->row.features,
                  std::vector<float>(plain[k].features.begin(), plain[k].features.end() - 1))
            << "kernel " << k;
        EXPECT_EQ(first[k]->row.analyticMs, plain[k].analyticMs) << "kernel " << k;
        EXPECT_TRUE(first[k]->scores.empty());
        first[k]->scores.push_back({7, -1, float(k)});
    }
    // Met again: the same entries, scores kept.
    EXPECT_EQ(memo.entries(kernels, cost, gpu), first);
    EXPECT_EQ(memo.size(), kernels.size());
    ASSERT_NE(first[1]->find(7), nullptr);
    EXPECT_EQ(first[1]->find(7)->score, 1.0f);
    EXPECT_EQ(first[1]->find(6), nullptr);
    // The first kernel costed otherwise (its first stage's time doubled): built again, its
    // scores dropped; the other kernels keep their rows and scores.
    StateCost slower = cost;
    for (double &t : slower.stages[0].terms)
        t *= 2;
    const std::vector<KernelRowMemo::Entry *> again = memo.entries(kernels, slower, gpu);
    EXPECT_TRUE(again[0]->scores.empty());
    EXPECT_GT(again[0]->row.analyticMs, plain[0].analyticMs);
    EXPECT_NE(again[0]->row.features.front(), plain[0].features.front()); // log of a term
    EXPECT_EQ(again[1]->scores.size(), 1u);
    // A null kernel has no entry; costs that do not line up are refused.
    std::vector<std::shared_ptr<const KernelFeatures>> withNull = kernels;
    withNull.push_back(nullptr);
    EXPECT_EQ(memo.entries(withNull, cost, gpu).back(), nullptr);
    StateCost shorter = cost;
    shorter.stages.pop_back();
    EXPECT_NE(errorOf([&] { memo.entries(kernels, shorter, gpu); }), "");
}

TEST(PerKernelLearnedModel, FeatureBandsAreTheRangesNoSplitDivides) {
    // Two trees by hand (XGBoost's JSON layout): feature 2 split at 0.5 and 0.25, feature 0 at
    // 0.75; a leaf's condition is its value and never a threshold.
    const nlohmann::json booster = nlohmann::json::parse(R"({"learner": {"gradient_booster": {
        "name": "gbtree", "model": {"trees": [
          {"left_children": [1, -1, -1], "split_indices": [2, 0, 0],
           "split_conditions": [0.5, 0.1, 0.3], "split_type": [0, 0, 0]},
          {"left_children": [1, 3, -1, -1, -1], "split_indices": [0, 2, 2, 0, 0],
           "split_conditions": [0.75, 0.25, 9.0, 0.2, 0.4], "split_type": [0, 0, 0, 0, 0]}]}}}})");
    const FeatureBands bands = FeatureBands::read(booster, 2);
    ASSERT_TRUE(bands.usable());
    EXPECT_EQ(bands.thresholds(), (std::vector<float>{0.25f, 0.5f}));
    // A split sends `value < threshold` left: a value at a threshold is past it.
    EXPECT_EQ(bands.band(0.0f), 0u);
    EXPECT_EQ(bands.band(0.2499f), 0u);
    EXPECT_EQ(bands.band(0.2501f), 1u);
    EXPECT_EQ(bands.band(0.4999f), 1u);
    EXPECT_EQ(bands.band(0.5001f), 2u);
    EXPECT_EQ(bands.band(1.0f), 2u);
    // At a threshold or a float's step from it: no band (the tree's float may be the neighbour).
    for (float t : {0.25f, 0.5f}) {
        EXPECT_FALSE(bands.band(t).has_value()) << t;
        EXPECT_FALSE(bands.band(std::nextafter(t, 0.0f)).has_value()) << t;
        EXPECT_FALSE(bands.band(std::nextafter(t, 1.0f)).has_value()) << t;
        EXPECT_TRUE(bands.band(std::nextafter(std::nextafter(t, 1.0f), 1.0f)).has_value()) << t;
    }
    EXPECT_FALSE(bands.band(std::nanf("")).has_value());
    EXPECT_EQ(FeatureBands::read(booster, 0).thresholds(), (std::vector<float>{0.75f}));
    // A categorical split, another booster or another layout: no bands.
    nlohmann::json categorical = booster;
    categorical["learner"]["gradient_booster"]["model"]["trees"][0]["split_type"][0] = 1;
    EXPECT_FALSE(FeatureBands::read(categorical, 2).usable());
    nlohmann::json dart = booster;
    dart["learner"]["gradient_booster"]["name"] = "dart";
    EXPECT_FALSE(FeatureBands::read(dart, 2).usable());
    EXPECT_FALSE(FeatureBands::read(nlohmann::json::object(), 2).usable());
    EXPECT_FALSE(FeatureBands().band(0.5f).has_value());
}

TEST(PerKernelLearnedModel, ASearchsMemoizedPredictionIsThePlainOne) {
    // Trained so that the trees split on the share too (the true factor grows with it): states
    // that share a kernel at other shares must not share its score unless no split divides them.
    std::vector<TrainingRow> rows = kernelRows(300, 5);
    for (TrainingRow &r : rows) {
        double truth = 0;
        for (const KernelFeatureRow &k : r.kernels)
            truth += k.analyticMs * std::exp(1.5 * k.features[0] + 2.0 * k.features.back());
        r.measuredMs = truth;
    }
    const std::string path = tempPath("memo.model");
    auto trained = LearnedCostModel::train(rows, testMetadata(), kernelOptions(40));
    trained->save(path);
    const FeatureBands bands = FeatureBands::read(
        nlohmann::json::parse(readFile(path)).at("booster"), int(kernelFeatureNames().size()) - 1);
    EXPECT_GE(bands.thresholds().size(), 5u); // the trees do split on the share
    // Read back from XGBoost for the model in memory: the same thresholds.
    EXPECT_EQ(trained->shareBands().thresholds(), bands.thresholds());
    SearchOptions options;
    options.gpu = GpuSpec::load("v100");
    options.beamSize = 8;
    options.passes = 2;
    options.costModel = path;
    // Each state of every step's beam, costed again from nothing: the search's cost to the bit,
    // with the model loaded from its file and with the one in memory.
    auto fresh = LearnedCostModel::load(path, options.gpu);
    Featurizer featurizer(options.gpu, false);
    AnalyticalGpuCostModel analytic(options.gpu);
    size_t checked = 0;
    for (const std::shared_ptr<CostModel> &model :
         {std::shared_ptr<CostModel>(), std::shared_ptr<CostModel>(trained)}) {
        SearchEngine engine(stencilChainDag(4), options, model);
        while (!engine.finished()) {
            const SearchStepPtr step = engine.step();
            for (const BeamEntry &entry : step->beam) {
                const auto kernels = featurizer.featurize(*entry.state);
                TrainingRow row;
                row.kernels = kernelFeatureRows(
                    kernels, costOf(*entry.state, analytic, kernels).cost, options.gpu);
                EXPECT_EQ(entry.cost.total, fresh->predictMs(row)) << "state " << checked;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 40u);
    std::filesystem::remove(path);
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
