// CandidateSampler: dropout probabilities, the beam + greedy candidate set, determinism.
#include "bench/CandidateSampler.h"
#include "cost/AnalyticalGpuCostModel.h"
#include "cost/DropoutCostModel.h"
#include "pipeline/AppCatalog.h"
#include "schedule/ScheduleIO.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace beamscope;

namespace {

std::shared_ptr<const FunctionDAG> smallChain() {
    return std::make_shared<const FunctionDAG>(
        buildApp("stencil_chain", {{"length", 3}, {"width", 256}, {"height", 256}}));
}

CandidateOptions smallOptions() {
    CandidateOptions options;
    options.search.beamSize = 8;
    options.search.passes = 2;
    options.search.seed = 3;
    options.search.gpu = GpuSpec::load("v100");
    options.topK = 3;
    options.greedySamples = 3;
    return options;
}

} // namespace

TEST(BenchSampler, DropoutKeepProbabilityFollowsAnderson) {
    auto inner = std::make_shared<AnalyticalGpuCostModel>(GpuSpec::load("v100"));
    EXPECT_EQ(DropoutCostModel(inner, 100, 10, 1).keepProbability(), 1.0);
    EXPECT_NEAR(DropoutCostModel(inner, 10, 10, 1).keepProbability(), std::pow(0.1, 0.1), 1e-12);
    EXPECT_EQ(DropoutCostModel(inner, 0, 10, 1).keepProbability(), 0.0);
}

TEST(BenchSampler, BeamThenGreedyCandidatesAreDistinctAndDeterministic) {
    auto dag = smallChain();
    const CandidateSet a = sampleCandidates(dag, smallOptions());
    ASSERT_GE(a.candidates.size(), 3u);
    EXPECT_EQ(a.candidates[0].label, "beam#0");
    std::set<std::string> schedules;
    double previousBeam = 0;
    for (const BenchCandidate &c : a.candidates) {
        ASSERT_TRUE(c.state && c.state->complete()) << c.label;
        EXPECT_TRUE(std::isfinite(c.predicted) && c.predicted > 0) << c.label;
        EXPECT_LT(c.predicted, 1e5) << c.label << ": a dropout factor leaked into the prediction";
        EXPECT_TRUE(schedules.insert(scheduleToJson(*c.state).dump()).second) << c.label;
        if (c.label.rfind("beam#", 0) == 0) {
            EXPECT_GE(c.predicted, previousBeam);
            previousBeam = c.predicted;
        }
    }
    EXPECT_EQ(a.candidates.size() + size_t(a.duplicates), 6u);
    const CandidateSet b = sampleCandidates(dag, smallOptions());
    ASSERT_EQ(a.candidates.size(), b.candidates.size());
    for (size_t i = 0; i < a.candidates.size(); ++i) {
        EXPECT_EQ(a.candidates[i].label, b.candidates[i].label);
        EXPECT_EQ(scheduleToJson(*a.candidates[i].state), scheduleToJson(*b.candidates[i].state));
    }
}

TEST(BenchSampler, DropoutChangesGreedyResults) {
    auto dag = smallChain();
    CandidateOptions options = smallOptions();
    options.topK = 0;
    options.greedySamples = 6;
    options.dropoutPercent = 100; // no dropout: only the sampling seed differs
    const CandidateSet plain = sampleCandidates(dag, options);
    options.dropoutPercent = 1;
    const CandidateSet dropped = sampleCandidates(dag, options);
    // With heavy dropout the greedy searches wander more: at least as many distinct results.
    EXPECT_GE(dropped.candidates.size(), plain.candidates.size());
    EXPECT_GE(dropped.candidates.size(), 2u);
}
