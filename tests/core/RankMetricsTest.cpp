// RankMetrics: Kendall's tau-b and pairwise accuracy on small cases worked out by hand.
#include "cost/RankMetrics.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace beamscope;

TEST(RankMetrics, PerfectAndReversedOrders) {
    const std::vector<double> measured = {10, 20, 30, 40};
    EXPECT_DOUBLE_EQ(kendallTau({1, 2, 3, 4}, measured), 1.0);
    EXPECT_DOUBLE_EQ(pairwiseAccuracy({1, 2, 3, 4}, measured), 1.0);
    EXPECT_DOUBLE_EQ(kendallTau({4, 3, 2, 1}, measured), -1.0);
    EXPECT_DOUBLE_EQ(pairwiseAccuracy({4, 3, 2, 1}, measured), 0.0);
    // Scale does not matter, only order: one swapped pair of six gives (5 - 1) / 6.
    EXPECT_DOUBLE_EQ(kendallTau({0.1, 0.3, 0.2, 0.4}, measured), 4.0 / 6.0);
    EXPECT_DOUBLE_EQ(pairwiseAccuracy({0.1, 0.3, 0.2, 0.4}, measured), 5.0 / 6.0);
}

TEST(RankMetrics, TiesInPredictionUseTauB) {
    // Pairs: (0,1) tied in prediction, (0,2) and (1,2) concordant. tau-b = (2 - 0) /
    // sqrt(3 x (3 - 1)); accuracy counts the tie as one half: 2.5 / 3.
    EXPECT_NEAR(kendallTau({1, 1, 2}, {1, 2, 3}), 2.0 / std::sqrt(6.0), 1e-15);
    EXPECT_NEAR(pairwiseAccuracy({1, 1, 2}, {1, 2, 3}), 2.5 / 3.0, 1e-15);
    // Every counted pair tied in prediction: tau is undefined, accuracy one half.
    EXPECT_TRUE(std::isnan(kendallTau({5, 5}, {1, 2})));
    EXPECT_DOUBLE_EQ(pairwiseAccuracy({5, 5}, {1, 2}), 0.5);
}

TEST(RankMetrics, PairsWithinTheNoiseAreIgnored) {
    // 100 and 101 differ by less than 2% of either: that pair (wrongly ordered) is ignored.
    EXPECT_DOUBLE_EQ(kendallTau({2, 1, 3}, {100, 101, 200}), 1.0);
    EXPECT_DOUBLE_EQ(pairwiseAccuracy({2, 1, 3}, {100, 101, 200}), 1.0);
    // 100 and 110 differ by 10: counted with the 2% floor, so one discordant pair of three...
    EXPECT_NEAR(kendallTau({2, 1, 3}, {100, 110, 200}), 1.0 / 3.0, 1e-15);
    EXPECT_NEAR(pairwiseAccuracy({2, 1, 3}, {100, 110, 200}), 2.0 / 3.0, 1e-15);
    // ...but ignored when the first row's spread is 15% (15 > 10), whichever row it belongs to.
    EXPECT_DOUBLE_EQ(kendallTau({2, 1, 3}, {100, 110, 200}, {0.15, 0, 0}), 1.0);
    EXPECT_DOUBLE_EQ(kendallTau({2, 1, 3}, {100, 110, 200}, {0, 0.15, 0}), 1.0);
    // A spread below the 2% floor changes nothing.
    EXPECT_NEAR(kendallTau({2, 1, 3}, {100, 110, 200}, {0.001, 0.001, 0.001}), 1.0 / 3.0, 1e-15);
    // Measured ties are never counted; nothing counts: NaN.
    EXPECT_TRUE(std::isnan(kendallTau({1, 2}, {50, 50})));
    EXPECT_TRUE(std::isnan(pairwiseAccuracy({1, 2}, {50, 50.5})));
    EXPECT_TRUE(std::isnan(kendallTau({}, {})));
}

TEST(RankMetrics, RelativeSpreadAndMismatchedLengths) {
    EXPECT_DOUBLE_EQ(relativeSpread(9, 10, 12), 0.3);
    EXPECT_DOUBLE_EQ(relativeSpread(0, 0, 0), 0.0);
    EXPECT_THROW(kendallTau({1, 2}, {1, 2, 3}), Error);
    EXPECT_THROW(pairwiseAccuracy({1, 2}, {1, 2}, {0.1}), Error);
}
