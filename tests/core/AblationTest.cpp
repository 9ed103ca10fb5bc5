// core/ablate: the combinations `ablate` runs, Table 1's geomean against hand computations, bad
// Anderson2021 parameters, and one small app's all-on and all-off searches (matmul at beam 4).
#include "ablate/Ablation.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace beamscope;

TEST(Ablation, CombinationsRunAllOnFirstAndAllOffLast) {
    std::vector<std::string> names;
    for (const AblationCombination &c : ablationCombinations(false))
        names.push_back(c.name());
    EXPECT_EQ(names,
              (std::vector<std::string>{"SFM", "SF-", "S-M", "S--", "-FM", "-F-", "--M", "---"}));
    std::vector<std::string> quick;
    for (const AblationCombination &c : ablationCombinations(true))
        quick.push_back(c.name());
    EXPECT_EQ(quick, (std::vector<std::string>{"SFM", "---"}));
}

TEST(Ablation, SummaryIsTheGeomeanOfTheAppsWithAFigure) {
    AblationApp a, b, none;
    a.percentOfOff = 2.0;
    a.paperPercent = 18.38;
    b.percentOfOff = 8.0;
    b.paperPercent = 1.29;
    const AblationSummary summary = summarizeAblation({a, none, b});
    EXPECT_EQ(summary.apps, 2);
    EXPECT_NEAR(summary.percent, 4.0, 1e-12); // sqrt(2 * 8)
    ASSERT_TRUE(summary.paperPercent);
    EXPECT_NEAR(*summary.paperPercent, std::sqrt(18.38 * 1.29), 1e-12);
    // One app without the paper's figure: no paper geomean over a different set of apps.
    b.paperPercent.reset();
    EXPECT_FALSE(summarizeAblation({a, b}).paperPercent);
    EXPECT_EQ(summarizeAblation({none}).apps, 0);
}

TEST(Ablation, AndersonParamsAreKeyValue) {
    const auto params = parseAndersonParams({"randomize_tilings=1", "beam_size=8"});
    EXPECT_EQ(params.at("randomize_tilings"), "1");
    EXPECT_EQ(params.at("beam_size"), "8");
    EXPECT_THROW(parseAndersonParams({"randomize_tilings"}), UsageError);
    EXPECT_THROW(parseAndersonParams({"=1"}), UsageError);
}

TEST(Ablation, SamplingAndFreezingEvaluateFewerStatesThanBothOff) {
    AblationOptions options;
    options.search.beamSize = 4;
    options.search.passes = 2;
    options.search.gpu = GpuSpec::load("v100");
    options.combinations = ablationCombinations(true);
    options.paperPercent = {{"matmul", 18.38}};
    std::vector<std::string> seen;
    const AblationApp app = ablateApp(
        "matmul", options, [&](const AblationRun &run) { seen.push_back(run.combination.name()); });
    EXPECT_EQ(seen, (std::vector<std::string>{"SFM", "---"}));
    ASSERT_EQ(app.runs.size(), 2u);
    const int64_t on = app.runs[0].counters.evaluated, off = app.runs[1].counters.evaluated;
    ASSERT_GT(on, 0);
    ASSERT_GT(off, on);
    ASSERT_TRUE(app.percentOfOff);
    EXPECT_DOUBLE_EQ(*app.percentOfOff, 100.0 * double(on) / double(off));
    EXPECT_EQ(app.paperPercent, 18.38);
    EXPECT_EQ(app.allOnMs, app.runs[0].searchMs);
}
