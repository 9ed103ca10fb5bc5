// TrainingData: the held-out split is stable and near 1 in 8; the model comparison scores each
// model within each pipeline against hand-computed Kendall tau values, leaves out pipelines with
// fewer than two rows and averages per-pipeline tau for "overall".
#include "tune/TrainingData.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace beamscope {
namespace {

LabelledSchedule row(const std::string &pipeline, double analytic, double polymage,
                     double measured) {
    LabelledSchedule s;
    s.pipeline = pipeline;
    s.app = pipeline;
    s.row.group = pipeline;
    s.row.analyticMs = analytic;
    s.row.measuredMs = measured;
    s.polymageScore = polymage;
    return s;
}

TEST(TrainingData, HeldOutSplitIsStableAndAboutOneInEight) {
    int held = 0;
    const int n = 8000;
    for (int i = 0; i < n; ++i) {
        char hash[17];
        std::snprintf(hash, sizeof hash, "%016x", i * 2654435761u);
        held += isHeldOut(hash);
        EXPECT_EQ(isHeldOut(hash), isHeldOut(std::string(hash))) << hash;
    }
    EXPECT_NEAR(double(held) / n, 1.0 / 8, 0.015);
}

TEST(TrainingData, MeasurementNoiseIsTheLowerHalfSpread) {
    Measurement m;
    m.measuredMs = RunTimes{2.0, 1.5, 9.0};
    EXPECT_DOUBLE_EQ(measurementNoise(m), 0.25); // (2 - 1.5) / 2; the slow outlier is ignored
    EXPECT_EQ(measurementNoise(Measurement()), 0);
}

TEST(TrainingData, ComparesModelsWithinEachPipeline) {
    // Pipeline a: analytic orders all 3 rows right (tau 1), polymage exactly backwards (tau -1).
    // Pipeline b: analytic gets 2 of 3 pairs right: tau (2 - 1) / 3. Pipeline c has one row.
    std::vector<LabelledSchedule> rows{
        row("a", 1, 30, 10), row("a", 2, 20, 20), row("a", 3, 10, 30), row("b", 1, 1, 10),
        row("b", 3, 2, 20),  row("b", 2, 3, 30),  row("c", 1, 1, 1),
    };
    const ModelComparison c = compareModels(rows, standardModels(nullptr));
    ASSERT_EQ(c.pipelines.size(), 2u);
    EXPECT_EQ(c.pipelines[0].pipeline, "a");
    ASSERT_EQ(c.pipelines[0].scores.size(), 2u);
    EXPECT_EQ(c.pipelines[0].scores[0].model, "analytic");
    EXPECT_NEAR(c.pipelines[0].scores[0].tau, 1.0, 1e-12);
    EXPECT_NEAR(c.pipelines[0].scores[1].tau, -1.0, 1e-12);
    EXPECT_NEAR(c.pipelines[1].scores[0].tau, 1.0 / 3, 1e-12);
    EXPECT_NEAR(c.pipelines[1].scores[0].accuracy, 2.0 / 3, 1e-12);
    EXPECT_NEAR(c.pipelines[1].scores[1].tau, 1.0, 1e-12);
    EXPECT_NEAR(c.overall[0].tau, (1.0 + 1.0 / 3) / 2, 1e-12);
    EXPECT_NEAR(c.overall[1].tau, 0.0, 1e-12);
    EXPECT_EQ(c.testRows, 7);
    const nlohmann::json j = c.toJson();
    EXPECT_EQ(j["pipelines"][1]["models"]["analytic"]["pairwise_accuracy"].get<double>(), 2.0 / 3);
}

TEST(TrainingData, PairsWithinTheNoiseAreIgnored) {
    // Measured 10 and 10.1 differ by 1%: below the 2% floor, so only the pairs with 20 count.
    std::vector<LabelledSchedule> rows{row("a", 2, 1, 10), row("a", 1, 1, 10.1),
                                       row("a", 3, 1, 20)};
    const ModelComparison c = compareModels(rows, standardModels(nullptr));
    ASSERT_EQ(c.pipelines.size(), 1u);
    EXPECT_NEAR(c.pipelines[0].scores[0].accuracy, 1.0, 1e-12);
}

} // namespace
} // namespace beamscope
