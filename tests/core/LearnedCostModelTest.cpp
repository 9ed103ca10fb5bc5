// LearnedCostModel with the real XGBoost: learns a synthetic ranking its analytic prior misses,
// saves and loads to identical predictions and byte-identical files, refuses other schemas and
// corrupt files with one line, and serves a search as a CostModel.
#include "LearnedModelTestUtil.h"
#include "ScheduleTestUtil.h"

#include "cost/CostModelFactory.h"
#include "cost/LearnedCostModel.h"
#include "cost/RankMetrics.h"
#include "search/SearchEngine.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

/// Rows where the measured time depends on features 0 and 1 (with 1% noise) but the analytic
/// prior sees only feature 0 (and is off by a factor of 3); two groups at different scales.
std::vector<TrainingRow> syntheticRows(int count, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::normal_distribution<double> noise(0.0, 0.01);
    const size_t width = scheduleFeatureNames().size();
    std::vector<TrainingRow> rows;
    for (int i = 0; i < count; ++i) {
        TrainingRow r;
        r.group = i % 2 ? "pipeline_b" : "pipeline_a";
        const double scale = i % 2 ? 10.0 : 1.0;
        r.features.resize(width);
        for (float &f : r.features)
            f = unit(rng);
        const double x0 = r.features[0], x1 = r.features[1];
        r.measuredMs = scale * std::exp(x0 + 2.0 * x1 + 0.5 * x0 * x1 + noise(rng));
        r.analyticMs = 3.0 * scale * std::exp(x0);
        rows.push_back(std::move(r));
    }
    return rows;
}

std::string tempPath(const std::string &name) {
    return beamscope::testing::tempPath("beamscope-learned", name);
}

ModelMetadata testMetadata() {
    return beamscope::testing::testMetadata("LearnedCostModelTest");
}

/// Training options with these rounds, depth and seed (eta 0.1, one thread).
TrainOptions trainOptions(int rounds, int depth, std::uint64_t seed) {
    TrainOptions options;
    options.rounds = rounds;
    options.maxDepth = depth;
    options.seed = seed;
    return options;
}

} // namespace

TEST(LearnedCostModel, LearnsASyntheticRankingItsPriorMisses) {
    const std::vector<TrainingRow> rows = syntheticRows(600, 7);
    const std::vector<TrainingRow> train(rows.begin(), rows.begin() + 400),
        test(rows.begin() + 400, rows.end());
    auto model = LearnedCostModel::train(train, testMetadata(), TrainOptions{});
    EXPECT_EQ(model->metadata().trainingRows, 400);
    EXPECT_EQ(model->metadata().trainingGroups, 2);
    EXPECT_EQ(model->metadata().featureSchema, kScheduleFeatureSchema);

    std::vector<double> analytic;
    for (const TrainingRow &r : test)
        analytic.push_back(r.analyticMs);
    const double priorTau = meanTau(test, analytic);
    const double learnedTau = meanTau(test, model->predictMs(test));
    // 0.897 with exact split finding (0.9+ with the histogram method used before issue 31).
    EXPECT_GT(learnedTau, 0.85);
    EXPECT_LT(priorTau, learnedTau - 0.2) << "prior " << priorTau << ", learned " << learnedTau;
    // One-row prediction agrees with the batch.
    EXPECT_DOUBLE_EQ(model->predictMs(test[3].features, test[3].analyticMs),
                     model->predictMs(test)[3]);
}

TEST(LearnedCostModel, SaveLoadRoundTripsAndIsDeterministic) {
    const std::vector<TrainingRow> rows = syntheticRows(300, 11);
    const TrainOptions options = trainOptions(30, 4, 5);
    const std::string a = tempPath("a.model"), b = tempPath("b.model");
    auto model = LearnedCostModel::train(rows, testMetadata(), options);
    model->save(a);
    LearnedCostModel::train(rows, testMetadata(), options)->save(b);
    EXPECT_EQ(readFile(a), readFile(b)); // same rows and seed: the same bytes
    EXPECT_FALSE(std::filesystem::exists(a + ".tmp." + std::to_string(::getpid())));

    auto loaded = LearnedCostModel::load(a, GpuSpec::load("v100"));
    EXPECT_EQ(loaded->name(), "learned:" + std::filesystem::path(a).stem().string());
    EXPECT_EQ(loaded->predictMs(rows), model->predictMs(rows));
    EXPECT_EQ(loaded->metadata().device, "synthetic");
    EXPECT_EQ(loaded->metadata().trainingRows, 300);
    EXPECT_EQ(loaded->termNames(), analyticTermNames());
    // Saving the loaded model gives the same file again.
    loaded->save(b);
    EXPECT_EQ(readFile(a), readFile(b));
    std::filesystem::remove(a);
    std::filesystem::remove(b);
}

TEST(LearnedCostModel, RefusesAnotherSchemaAndCorruptFilesWithOneLine) {
    const std::string path = tempPath("schema.model");
    LearnedCostModel::train(syntheticRows(50, 3), testMetadata(), trainOptions(5, 2, 0))
        ->save(path);
    const std::string good = readFile(path);
    const GpuSpec gpu = GpuSpec::load("v100");

    nlohmann::json doc = nlohmann::json::parse(good);
    doc["feature_schema"] = kScheduleFeatureSchema + 1;
    writeFile(path, doc.dump());
    std::string message = errorOf([&] { LearnedCostModel::load(path, gpu); });
    const std::string theirs = "feature schema " + std::to_string(kScheduleFeatureSchema + 1);
    const std::string ours = "feature schema " + std::to_string(kScheduleFeatureSchema);
    EXPECT_NE(message.find(theirs), std::string::npos) << message;
    EXPECT_NE(message.find(ours), std::string::npos) << message;

    doc = nlohmann::json::parse(good);
    doc["version"] = 9;
    writeFile(path, doc.dump());
    message = errorOf([&] { LearnedCostModel::load(path, gpu); });
    EXPECT_NE(message.find("version 9"), std::string::npos) << message;
    // Not converted from a double (undefined behaviour for 1e67): refused by name.
    doc = nlohmann::json::parse(good);
    doc["feature_schema"] = 1e67;
    writeFile(path, doc.dump());
    message = errorOf([&] { LearnedCostModel::load(path, gpu); });
    EXPECT_NE(message.find("\"feature_schema\" is not an integer"), std::string::npos) << message;
    // The metadata's counts only describe the model: unknown (0) rather than converted.
    doc = nlohmann::json::parse(good);
    doc["metadata"]["training_rows"] = 1e67;
    doc["metadata"]["training_groups"] = 2.5;
    writeFile(path, doc.dump());
    const auto described = LearnedCostModel::load(path, gpu);
    EXPECT_EQ(described->metadata().trainingRows, 0);
    EXPECT_EQ(described->metadata().trainingGroups, 0);

    for (const std::string &corrupt :
         {good.substr(0, good.size() / 2), std::string("\x01\x02garbage\n{"),
          std::string(R"({"format": "something-else"})"),
          std::string(R"({"format": "beamscope-cost-model", "version": "x"})")}) {
        writeFile(path, corrupt);
        message = errorOf([&] { LearnedCostModel::load(path, gpu); });
        EXPECT_FALSE(message.empty());
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    doc = nlohmann::json::parse(good);
    doc["booster"]["learner"] = "not a learner";
    writeFile(path, doc.dump());
    message = errorOf([&] { LearnedCostModel::load(path, gpu); });
    EXPECT_FALSE(message.empty());
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    std::filesystem::remove(path);

    message = errorOf([&] { LearnedCostModel::load(path, gpu); });
    EXPECT_NE(message.find("cannot read cost model file"), std::string::npos) << message;
    EXPECT_NE(errorOf([] { LearnedCostModel::train({}, ModelMetadata{}, TrainOptions{}); }), "");
}

TEST(LearnedCostModel, ServesASearchThroughTheFactory) {
    const std::string path = tempPath("search.model");
    LearnedCostModel::train(syntheticRows(100, 5), testMetadata(), trainOptions(10, 3, 0))
        ->save(path);
    SearchOptions options;
    options.gpu = GpuSpec::load("v100");
    options.beamSize = 4;
    options.passes = 1;
    options.costModel = path;
    SearchEngine engine(beamscope::testing::stencilChainDag(2), options);
    const SearchStepPtr last = engine.run();
    EXPECT_EQ(engine.costModel().name(), "learned:" + std::filesystem::path(path).stem().string());
    EXPECT_EQ(last->termNames, analyticTermNames());
    ASSERT_NE(engine.best(), nullptr);
    const StateCost &cost = engine.best()->cost;
    EXPECT_TRUE(std::isfinite(cost.total) && cost.total > 0);
    double terms = 0;
    for (double t : cost.terms)
        terms += t;
    EXPECT_NEAR(terms, cost.total, 1e-9 * cost.total); // analytic split scaled to the prediction
    std::filesystem::remove(path);
}

TEST(LearnedCostModel, FineTuningStartsFromTheModelAndLeavesItAsItWas) {
    const std::vector<TrainingRow> rows = syntheticRows(400, 11);
    const std::vector<TrainingRow> first(rows.begin(), rows.begin() + 200),
        device(rows.begin() + 200, rows.end());
    TrainOptions options;
    options.rounds = 10;
    auto base = LearnedCostModel::train(first, testMetadata(), options);
    const std::vector<double> before = base->predictMs(device);
    auto tuned = base->fineTuned(device, testMetadata(), options);
    EXPECT_EQ(base->predictMs(device), before); // the base model is untouched
    EXPECT_NE(tuned->predictMs(device), before);
    EXPECT_EQ(tuned->metadata().trainingRows, 200);
    EXPECT_TRUE(tuned->metadata().extra.contains("fine_tuned_from"));
    // Its trees extend the base's: 10 rounds more fit the device rows better than the base.
    EXPECT_GT(meanTau(device, tuned->predictMs(device)), meanTau(device, before));
}

// --parallel-trees: each round grows that many trees on their own row samples and averages them
// (XGBoost's num_parallel_tree). The same options give the same bytes; the forest differs from
// one tree per round on the same samples; it still learns the ranking; the options' JSON names
// it only when used, so models trained without it keep their metadata.
TEST(LearnedCostModel, ParallelTreesGrowABaggedForestPerRoundDeterministically) {
    const std::vector<TrainingRow> rows = syntheticRows(600, 7);
    const std::vector<TrainingRow> train(rows.begin(), rows.begin() + 400),
        test(rows.begin() + 400, rows.end());
    TrainOptions bagged = trainOptions(30, 3, 2);
    bagged.subsample = 0.7;
    bagged.parallelTrees = 4;
    const std::string a = tempPath("bag-a.model"), b = tempPath("bag-b.model");
    auto model = LearnedCostModel::train(train, testMetadata(), bagged);
    model->save(a);
    LearnedCostModel::train(train, testMetadata(), bagged)->save(b);
    EXPECT_EQ(readFile(a), readFile(b));
    std::filesystem::remove(a);
    std::filesystem::remove(b);

    TrainOptions single = bagged;
    single.parallelTrees = 1;
    EXPECT_NE(model->predictMs(test),
              LearnedCostModel::train(train, testMetadata(), single)->predictMs(test));
    EXPECT_GT(meanTau(test, model->predictMs(test)), 0.8);

    EXPECT_EQ(bagged.toJson().value("num_parallel_tree", 0), 4);
    EXPECT_FALSE(single.toJson().contains("num_parallel_tree"));
    TrainOptions none = bagged;
    none.parallelTrees = 0;
    EXPECT_NE(errorOf([&] { LearnedCostModel::train(train, testMetadata(), none); }), "");
}
