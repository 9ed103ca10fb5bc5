// The parallelism filter on root tilings (4.3, ParallelTileFilter): block counts and idle-core
// wastage of constructed tilings, the 2x-SMs floor and its relaxation, the wastage preference,
// and SearchSpace::tilings keeping only tilings that fill the GPU when some do.
#include "pipeline/apps/Apps.h"
#include "search/ParallelTileFilter.h"
#include "search/SearchSpace.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace beamscope;

namespace {

/// output(x, y) = 2 * input(x, y) over width x height.
std::shared_ptr<const FunctionDAG> pointwiseDag(int64_t width, int64_t height) {
    using namespace Halide;
    ImageParam input = apps::estimatedInput(Float(32), "input", {width, height});
    Var x("x"), y("y");
    Func output("output");
    output(x, y) = input(x, y) * 2.0f;
    apps::setOutputEstimates(output, {width, height});
    return std::make_shared<const FunctionDAG>(
        apps::makeInstance("pointwise", {output}, {input}, {}));
}

std::vector<StageTiling> tiling(const FunctionDAG &dag, std::vector<int64_t> threads,
                                std::vector<int64_t> serial) {
    const Node &n = dag.node(dag.find("output"));
    return {ScheduleState::makeTiling(n.stages[0], std::move(threads), std::move(serial))};
}

TileParallelism option(int64_t blocks, double wastage) {
    TileParallelism t;
    t.minBlocks = blocks;
    t.idleCoreWastage = wastage;
    return t;
}

std::vector<bool> keptOf(const std::vector<std::string> &why) {
    std::vector<bool> kept;
    for (const std::string &w : why)
        kept.push_back(w.empty());
    return kept;
}

} // namespace

TEST(ParallelTileFilter, BlocksAndWastageOfConstructedTilings) {
    auto big = pointwiseDag(1024, 1024);
    const Node &n = big->node(big->find("output"));
    // 16 x 16 threads, no serial: 64 x 64 blocks; 4096 / 80 = 51.2 waves, the last 20% full.
    TileParallelism t = tileParallelism(n, tiling(*big, {16, 16}, {1, 1}), 80);
    EXPECT_EQ(t.minBlocks, 4096);
    EXPECT_NEAR(t.idleCoreWastage, 52.0 / 51.2, 1e-12);
    // 64 x 16 threads, 8 x 2 serial: 2 x 32 blocks, less than one wave (80 / 64).
    t = tileParallelism(n, tiling(*big, {64, 16}, {8, 2}), 80);
    EXPECT_EQ(t.minBlocks, 64);
    EXPECT_NEAR(t.idleCoreWastage, 80.0 / 64.0, 1e-12);
    // An 8 x 8 Func with its whole extent in blocks (one thread each) is too small to count.
    auto tiny = pointwiseDag(8, 8);
    t = tileParallelism(tiny->node(tiny->find("output")), tiling(*tiny, {1, 1}, {1, 1}), 80);
    EXPECT_EQ(t.minBlocks, 0);
    EXPECT_EQ(t.idleCoreWastage, 1.0);
    // With threads it counts: 8 threads x 8 rows leaves 1 x 8 blocks.
    t = tileParallelism(tiny->node(tiny->find("output")), tiling(*tiny, {8, 1}, {1, 1}), 80);
    EXPECT_EQ(t.minBlocks, 8);
}

TEST(ParallelTileFilter, KeepsTwiceTheSmsAndPrefersFullWaves) {
    const ParallelFilterOptions limits;
    // 160 blocks and more pass; of those, 170 blocks (2.125 waves: wastage 1.41) gives way to
    // 200 (wastage 1.2) and 400 (wastage 1).
    std::vector<std::string> why =
        filterParallelTilings({option(200, 1.2), option(100, 1.25), option(170, 3.0 / 2.125),
                               option(400, 1), option(50, 1.6)},
                              80, limits);
    EXPECT_EQ(keptOf(why), (std::vector<bool>{true, false, false, true, false}));
    EXPECT_NE(why[1].find("100 blocks for 80 SMs"), std::string::npos) << why[1];
    EXPECT_NE(why[2].find("idle-core wastage"), std::string::npos) << why[2];
    // When every option with enough blocks wastes cores, they are all kept.
    why = filterParallelTilings({option(170, 1.41), option(100, 1.25), option(250, 1.28)}, 80,
                                limits);
    EXPECT_EQ(keptOf(why), (std::vector<bool>{true, false, true}));
}

TEST(ParallelTileFilter, RelaxesTheFloorWhenNoTilingHasEnoughBlocks) {
    const ParallelFilterOptions limits;
    // None reaches 160: the floor falls to 80 (the SMs) ...
    EXPECT_EQ(keptOf(filterParallelTilings({option(50, 1.6), option(90, 1.8), option(30, 2.7)}, 80,
                                           limits)),
              (std::vector<bool>{false, true, false}));
    // ... then 40, 20, ...
    EXPECT_EQ(keptOf(filterParallelTilings({option(50, 1.6), option(30, 2.7), option(12, 6.7)}, 80,
                                           limits)),
              (std::vector<bool>{true, false, false}));
    EXPECT_EQ(keptOf(filterParallelTilings({option(3, 1), option(5, 1)}, 80, limits)),
              (std::vector<bool>{false, true}));
    // ... down to 0: a Func too small to count in any tiling keeps every tiling.
    EXPECT_EQ(keptOf(filterParallelTilings({option(0, 1), option(0, 1)}, 80, limits)),
              (std::vector<bool>{true, true}));
}

TEST(ParallelTileFilter, SearchSpaceKeepsOnlyTilingsThatFillTheGpu) {
    // 256 x 64 points: small enough that many tilings give fewer than 2 x 80 blocks.
    auto dag = pointwiseDag(256, 64);
    const int node = dag->find("output");
    const GpuSpec gpu = GpuSpec::load("v100");
    const StatePtr root = ScheduleState::initial(dag)->withRoot(node);
    SearchSpaceOptions on, off;
    off.parallelismFilter = false;
    std::vector<Candidate> keptOn, keptOff;
    std::vector<PrunedCandidate> prunedOn, prunedOff;
    SearchSpace(gpu, on).tilings(*root, node, keptOn, prunedOn);
    SearchSpace(gpu, off).tilings(*root, node, keptOff, prunedOff);
    auto blocks = [](const Candidate &c) {
        int64_t b = 1;
        for (int64_t v : c.child.placement->tilings[0].blocks)
            b *= v;
        return b;
    };
    int64_t enough = 0;
    for (const Candidate &c : keptOff)
        enough += blocks(c) >= 2 * gpu.smCount;
    ASSERT_GT(enough, 0);
    ASSERT_LT(enough, int64_t(keptOff.size()));
    ASSERT_FALSE(keptOn.empty());
    for (const Candidate &c : keptOn) {
        EXPECT_GE(blocks(c), 2 * gpu.smCount) << c.label;
        const double waves = double(blocks(c)) / gpu.smCount;
        EXPECT_LE(std::ceil(waves) / waves, 1.2 + 1e-12) << c.label;
    }
    // Every tiling is either kept or dropped with a reason.
    EXPECT_EQ(keptOn.size() + prunedOn.size(), keptOff.size() + prunedOff.size());
    int64_t filtered = 0;
    for (const PrunedCandidate &p : prunedOn)
        filtered += p.reason == PruneReason::IdleSms;
    int64_t idleBefore = 0;
    for (const PrunedCandidate &p : prunedOff)
        idleBefore += p.reason == PruneReason::IdleSms;
    EXPECT_EQ(filtered - idleBefore, int64_t(keptOff.size() - keptOn.size()));
}
