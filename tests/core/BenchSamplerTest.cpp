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
    EXPECT_EQ(a.candidates[0].label, "result"); // the search's result first
    std::set<std::string> schedules;
    double previousBeam = 0;
    for (const BenchCandidate &c : a.candidates) {
        ASSERT_TRUE(c.state && c.state->complete()) << c.label;
        EXPECT_TRUE(std::isfinite(c.predicted) && c.predicted > 0) << c.label;
        EXPECT_LT(c.predicted, 1e5) << c.label << ": a dropout factor leaked into the prediction";
        EXPECT_TRUE(schedules.insert(scheduleToJson(*c.state).dump()).second) << c.label;
        if (c.label == "result" || c.label.rfind("beam#", 0) == 0) {
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

// Candidates are named as the GUI's Beam dock lists them: the search's result, then the final
// beam's rows by their index (read from 1: "beam#2" is the dock's row 3), whatever order the
// predicted costs take them in.
TEST(BenchSampler, TopOfBeamNamesTheResultAndTheBeamsRows) {
    auto dag = smallChain();
    SearchEngine engine(dag, smallOptions().search);
    engine.run();
    const BeamEntry *result = engine.best();
    ASSERT_TRUE(result && result->state->complete());
    const std::vector<BeamEntry> &beam = engine.lastStep()->beam;
    const std::vector<BenchCandidate> top = topOfBeam(result, beam, 4, 1.0);
    ASSERT_GE(top.size(), 3u);
    EXPECT_EQ(top[0].label, "result");
    EXPECT_EQ(top[0].state, result->state);
    const std::string resultJson = scheduleToJson(*result->state).dump();
    for (size_t i = 1; i < top.size(); ++i) {
        ASSERT_EQ(top[i].label.rfind("beam#", 0), 0u) << top[i].label;
        const size_t row = std::stoul(top[i].label.substr(5));
        ASSERT_LT(row, beam.size());
        EXPECT_EQ(top[i].state, beam[row].state) << top[i].label;
        EXPECT_EQ(top[i].predicted, beam[row].cost.total) << top[i].label;
        EXPECT_GE(top[i].predicted, top[i - 1].predicted) << top[i].label;
        EXPECT_NE(scheduleToJson(*top[i].state).dump(), resultJson) << "the result twice";
    }
    // Without the result (the Measure box's "best of the beam"): the beam's cheapest row.
    const std::vector<BenchCandidate> one = topOfBeam(nullptr, beam, 1, 1.0);
    ASSERT_EQ(one.size(), 1u);
    size_t cheapest = 0;
    for (size_t r = 1; r < beam.size(); ++r) {
        if (beam[r].state->complete() && beam[r].cost.total < beam[cheapest].cost.total)
            cheapest = r;
    }
    EXPECT_EQ(one[0].label, "beam#" + std::to_string(cheapest));
}
