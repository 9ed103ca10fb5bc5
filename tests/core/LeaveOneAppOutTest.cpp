// Leave-one-app-out evaluation on synthetic rows with the real XGBoost: each app's model never
// saw that app's rows, every row of every app is scored, the regret is the hand-computed ratio,
// and unseenRows() leaves out exactly what a model was trained on.
#include "tune/LeaveOneAppOut.h"
#include "cost/RankMetrics.h"
#include "cost/ScheduleFeatures.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

using namespace beamscope;

namespace {

/// `perApp` rows for each of three apps; measured time rises with feature 0.
std::vector<LabelledSchedule> syntheticRows(int perApp) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<LabelledSchedule> rows;
    for (const char *app : {"a", "b", "c"}) {
        for (int i = 0; i < perApp; ++i) {
            LabelledSchedule s;
            s.app = app;
            s.pipeline = std::string(app) + "|key";
            s.scheduleHash = std::string(app) + std::to_string(i);
            s.deviceKey = "dev";
            s.gpu = "H100-SXM5-80GB";
            s.row.group = s.pipeline;
            s.row.features.resize(scheduleFeatureNames().size());
            for (float &f : s.row.features)
                f = unit(rng);
            s.row.measuredMs = std::exp(2.0 * s.row.features[0]);
            s.row.analyticMs = 1.0;
            s.polymageScore = 1.0;
            rows.push_back(s);
        }
    }
    return rows;
}

} // namespace

TEST(LeaveOneAppOut, EachAppIsRankedByAModelThatNeverSawIt) {
    const std::vector<LabelledSchedule> rows = syntheticRows(40);
    TrainOptions options;
    options.rounds = 20;
    const LeaveOneAppOutResult result =
        leaveOneAppOut(rows, standardModels(nullptr), "dev", options);
    ASSERT_EQ(result.models.size(), 3u);
    for (const auto &[app, model] : result.models) {
        EXPECT_EQ(model->metadata().trainingRows, 80) << app;
        // Not one of the app's own rows was trained on.
        EXPECT_EQ(unseenRows(rows, *model).size(), 40u) << app;
        for (const LabelledSchedule &s : unseenRows(rows, *model))
            EXPECT_EQ(s.app, app);
    }
    ASSERT_EQ(result.comparison.pipelines.size(), 3u);
    for (const PipelineComparison &p : result.comparison.pipelines) {
        EXPECT_EQ(p.rows, 40);
        ASSERT_EQ(p.scores.size(), 3u); // analytic, polymage, loao
        EXPECT_EQ(p.scores[2].model, "loao");
        // The rule transfers between the synthetic apps; the constant prior ranks nothing.
        EXPECT_GT(p.scores[2].tau, 0.5) << p.pipeline;
        EXPECT_TRUE(std::isnan(p.scores[0].tau)) << p.pipeline;
    }
}

TEST(LeaveOneAppOut, OnlyTheHeldOutAppsGetAFoldAndTheOthersOnlyTrain) {
    const std::vector<LabelledSchedule> rows = syntheticRows(40);
    TrainOptions options;
    options.rounds = 20;
    LeaveOneAppOutPlan plan;
    plan.heldOut = {"a", "c"};
    const LeaveOneAppOutResult result =
        leaveOneAppOut(rows, standardModels(nullptr), "dev", options, plan);
    ASSERT_EQ(result.models.size(), 2u);
    EXPECT_EQ(result.models.count("b"), 0u);
    // Each fold saw every other app's rows, b's among them: the same training set as in the
    // full protocol, so the same model.
    const LeaveOneAppOutResult full = leaveOneAppOut(rows, standardModels(nullptr), "dev", options);
    for (const auto &[app, model] : result.models) {
        EXPECT_EQ(model->metadata().trainingRows, 80) << app;
        EXPECT_EQ(model->metadata().trainedOn, full.models.at(app)->metadata().trainedOn);
        for (const LabelledSchedule &s : rows)
            EXPECT_EQ(model->predictMs(s.row), full.models.at(app)->predictMs(s.row));
    }
    // Only the held-out apps are ranked, and the heading says what only trained.
    ASSERT_EQ(result.comparison.pipelines.size(), 2u);
    EXPECT_EQ(result.comparison.pipelines[0].pipeline, "a");
    EXPECT_EQ(result.comparison.pipelines[1].pipeline, "c");
    EXPECT_NE(result.comparison.heading.find("40 rows of apps not held out trained on"),
              std::string::npos)
        << result.comparison.heading;

    plan.heldOut = {"a", "nope"};
    EXPECT_THROW(leaveOneAppOut(rows, standardModels(nullptr), "dev", options, plan), Error);
}

TEST(LeaveOneAppOut, FoldsTrainedInParallelAreTheModelsTrainedOneByOne) {
    const std::vector<LabelledSchedule> rows = syntheticRows(30);
    TrainOptions options;
    options.rounds = 15;
    options.objective = TrainObjective::CenteredRegression;
    LeaveOneAppOutPlan parallel;
    parallel.jobs = 3;
    const LeaveOneAppOutResult one = leaveOneAppOut(rows, standardModels(nullptr), "dev", options);
    const LeaveOneAppOutResult three =
        leaveOneAppOut(rows, standardModels(nullptr), "dev", options, parallel);
    ASSERT_EQ(three.models.size(), 3u);
    for (const auto &[app, model] : one.models) {
        for (const LabelledSchedule &s : rows)
            EXPECT_EQ(model->predictMs(s.row), three.models.at(app)->predictMs(s.row)) << app;
    }
    ASSERT_EQ(three.comparison.pipelines.size(), one.comparison.pipelines.size());
    for (size_t i = 0; i < one.comparison.pipelines.size(); ++i)
        EXPECT_EQ(three.comparison.pipelines[i].scores[2].tau,
                  one.comparison.pipelines[i].scores[2].tau);
}

TEST(RankMetrics, OneShotRegretIsTheMeasuredTimeOfThePickOverTheFastest) {
    // Predicted fastest: index 2 (0.5), measured 3.0; fastest measured 1.5.
    EXPECT_DOUBLE_EQ(oneShotRegret({2.0, 1.0, 0.5, 4.0}, {2.0, 1.5, 3.0, 6.0}), 2.0);
    EXPECT_DOUBLE_EQ(oneShotRegret({1.0, 2.0}, {1.0, 5.0}), 1.0);
    // Tied predictions: the first of them.
    EXPECT_DOUBLE_EQ(oneShotRegret({1.0, 1.0}, {4.0, 2.0}), 2.0);
    EXPECT_TRUE(std::isnan(oneShotRegret({}, {})));
}
