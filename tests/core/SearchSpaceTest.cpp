// SearchSpace: size menus, every prune reason on a constructed case, and hardware limits.
#include "ScheduleTestUtil.h"

#include "search/SearchEngine.h"
#include "search/SearchSpace.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

SearchSpace v100Space() { return SearchSpace(GpuSpec::load("v100"), SearchSpaceOptions{}); }

/// The reason `node` is pruned in `child`, or Count when it survives.
PruneReason reasonFor(const SearchSpace &space, const StatePtr &child, const std::string &name) {
    auto p = space.check(*child, child->dag().find(name));
    return p ? p->reason : PruneReason::Count;
}

} // namespace

TEST(SearchSpace, SizeMenusFollowThePaper) {
    const SearchSpace space = v100Space();
    EXPECT_EQ(space.serialSizes(1536), (std::vector<int64_t>{1, 2, 4, 8, 3}));
    EXPECT_EQ(space.serialSizes(96), (std::vector<int64_t>{1, 2, 4, 8, 3}));
    EXPECT_EQ(space.serialSizes(160), (std::vector<int64_t>{1, 2, 4, 8, 5}));
    EXPECT_EQ(space.serialSizes(3), (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(space.threadSizes(1536, true), (std::vector<int64_t>{16, 32, 64}));
    EXPECT_EQ(space.threadSizes(1536, false), (std::vector<int64_t>{1, 2, 4, 8, 16}));
    EXPECT_EQ(space.threadSizes(3, false), (std::vector<int64_t>{1, 2}));
}

TEST(SearchSpace, EveryPruneReasonHasATriggeringCase) {
    auto dag = stencilChainDag(1);
    const SearchSpace space = v100Space();
    const StatePtr start = ScheduleState::initial(dag);
    const StatePtr outputPlaced = rootTiled(start, "output", {32, 8}, {1, 1});

    EXPECT_EQ(reasonFor(space, rootTiled(outputPlaced, "stage_1", {32, 8}, {1, 1}), "stage_1"), PruneReason::Count);
    EXPECT_EQ(reasonFor(space, rootTiled(outputPlaced, "stage_1", {64, 32}, {1, 1}), "stage_1"),
              PruneReason::TooManyThreads);
    EXPECT_EQ(reasonFor(space, rootTiled(outputPlaced, "stage_1", {32, 1}, {8, 16}), "stage_1"),
              PruneReason::SerialTooLargeToUnroll);
    EXPECT_EQ(reasonFor(space, rootTiled(outputPlaced, "stage_1", {16, 1}, {1, 1}), "stage_1"),
              PruneReason::PoorWarpLaneUtilization);
    // 64x16 threads with 4x4 serial: 256x64 pixels per block, 6 x 40 = 240 blocks on the big
    // image is fine; on a 512x256 image it is 8 blocks, leaving most of the 80 SMs idle.
    EXPECT_EQ(reasonFor(space, rootTiled(outputPlaced, "stage_1", {64, 16}, {4, 4}), "stage_1"),
              PruneReason::Count) << "240 blocks for 80 SMs is allowed";
    auto small = std::make_shared<const FunctionDAG>(
        buildApp("stencil_chain", {{"length", 1}, {"width", 512}, {"height", 256}}));
    const StatePtr smallOut = rootTiled(ScheduleState::initial(small), "output", {32, 8}, {1, 1});
    EXPECT_EQ(reasonFor(space, rootTiled(smallOut, "stage_1", {64, 16}, {4, 4}), "stage_1"), PruneReason::IdleSms);

    const StatePtr stage1 = rootTiled(outputPlaced, "stage_1", {32, 8}, {1, 1});
    // Inlining a 5x5 stencil into a 5x5 stencil evaluates it 25 times per point.
    EXPECT_EQ(reasonFor(space, stage1->withInline(dag->find("stage_0")), "stage_0"), PruneReason::ExcessiveRecompute);
    // A 64x16 x 8x8 tile of stage_1 needs 516 x 132 floats of stage_0 in shared memory.
    const StatePtr bigTile = rootTiled(outputPlaced, "stage_1", {64, 16}, {8, 8});
    EXPECT_EQ(reasonFor(space, bigTile->withBlock(dag->find("stage_0"), dag->find("stage_1"), {1, 1}), "stage_0"),
              PruneReason::TooMuchSharedMemory);
    // 8x8 serial per thread needs 12x12 floats = 576 bytes of registers.
    const StatePtr bigSerial = rootTiled(outputPlaced, "stage_1", {8, 4}, {8, 8});
    EXPECT_EQ(reasonFor(space, bigSerial->withThread(dag->find("stage_0"), dag->find("stage_1")), "stage_0"),
              PruneReason::ThreadAllocationDynamicOrTooLarge);
    // Fused at the block level of 1x1-thread tiles, stage_0 is recomputed 25 times over.
    const StatePtr tiny = rootTiled(outputPlaced, "stage_1", {1, 1}, {1, 1});
    EXPECT_EQ(reasonFor(space, tiny->withBlock(dag->find("stage_0"), dag->find("stage_1"), {1, 1}), "stage_0"),
              PruneReason::ExcessiveRecompute);
}

TEST(SearchSpace, SurvivingCandidatesRespectTheGpuLimits) {
    const GpuSpec gpu = GpuSpec::load("v100");
    const SearchSpace space(gpu, SearchSpaceOptions{});
    for (const char *app : {"stencil_chain", "unsharp_mask", "conv_layer", "bilateral_grid"}) {
        SCOPED_TRACE(app);
        auto dag = std::make_shared<const FunctionDAG>(buildApp(app));
        StatePtr state = ScheduleState::initial(dag);
        for (int node : dag->outputsFirst()) {
            std::vector<Candidate> kept;
            std::vector<PrunedCandidate> pruned;
            space.locations(*state, node, kept, pruned);
            std::vector<Candidate> tiles;
            for (const Candidate &c : kept) {
                if (c.child.placement->kind == ComputeKind::Root && !c.child.placement->tiled) {
                    space.tilings(*c.child.materialize(), node, tiles, pruned);
                }
            }
            kept.insert(kept.end(), tiles.begin(), tiles.end());
            for (const Candidate &c : kept) {
                const StatePtr child = c.child.materialize();
                for (const LoopNestPtr &kernel : child->kernels()) {
                    int64_t shared = 0;
                    for (int f : kernel->stored) shared += boxVolume(child->placement(f).region) * dag->node(f).bytesPerPoint;
                    EXPECT_LE(shared, gpu.sharedMemoryPerBlockBytes) << c.label;
                    for (const LoopNestPtr &child : kernel->children) {
                        if (child->level == LoopLevel::Thread) {
                            EXPECT_LE(child->iterations(), gpu.maxThreadsPerBlock) << c.label;
                        }
                    }
                }
            }
            ASSERT_FALSE(kept.empty());
            // Go on from the first surviving, fully decided candidate.
            for (const Candidate &c : kept) {
                const FuncPlacement &p = *c.child.placement;
                if (p.kind != ComputeKind::Root || p.tiled) {
                    state = c.child.materialize();
                    break;
                }
            }
        }
        EXPECT_TRUE(state->complete());
    }
}

TEST(GreedySearch, EveryCatalogAppGetsACompleteScheduleWithFinitePositiveCost) {
    for (const AppDefinition &app : appCatalog()) {
        SCOPED_TRACE(app.name);
        auto dag = std::make_shared<const FunctionDAG>(buildApp(app.name));
        SearchOptions options = SearchOptions::greedy();
        options.gpu = GpuSpec::load("v100");
        SearchEngine engine(dag, options);
        engine.run();
        ASSERT_NE(engine.best(), nullptr);
        const BeamEntry &best = *engine.best();
        EXPECT_TRUE(best.state->complete());
        EXPECT_TRUE(std::isfinite(best.cost.total));
        EXPECT_GT(best.cost.total, 0.0);
        for (double t : best.cost.terms) EXPECT_TRUE(std::isfinite(t) && t >= 0.0);
        EXPECT_GT(best.cost.terms[size_t(CostTerm::Compute)], 0.0);
        EXPECT_GT(best.cost.terms[size_t(CostTerm::Load)], 0.0);
        EXPECT_GT(best.cost.terms[size_t(CostTerm::Store)], 0.0);
    }
}
