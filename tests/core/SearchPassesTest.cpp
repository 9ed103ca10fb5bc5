// The search's passes as the paper and the authors' implementation run them: the freezing
// pre-pass replaces one of the passes, main pass p buckets at hash depth p - 1 (the pre-pass at
// -1, one bucket per parent), buckets are formed per parent, floor(log2 B) are drawn from each,
// and the penalties of 4.5 (repeated hashes within a step, hashes no earlier pass kept).
#include "ScheduleTestUtil.h"

#include "search/Sampler.h"
#include "search/SearchEngine.h"
#include "search/SearchReport.h"
#include "search/StructuralHash.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

SearchOptions options(int beam, int passes, bool freezing = true, bool sampling = true) {
    SearchOptions o;
    o.beamSize = beam;
    o.passes = passes;
    o.seed = 5;
    o.freezing = freezing;
    o.freezeMinFuncs = 0; // the paper's freezing, on these chains of fewer than 10 Funcs too
    o.sampling = sampling;
    o.gpu = GpuSpec::load("v100");
    return o;
}

/// Every step of a whole search.
std::vector<SearchStepPtr> stepsOf(std::shared_ptr<const FunctionDAG> dag, const SearchOptions &o) {
    SearchEngine engine(std::move(dag), o);
    std::vector<SearchStepPtr> steps;
    while (!engine.finished())
        steps.push_back(engine.step());
    return steps;
}

std::set<int> passesOf(const std::vector<SearchStepPtr> &steps) {
    std::set<int> passes;
    for (const SearchStepPtr &s : steps)
        passes.insert(s->pass);
    return passes;
}

} // namespace

TEST(SearchPasses, ThePrepassReplacesAPass) {
    auto dag = stencilChainDag(4);
    // With freezing: the pre-pass (0) and four main passes make the five.
    EXPECT_EQ(passesOf(stepsOf(dag, options(4, 5))), (std::set<int>{0, 1, 2, 3, 4}));
    // Without: five main passes.
    EXPECT_EQ(passesOf(stepsOf(dag, options(4, 5, false))), (std::set<int>{1, 2, 3, 4, 5}));
    // One pass leaves no room for a pre-pass (greedy): nothing is frozen.
    SearchEngine greedy(dag, options(1, 1));
    greedy.run();
    EXPECT_EQ(greedy.mainPasses(), 1);
    EXPECT_TRUE(greedy.frozen().empty());
    EXPECT_EQ(passesOf(stepsOf(dag, options(1, 1))), (std::set<int>{1}));
}

TEST(SearchPasses, SamplingDepthIsPassMinusOne) {
    auto dag = stencilChainDag(4);
    for (const SearchStepPtr &s : stepsOf(dag, options(4, 5))) {
        EXPECT_EQ(s->hashDepth, s->pass - 1) << "step " << s->index;
        EXPECT_EQ(s->passes, 4);
    }
    EXPECT_EQ(SearchEngine::samplingDepth(0), -1);
    EXPECT_EQ(SearchEngine::samplingDepth(5), 4);
}

TEST(SearchPasses, BucketsAreFormedPerParent) {
    // Constructed: the same hash under two parents makes two buckets, in order of appearance.
    const std::vector<uint64_t> hashes = {7, 7, 9, 7, 7, 9, 7};
    const std::vector<int> parents = {0, 0, 0, 1, 1, 1, 0};
    Rng rng(1);
    const std::vector<Bucket> b = bucketAndSample(hashes, parents, true, rng);
    ASSERT_EQ(b.size(), 4u);
    EXPECT_EQ(b[0].parent, 0);
    EXPECT_EQ(b[0].members, (std::vector<int>{0, 1, 6}));
    EXPECT_EQ(b[1].members, (std::vector<int>{2}));
    EXPECT_EQ(b[2].parent, 1);
    EXPECT_EQ(b[2].members, (std::vector<int>{3, 4}));
    EXPECT_EQ(b[3].members, (std::vector<int>{5}));

    // In a real search every bucket holds the children of one parent with one hash, no two
    // buckets share both, and in the pre-pass (depth -1) a parent's children share one bucket
    // (inlining, always costed, has one of its own).
    auto dag = stencilChainDag(4);
    int prepassSteps = 0;
    for (const SearchStepPtr &s : stepsOf(dag, options(4, 5))) {
        std::set<std::pair<int, uint64_t>> keys;
        std::map<int, int> perParent;
        for (const Bucket &bucket : s->buckets) {
            EXPECT_TRUE(keys.insert({bucket.parent, bucket.hash}).second) << "step " << s->index;
            ++perParent[bucket.parent];
            for (int m : bucket.members) {
                EXPECT_EQ(s->candidates[size_t(m)].parent, bucket.parent);
                EXPECT_EQ(s->candidates[size_t(m)].hash, bucket.hash);
            }
        }
        if (s->pass != 0) continue;
        ++prepassSteps;
        for (const auto &[parent, count] : perParent)
            EXPECT_LE(count, 2) << "step " << s->index;
    }
    EXPECT_GT(prepassSteps, 0);
}

TEST(SearchPasses, EachBucketGivesFloorLog2OfItsSize) {
    auto dag = stencilChainDag(4);
    int64_t total = 0;
    bool someBucketSampled = false;
    SearchEngine engine(dag, options(8, 5));
    while (!engine.finished()) {
        const SearchStepPtr s = engine.step();
        for (const Bucket &b : s->buckets) {
            EXPECT_EQ(int(b.sampled.size()), representativesFor(int(b.members.size())));
            someBucketSampled |= b.sampled.size() < b.members.size();
            total += int64_t(b.sampled.size());
            for (int m : b.sampled)
                EXPECT_TRUE(s->candidates[size_t(m)].sampled);
        }
    }
    EXPECT_TRUE(someBucketSampled);
    EXPECT_EQ(total, engine.counters().evaluated); // the trace's buckets account for every state
    // With sampling off every member is costed.
    for (const SearchStepPtr &s : stepsOf(dag, options(8, 3, true, false))) {
        for (const Bucket &b : s->buckets)
            EXPECT_EQ(b.sampled, b.members);
    }
}

TEST(SearchPasses, PenaltiesFollowSection45) {
    auto dag = stencilChainDag(4);
    bool penalizedInMainPass = false;
    for (const SearchStepPtr &s : stepsOf(dag, options(8, 4))) {
        for (const StepCandidate &c : s->candidates) {
            if (s->pass == 0) {
                EXPECT_FALSE(c.penalized) << "the pre-pass charges no penalty";
            }
            penalizedInMainPass |= c.penalized;
        }
        for (const BeamEntry &e : s->beam)
            EXPECT_GE(e.rankCost, e.cost.total);
        // The first state taken in a step is the cheapest and no state before it shares its
        // hash: in the first main pass (no earlier pass to consult) it carries no charge.
        if (s->pass == 1 && !s->beam.empty() && s->beam.front().decision != "unchanged") {
            EXPECT_DOUBLE_EQ(s->beam.front().rankCost, s->beam.front().cost.total)
                << "step " << s->index;
        }
    }
    EXPECT_TRUE(penalizedInMainPass);
    // A beam of one or a single pass charges nothing.
    for (const SearchStepPtr &s : stepsOf(dag, options(1, 3))) {
        for (const StepCandidate &c : s->candidates)
            EXPECT_FALSE(c.penalized);
    }
    for (const SearchStepPtr &s : stepsOf(dag, options(8, 1))) {
        for (const StepCandidate &c : s->candidates)
            EXPECT_FALSE(c.penalized);
    }
}

TEST(SearchPasses, TraceLinesSumToTheEvaluatedStatesPerPassAndFunc) {
    auto dag = stencilChainDag(4);
    SearchEngine engine(dag, options(4, 3));
    std::map<int, int64_t> perPass;
    std::map<std::string, int64_t> perFunc;
    while (!engine.finished()) {
        const nlohmann::json line = stepToJson(*engine.step(), *dag);
        perPass[line["pass"].get<int>()] += line["evaluated"].get<int64_t>();
        perFunc[line["func"].get<std::string>()] += line["evaluated"].get<int64_t>();
        int64_t sampled = 0;
        for (const auto &b : line["buckets"])
            sampled += int64_t(b["sampled"].size());
        EXPECT_EQ(sampled, line["evaluated"].get<int64_t>());
    }
    int64_t byPass = 0, byFunc = 0;
    for (const auto &[pass, n] : perPass)
        byPass += n;
    for (const auto &[func, n] : perFunc)
        byFunc += n;
    EXPECT_EQ(byPass, engine.counters().evaluated);
    EXPECT_EQ(byFunc, engine.counters().evaluated);
    EXPECT_EQ(perPass.size(), 3u); // the pre-pass and two main passes
}
