// SearchSpace: size menus, every prune reason on a constructed case, and hardware limits.
#include "ScheduleTestUtil.h"

#include "codegen/ScheduleApplier.h"
#include "pipeline/apps/Apps.h"
#include "search/Pins.h"
#include "search/SearchEngine.h"
#include "search/SearchSpace.h"
#include "search/StructuralHash.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

SearchSpace v100Space() {
    return SearchSpace(GpuSpec::load("v100"), SearchSpaceOptions{});
}

/// The reason `node` is pruned in `child`, or Count when it survives.
PruneReason reasonFor(const SearchSpace &space, const StatePtr &child, const std::string &name) {
    auto p = space.check(*child, child->dag().find(name));
    return p ? p->reason : PruneReason::Count;
}

/// The error a search with `options` (its pins) stops with, or "" when it completes.
std::string searchRefusal(const std::shared_ptr<const FunctionDAG> &dag,
                          const SearchOptions &options) {
    try {
        SearchEngine engine(dag, options);
        engine.run();
        return "";
    } catch (const Error &e) {
        return e.what();
    }
}

/// How `upsampled` reads `coarse`, and `output` reads `upsampled`, in upsamplePipeline.
enum class Reads { Translated, TranslatedAndAlpha, Halves, HalvesAndAlpha };

/// input -> coarse -> upsampled -> output (64x48x3). upsampled reads coarse at x - 1 and x + 1
/// (Translated) or, like a pyramid's upsampling, at x / 2 and (x + 1) / 2 (Halves); with
/// ...AndAlpha output also divides by upsampled's channel 3, as interpolate un-premultiplies
/// by alpha. coarse is the candidate for output's thread level.
PipelineInstance upsamplePipeline(Reads reads) {
    using namespace Halide;
    ImageParam input = apps::estimatedInput(Float(32), "input", {64, 48, 4});
    Var x("x"), y("y"), c("c");
    Func coarse("coarse"), upsampled("upsampled"), output("output");
    coarse(x, y, c) = input(x, y, c) * 2.0f;
    if (reads == Reads::Translated || reads == Reads::TranslatedAndAlpha) {
        upsampled(x, y, c) = coarse(x - 1, y, c) + coarse(x + 1, y, c);
    } else {
        upsampled(x, y, c) = coarse(x / 2, y, c) + coarse((x + 1) / 2, y, c);
    }
    const bool alpha = reads == Reads::TranslatedAndAlpha || reads == Reads::HalvesAndAlpha;
    output(x, y, c) = alpha ? upsampled(x, y, c) / upsampled(x, y, 3) : upsampled(x, y, c);
    apps::setOutputEstimates(output, {64, 48, 3});
    return apps::makeInstance("upsample", {output}, {input}, {});
}

/// output at root (16x2 threads, `serial` x 2 serial per thread, one channel per thread),
/// upsampled inlined; coarse not placed yet.
StatePtr upsampleParent(const std::shared_ptr<const FunctionDAG> &dag, int64_t serial) {
    StatePtr s = rootTiled(ScheduleState::initial(dag), "output", {16, 2, 1}, {serial, 2, 1});
    return s->withInline(dag->find("upsampled"));
}

/// The root tilings of a Func that doubles an input of `extents`, as `gpu`'s space with `options`
/// (no parallelism filter) keeps them.
std::vector<Candidate> pointwiseRootTilings(const std::vector<int64_t> &extents,
                                            const std::string &gpu,
                                            SearchSpaceOptions options = {}) {
    using namespace Halide;
    ImageParam input = apps::estimatedInput(Float(32), "input", extents);
    std::vector<Var> vars(extents.size());
    const std::vector<Expr> args(vars.begin(), vars.end());
    Func output("output");
    output(vars) = input(args) * 2.0f;
    apps::setOutputEstimates(output, extents);
    auto dag =
        std::make_shared<const FunctionDAG>(apps::makeInstance("pointwise", {output}, {input}, {}));
    const int node = dag->find("output");
    const StatePtr root = ScheduleState::initial(dag)->withRoot(node);
    options.parallelismFilter = false;
    std::vector<Candidate> kept;
    std::vector<PrunedCandidate> pruned;
    SearchSpace(GpuSpec::load(gpu), options).tilings(*root, node, kept, pruned);
    return kept;
}

} // namespace

TEST(SearchSpace, SizeMenusFollowThePaper) {
    const SearchSpace space = v100Space();
    EXPECT_EQ(space.serialSizes(1536), (std::vector<int64_t>{1, 2, 4, 8, 3}));
    EXPECT_EQ(space.serialSizes(96), (std::vector<int64_t>{1, 2, 4, 8, 3}));
    EXPECT_EQ(space.serialSizes(160), (std::vector<int64_t>{1, 2, 4, 8, 5}));
    // Extents of 3, 5 and 7 are taken whole or not at all (Halide's Anderson2021 does the same).
    EXPECT_EQ(space.serialSizes(3), (std::vector<int64_t>{1, 3}));
    EXPECT_EQ(space.serialSizes(5), (std::vector<int64_t>{1, 5}));
    EXPECT_EQ(space.serialSizes(7), (std::vector<int64_t>{1, 7}));
    EXPECT_EQ(space.serialSizes(6), (std::vector<int64_t>{1, 2, 4}));
    EXPECT_EQ(space.threadSizes(1536, true), (std::vector<int64_t>{16, 32, 64}));
    EXPECT_EQ(space.threadSizes(1536, false), (std::vector<int64_t>{1, 2, 4, 8, 16}));
    // A dimension under 64 points may also take a thread per point, as Anderson2021 offers it.
    EXPECT_EQ(space.threadSizes(3, false), (std::vector<int64_t>{1, 2, 3}));
    EXPECT_EQ(space.threadSizes(29, true), (std::vector<int64_t>{16, 29}));
    EXPECT_EQ(space.threadSizes(48, true), (std::vector<int64_t>{16, 32, 48}));
    EXPECT_EQ(space.threadSizes(40, false), (std::vector<int64_t>{1, 2, 4, 8, 16, 40}));
    EXPECT_EQ(space.threadSizes(64, true), (std::vector<int64_t>{16, 32, 64}));
    EXPECT_EQ(space.threadSizes(8, false), (std::vector<int64_t>{1, 2, 4, 8}));
}

TEST(SearchSpace, EveryPruneReasonHasATriggeringCase) {
    auto dag = stencilChainDag(1);
    const SearchSpace space = v100Space();
    const StatePtr start = ScheduleState::initial(dag);
    const StatePtr outputPlaced = rootTiled(start, "output", {32, 8}, {1, 1});

    EXPECT_EQ(reasonFor(space, rootTiled(outputPlaced, "stage_1", {32, 8}, {1, 1}), "stage_1"),
              PruneReason::Count);
    EXPECT_EQ(reasonFor(space, rootTiled(outputPlaced, "stage_1", {64, 32}, {1, 1}), "stage_1"),
              PruneReason::TooManyThreads);
    EXPECT_EQ(reasonFor(space, rootTiled(outputPlaced, "stage_1", {32, 1}, {8, 16}), "stage_1"),
              PruneReason::SerialTooLargeToUnroll);
    EXPECT_EQ(reasonFor(space, rootTiled(outputPlaced, "stage_1", {16, 1}, {1, 1}), "stage_1"),
              PruneReason::PoorWarpLaneUtilization);
    // 64x16 threads with 4x4 serial: 256x64 pixels per block, 6 x 40 = 240 blocks on the big
    // image is fine; on a 512x256 image it is 8 blocks, leaving most of the 80 SMs idle.
    EXPECT_EQ(reasonFor(space, rootTiled(outputPlaced, "stage_1", {64, 16}, {4, 4}), "stage_1"),
              PruneReason::Count)
        << "240 blocks for 80 SMs is allowed";
    auto small = std::make_shared<const FunctionDAG>(
        buildApp("stencil_chain", {{"length", 1}, {"width", 512}, {"height", 256}}));
    const StatePtr smallOut = rootTiled(ScheduleState::initial(small), "output", {32, 8}, {1, 1});
    EXPECT_EQ(reasonFor(space, rootTiled(smallOut, "stage_1", {64, 16}, {4, 4}), "stage_1"),
              PruneReason::IdleSms);

    const StatePtr stage1 = rootTiled(outputPlaced, "stage_1", {32, 8}, {1, 1});
    // Inlining a 5x5 stencil into a 5x5 stencil evaluates it 25 times per point.
    EXPECT_EQ(reasonFor(space, stage1->withInline(dag->find("stage_0")), "stage_0"),
              PruneReason::ExcessiveRecompute);
    // A 64x16 x 8x8 tile of stage_1 needs 516 x 132 floats of stage_0 in shared memory.
    const StatePtr bigTile = rootTiled(outputPlaced, "stage_1", {64, 16}, {8, 8});
    EXPECT_EQ(reasonFor(space,
                        bigTile->withBlock(dag->find("stage_0"), dag->find("stage_1"), {1, 1}),
                        "stage_0"),
              PruneReason::TooMuchSharedMemory);
    // 8x8 serial per thread needs 12x12 floats = 576 bytes of registers.
    const StatePtr bigSerial = rootTiled(outputPlaced, "stage_1", {8, 4}, {8, 8});
    EXPECT_EQ(reasonFor(space, bigSerial->withThread(dag->find("stage_0"), dag->find("stage_1")),
                        "stage_0"),
              PruneReason::ThreadAllocationDynamicOrTooLarge);
    // Fused at the block level of 1x1-thread tiles, stage_0 is recomputed 25 times over.
    const StatePtr tiny = rootTiled(outputPlaced, "stage_1", {1, 1}, {1, 1});
    EXPECT_EQ(reasonFor(space, tiny->withBlock(dag->find("stage_0"), dag->find("stage_1"), {1, 1}),
                        "stage_0"),
              PruneReason::ExcessiveRecompute);
}

// A Func at the thread level lives in registers: Halide needs its region per thread to have a
// constant size, for every thread at once (the tiles shift inwards, so one can start anywhere).
// The size of the first tile's region is not enough. Where calls of different slopes meet (c
// and 3), the hull grows with the distance between the tile and 3, and Halide rejects the
// allocation; with floor division, the size depends on where the tile starts (and Halide
// cannot always bound it). Both are pruned; a region translated with the tile is kept, and
// compiles.
TEST(SearchSpace, ThreadLevelFuncWhoseRegionVariesWithTheTileIsPruned) {
    const SearchSpace space = v100Space();
    const Halide::Target cuda("host-cuda-cuda_capability_70");
    struct Case {
        Reads reads;
        int64_t serial;
        const char *pruned; ///< part of the prune detail; null when kept
        bool halideRejects;
    };
    for (const Case &k :
         {Case{Reads::Translated, 1, nullptr, false}, Case{Reads::Translated, 4, nullptr, false},
          Case{Reads::TranslatedAndAlpha, 4, "different slopes meet along c", true},
          Case{Reads::Halves, 1, "division by 2", false},
          Case{Reads::Halves, 3, "division by 2", false},
          Case{Reads::HalvesAndAlpha, 8, "different slopes meet along c", true}}) {
        SCOPED_TRACE("reads " + std::to_string(int(k.reads)) + ", serial " +
                     std::to_string(k.serial));
        auto dag = std::make_shared<const FunctionDAG>(upsamplePipeline(k.reads));
        const StatePtr parent = upsampleParent(dag, k.serial);
        const int coarse = dag->find("coarse"), output = dag->find("output");
        ASSERT_TRUE(parent->canFuse(coarse, output, LoopLevel::Thread));
        const FuncPlacement placement = parent->threadPlacement(coarse, output);
        const auto pruned = space.check(*parent, coarse, placement);
        ASSERT_EQ(pruned.has_value(), k.pruned != nullptr) << (pruned ? pruned->detail : "");
        if (pruned) {
            EXPECT_EQ(pruned->reason, PruneReason::ThreadAllocationDynamicOrTooLarge);
            EXPECT_NE(pruned->detail.find(k.pruned), std::string::npos) << pruned->detail;
        }
        if (k.reads == Reads::TranslatedAndAlpha) {
            // The model's first tile needs channels 0..3, a constant 4; Halide bounds |c - 3| + 1.
            EXPECT_EQ(placement.region[2].extent(), 4);
        }
        if (pruned && !k.halideRejects) continue; // pruned to be safe: Halide bounds this one
        PipelineInstance fresh = upsamplePipeline(k.reads);
        applySchedule(*placeRest(parent->withThread(coarse, output)), fresh, cuda);
        const auto compile = [&] {
            fresh.pipeline.compile_to_module(fresh.pipeline.infer_arguments(), "f", cuda);
        };
        if (k.halideRejects) {
            EXPECT_THROW(compile(), Halide::CompileError);
        } else {
            EXPECT_NO_THROW(compile());
        }
    }

    // The catalog case: interpolate's interpolated_1 at the thread level of output, read
    // through the inlined upsampling (x / 2, (x + 1) / 2, y / 2, (y + 1) / 2) and at channel 3.
    auto dag = std::make_shared<const FunctionDAG>(
        buildApp("interpolate", {{"width", 128}, {"height", 96}, {"levels", 3}}));
    StatePtr s = rootTiled(ScheduleState::initial(dag), "output", {16, 2, 1}, {8, 2, 1});
    for (const char *name : {"normalize", "interpolated_0", "upsampled_0", "upsampledx_0"})
        s = s->withInline(dag->find(name));
    const int f = dag->find("interpolated_1"), host = dag->find("output");
    ASSERT_TRUE(s->canFuse(f, host, LoopLevel::Thread));
    const auto pruned = space.check(*s, f, s->threadPlacement(f, host));
    ASSERT_TRUE(pruned.has_value());
    EXPECT_EQ(pruned->reason, PruneReason::ThreadAllocationDynamicOrTooLarge);
    // And the search does not offer it.
    std::vector<Candidate> kept;
    std::vector<PrunedCandidate> dropped;
    space.locations(*s, f, kept, dropped);
    for (const Candidate &c : kept)
        EXPECT_NE(c.child.placement->kind, ComputeKind::Thread) << c.label;
}

namespace {

enum class FReads { Translated, Transposed, HalvedAndTransposed };

/// input -> f -> output (512 x 512): output reads f at (x, y) and at (x + 1, y) (Translated), or
/// at (x, y) or (x / 2, y) and through an inlined transpose t(x, y) = f(y, x).
PipelineInstance transposePipeline(FReads reads) {
    using namespace Halide;
    ImageParam input = apps::estimatedInput(Float(32), "input", {512, 512});
    Var x("x"), y("y");
    Func f("f"), t("t"), output("output");
    f(x, y) = input(x, y) * 2.0f;
    t(x, y) = f(y, x);
    switch (reads) {
    case FReads::Translated:
        output(x, y) = f(x, y) + f(x + 1, y);
        break;
    case FReads::Transposed:
        output(x, y) = f(x, y) + t(x, y);
        break;
    case FReads::HalvedAndTransposed:
        output(x, y) = f(x / 2, y) + t(x, y);
        break;
    }
    apps::setOutputEstimates(output, {512, 512});
    return apps::makeInstance("transpose", {output}, {input}, {});
}

} // namespace

// A Func at a block level lives in shared memory, sized by Halide for every block at once. A
// transpose beside a pointwise read makes the hull a block needs grow with the block's distance
// from the diagonal, and Halide bounds it by the Func's whole extent: 512 x 512 floats, 1 MB,
// where the first block's 16 x 16 tile needs 1 KB, also where a division makes the size vary
// anyway (x / 2 beside the transpose). The H200 refused such launches (CUDA_ERROR_INVALID_VALUE:
// random:1100, 1113, 1126, 613, 620).
TEST(SearchSpace, BlockLevelFuncWhoseHullGrowsWithTheBlockIsSizedByItsWholeExtent) {
    const SearchSpace space(GpuSpec::load("h100"), SearchSpaceOptions{});
    for (const FReads reads :
         {FReads::Translated, FReads::Transposed, FReads::HalvedAndTransposed}) {
        SCOPED_TRACE(int(reads));
        const bool transposed = reads != FReads::Translated;
        auto dag = std::make_shared<const FunctionDAG>(transposePipeline(reads));
        StatePtr s = rootTiled(ScheduleState::initial(dag), "output", {16, 16}, {1, 1});
        if (transposed) s = s->withInline(dag->find("t"));
        const int f = dag->find("f"), output = dag->find("output");
        ASSERT_TRUE(s->canFuse(f, output, LoopLevel::Block));
        const FuncPlacement placement = s->blockPlacement(f, output, {1, 1});
        // The first block's own need: 16 x 16 (17 x 16 with x + 1).
        EXPECT_EQ(boxVolume(placement.region), transposed ? 16 * 16 : 17 * 16);
        const auto pruned = space.check(*s, f, placement);
        if (!transposed) {
            EXPECT_FALSE(pruned.has_value()) << pruned->detail;
            continue;
        }
        ASSERT_TRUE(pruned.has_value());
        EXPECT_EQ(pruned->reason, PruneReason::TooMuchSharedMemory);
        EXPECT_NE(pruned->detail.find(std::to_string(512 * 512 * 4) + " bytes"), std::string::npos)
            << pruned->detail;
        EXPECT_NE(pruned->detail.find("meet along"), std::string::npos) << pruned->detail;
    }
}

// The block of a host with Funcs fused at its level has, per GPU dimension, the most threads any
// of its stages puts there, mapped as the applier maps them: a fused Func's loop of one thread
// and a serial split is no thread loop, so the next loop takes its GPU dimension. f below,
// 128 x 1 x 4 threads with 2 serial along y, launches as 128 x 4 x 1 beside the host's
// 64 x 1 x 4: 128 x 4 x 4 = 2,048 threads, over the limit of 1,024 (the H200 refused such
// launches of random:1201, 1242, 1118 and 1199: CUDA_ERROR_INVALID_VALUE).
TEST(SearchSpace, FusedFuncsThreadsAreCountedOnTheDimensionsTheyLaunchOn) {
    using namespace Halide;
    ImageParam input = apps::estimatedInput(Float(32), "input", {512, 512, 4});
    Var x("x"), y("y"), c("c");
    Func f("f"), output("output");
    f(x, y, c) = input(x, y, c) * 2.0f;
    output(x, y, c) = f(x, y, c) + 1.0f;
    apps::setOutputEstimates(output, {512, 512, 4});
    auto dag =
        std::make_shared<const FunctionDAG>(apps::makeInstance("fused3d", {output}, {input}, {}));
    const SearchSpace space(GpuSpec::load("h100"), SearchSpaceOptions{});
    const StatePtr host = rootTiled(ScheduleState::initial(dag), "output", {64, 1, 4}, {2, 2, 1});
    const int fi = dag->find("f"), out = dag->find("output");
    ASSERT_TRUE(host->canFuse(fi, out, beamscope::LoopLevel::Block));
    const FuncPlacement placement = host->blockPlacement(fi, out, {1, 2, 1});
    ASSERT_EQ(placement.tilings[0].threads, (std::vector<int64_t>{128, 1, 4}));
    const auto pruned = space.check(*host, fi, placement);
    ASSERT_TRUE(pruned.has_value());
    EXPECT_EQ(pruned->reason, PruneReason::TooManyThreads);
    EXPECT_NE(pruned->detail.find("2048 threads"), std::string::npos) << pruned->detail;
    // With one serial along y the y loop keeps its GPU dimension: 128 x 2 x 4 = 1,024 fit.
    EXPECT_FALSE(space.check(*host, fi, host->blockPlacement(fi, out, {1, 1, 1})).has_value());
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
                    for (int f : kernel->stored)
                        shared +=
                            boxVolume(child->placement(f).region) * dag->node(f).bytesPerPoint;
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
        for (double t : best.cost.terms)
            EXPECT_TRUE(std::isfinite(t) && t >= 0.0);
        EXPECT_GT(best.cost.terms[size_t(CostTerm::Compute)], 0.0);
        EXPECT_GT(best.cost.terms[size_t(CostTerm::Load)], 0.0);
        EXPECT_GT(best.cost.terms[size_t(CostTerm::Store)], 0.0);
    }
}

// bgu's line(x, y, z, c) reads solve_pivot_3(x, y, z, c % 4, 4 + c / 4). With one channel per
// block of line, Beamscope's interval arithmetic takes c % 4 as one row, but Halide computes all
// 4 rows (its shared allocation held 1,024 floats for 16 x 4 x 4 points, and it launched 512
// threads where Beamscope priced 256): the block-level placement is refused, not mispriced.
TEST(SearchSpace, NoBlockLevelPlacementThroughARemainderOfOnePointPerBlock) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("bgu", {}));
    SearchOptions options = SearchOptions::greedy();
    options.gpu = GpuSpec::load("h100");
    options.pins = pinsFromJson(nlohmann::json::parse(
        R"({"pins": [{"func": "line", "location": "root", "threads": [16, 2, 4, 1],
                      "serial": [1, 2, 1, 1], "frozen": true},
                     {"func": "solve_pivot_3", "location": "block", "host": "line",
                      "serial": [1, 1, 2, 1, 1]}]})"));
    // The reason is the step's prune (`why` prints it: "Halide bounds a remainder of line's
    // loops of one iteration per block by its whole period").
    const std::string refused = searchRefusal(dag, options);
    EXPECT_NE(refused.find("solve_pivot_3"), std::string::npos)
        << "a block-level solve_pivot_3 with one channel per block: '" << refused << "'";
    // With 4 channels per block (c % 4 spans its period in both), it is accepted.
    options.pins = pinsFromJson(nlohmann::json::parse(
        R"({"pins": [{"func": "line", "location": "root", "threads": [16, 2, 1, 4],
                      "serial": [1, 2, 1, 1], "frozen": true},
                     {"func": "solve_pivot_3", "location": "block", "host": "line",
                      "serial": [1, 1, 1, 1, 1]}]})"));
    SearchEngine accepted(dag, options);
    accepted.run();
    ASSERT_NE(accepted.best(), nullptr);
    EXPECT_EQ(accepted.best()->state->placement(dag->find("solve_pivot_3")).kind,
              ComputeKind::Block);
}

// Regression: Halide bounds a Func's region per block by the whole range of a clamped index
// (repeat_edge), so lambda_0 (the input wrapper repeat_edge reads) at the block level of stage_0
// launched 52 x 256 threads for a 24 x 1 tiling and every run failed on PoCL with
// CL_INVALID_WORK_GROUP_SIZE. Such a placement is pruned; pinning it is refused.
TEST(SearchSpace, NoBlockLevelPlacementThroughAClampedIndex) {
    auto dag = std::make_shared<const FunctionDAG>(
        buildApp("stencil_chain", {{"length", 4}, {"width", 256}, {"height", 256}}));
    SearchOptions options = SearchOptions::greedy();
    options.gpu = GpuSpec::load("pocl-cpu");
    options.pins = pinsFromJson(nlohmann::json::parse(
        R"({"pins": [{"func": "lambda_0", "location": "block", "host": "stage_0"},
                     {"func": "stage_0", "location": "root"}]})"));
    const std::string refused = searchRefusal(dag, options);
    EXPECT_NE(refused.find("lambda_0"), std::string::npos)
        << "a block-level lambda_0: '" << refused << "'";
    // Unpinned, the full search never puts lambda_0 at any block level.
    options = SearchOptions();
    options.gpu = GpuSpec::load("pocl-cpu");
    options.beamSize = 8;
    options.passes = 2;
    SearchEngine engine(dag, options);
    engine.run();
    ASSERT_NE(engine.best(), nullptr);
    const int lambda = dag->find("lambda_0");
    EXPECT_NE(engine.best()->state->placement(lambda).kind, ComputeKind::Block);
}

TEST(SearchSpace, WideTilingsPutSerialSizesAndThreadsOnAnyDimension) {
    // A 4-D Func, 64 x 8 x 8 x 8: the compact space threads dimensions 0-2 only (the next and the
    // smallest) and gives dimension 3 neither threads nor serial sizes; the authors' space may put
    // either on any dimension, with at most 3 dimensions of more than one thread.
    SearchSpaceOptions wideOptions;
    wideOptions.wideTilings = true;
    const std::vector<Candidate> compact = pointwiseRootTilings({64, 8, 8, 8}, "v100"),
                                 wide = pointwiseRootTilings({64, 8, 8, 8}, "v100", wideOptions);
    for (const Candidate &k : compact) {
        const StageTiling &t = k.child.placement->tilings[0];
        EXPECT_EQ(t.threads[3], 1) << k.label;
        EXPECT_EQ(t.serial[3], 1) << k.label;
    }
    bool serialOnD = false, threadsOnD = false;
    for (const Candidate &k : wide) {
        const StageTiling &t = k.child.placement->tilings[0];
        serialOnD |= t.serial[3] > 1;
        threadsOnD |= t.threads[3] > 1;
        int threaded = 0;
        for (int64_t v : t.threads)
            threaded += v > 1;
        EXPECT_LE(threaded, 3) << k.label;
        EXPECT_GE(t.threads[0], 16) << k.label; // the innermost dimension always has a warp's width
    }
    EXPECT_TRUE(serialOnD);
    EXPECT_TRUE(threadsOnD);
    EXPECT_GT(wide.size(), compact.size());
}

TEST(SearchSpace, SmallDimensionsTakeAThreadPerPointNotTwoThirdsOfIt) {
    // An RGB image 29 wide: Anderson2021 may give the 3 channels 3 threads (iir_blur's output:
    // threads 16x2x3) and the 29 columns 29 (bgu's histogram); 2 threads over 3 channels would
    // compute 4, more than 8/7 of them, and is not offered.
    const std::vector<Candidate> kept = pointwiseRootTilings({29, 64, 3}, "v100");
    std::set<int64_t> columnThreads, channelThreads;
    for (const Candidate &k : kept) {
        const StageTiling &t = k.child.placement->tilings[0];
        columnThreads.insert(t.threads[0]);
        if (t.serial[2] == 1) channelThreads.insert(t.threads[2]);
    }
    EXPECT_EQ(columnThreads, (std::set<int64_t>{16, 29}));
    EXPECT_EQ(channelThreads, (std::set<int64_t>{1, 3}));
}

TEST(SearchSpace, AFourDimensionalFuncMayThreadItsSmallestDimensions) {
    // bgu's upsampled_x, 64 x 41 x 9 x 12 (x, y, z, c): Anderson2021 runs it on threads
    // 16x1x9x4 with 4 columns per thread, skipping y; its histogram keeps 2 channels serial in
    // a thread. The compact space offers threads and serial sizes on x with either the next two
    // dimensions (y, z) or the two smallest (z, c), never on y and c together.
    const std::vector<Candidate> kept = pointwiseRootTilings({64, 41, 9, 12}, "h100");
    bool anderson = false, serialChannels = false, yAndZ = false;
    for (const Candidate &k : kept) {
        const StageTiling &t = k.child.placement->tilings[0];
        const bool yUsed = t.threads[1] > 1 || t.serial[1] > 1;
        const bool cUsed = t.threads[3] > 1 || t.serial[3] > 1;
        EXPECT_FALSE(yUsed && cUsed) << k.label;
        anderson |= t.threads == std::vector<int64_t>{16, 1, 9, 4} &&
                    t.serial == std::vector<int64_t>{4, 1, 1, 1};
        serialChannels |= t.serial[3] == 2 && t.threads[3] == 1;
        yAndZ |= t.threads[1] > 1 && t.threads[2] > 1;
    }
    EXPECT_TRUE(anderson);
    EXPECT_TRUE(serialChannels);
    EXPECT_TRUE(yAndZ) << "the next dimensions in order stay on the menu";
}

TEST(SearchSpace, TilingMenuIsTheSameOnEveryParent) {
    // The engine makes a root Func's tiling menu once and applies it to every parent: the
    // tilings kept and dropped must not depend on how the other Funcs are scheduled.
    auto dag = stencilChainDag(3);
    const SearchSpace space = v100Space();
    const int node = dag->find("stage_1");
    const StatePtr start = rootTiled(ScheduleState::initial(dag), "output", {16, 8}, {2, 2});
    StatePtr a = rootTiled(start, "stage_3", {32, 4}, {1, 2});
    a = a->withRoot(dag->find("stage_2"));
    StatePtr b = rootTiled(start, "stage_3", {16, 1}, {4, 1});
    b = b->withInline(dag->find("stage_2"));
    a = a->withRoot(node);
    b = b->withRoot(node);
    const TilingMenu menu = space.tilingMenu(*dag, node);
    for (const StatePtr &parent : {a, b}) {
        std::vector<Candidate> kept, fromMenu;
        std::vector<PrunedCandidate> pruned, prunedFromMenu;
        space.tilings(*parent, node, kept, pruned);
        space.applyTilingMenu(menu, *parent, node, fromMenu, prunedFromMenu);
        ASSERT_EQ(kept.size(), fromMenu.size());
        ASSERT_FALSE(kept.empty());
        for (size_t i = 0; i < kept.size(); ++i) {
            EXPECT_EQ(kept[i].label, fromMenu[i].label);
            EXPECT_EQ(kept[i].child.placement->tilings, fromMenu[i].child.placement->tilings);
            EXPECT_EQ(kept[i].child.parent.get(), parent.get());
        }
        ASSERT_EQ(pruned.size(), prunedFromMenu.size());
        for (size_t i = 0; i < pruned.size(); ++i) {
            EXPECT_EQ(pruned[i].label, prunedFromMenu[i].label);
            EXPECT_EQ(pruned[i].reason, prunedFromMenu[i].reason);
        }
    }
}

TEST(SearchSpace, MenuTilingsOnAParentAreTheStatesTheirDecisionsMake) {
    // Applying a menu shares one kernel map and one placement per tiling across candidates
    // (for speed); each candidate must still be the state its decision makes on its own, and
    // be labelled with its last stage's thread and serial sizes.
    auto dag = stencilChainDag(3);
    const SearchSpace space = v100Space();
    const int node = dag->find("stage_2");
    StatePtr parent = rootTiled(ScheduleState::initial(dag), "output", {16, 8}, {2, 2});
    parent = rootTiled(parent, "stage_3", {32, 4}, {1, 2});
    parent = parent->withRoot(node);
    std::vector<Candidate> kept;
    std::vector<PrunedCandidate> pruned;
    space.applyTilingMenu(space.tilingMenu(*dag, node), *parent, node, kept, pruned);
    ASSERT_GT(kept.size(), 2u);
    auto sizes = [](const std::vector<int64_t> &v) {
        std::ostringstream s;
        for (size_t i = 0; i < v.size(); ++i)
            s << (i ? "x" : "") << v[i];
        return s.str();
    };
    for (const Candidate &c : kept) {
        const std::vector<StageTiling> &tilings = c.child.placement->tilings;
        const StatePtr alone = parent->withRootTiling(node, tilings);
        const StatePtr fromMenu = c.child.materialize();
        EXPECT_EQ(structuralHash(*fromMenu, kMaxHashDepth), structuralHash(*alone, kMaxHashDepth));
        EXPECT_EQ(structuralHash(c.child, kMaxHashDepth), structuralHash(*alone, kMaxHashDepth));
        EXPECT_EQ(structuralHash(c.child, 0), structuralHash(*alone, 0));
        ASSERT_EQ(fromMenu->kernels().size(), alone->kernels().size());
        EXPECT_EQ(fromMenu->placement(node).tilings, tilings);
        EXPECT_EQ(c.label, "threads " + sizes(tilings.back().threads) + " serial " +
                               sizes(tilings.back().serial));
    }
}

TEST(SearchSpace, MenuKernelsAreSharedOnlyWhereEveryParentBuildsTheSame) {
    // With shareKernels a tiling's kernel is built once and reused on the next parent; that is
    // exact only while nothing is inlined into or computed inside the Func. A parent where its
    // producer is already inlined must get kernels of its own.
    auto dag = stencilChainDag(3);
    const SearchSpace space = v100Space();
    const int node = dag->find("stage_2");
    const StatePtr start = rootTiled(ScheduleState::initial(dag), "output", {16, 8}, {2, 2});
    const StatePtr a = rootTiled(start, "stage_3", {32, 4}, {1, 2})->withRoot(node);
    const StatePtr b = start->withInline(dag->find("stage_3"))->withRoot(node);
    const StatePtr c = a->withInline(dag->find("stage_1"));
    const TilingMenu menu = space.tilingMenu(*dag, node);
    std::vector<std::vector<Candidate>> kept(3);
    const std::vector<StatePtr> parents{a, b, c};
    for (size_t p = 0; p < parents.size(); ++p) {
        std::vector<PrunedCandidate> pruned;
        space.applyTilingMenu(menu, *parents[p], node, kept[p], pruned, true);
        ASSERT_EQ(kept[p].size(), menu.kept.size());
        for (const Candidate &cand : kept[p]) {
            const StatePtr alone = parents[p]->withRootTiling(node, cand.child.placement->tilings);
            EXPECT_EQ(structuralHash(cand.child, kMaxHashDepth),
                      structuralHash(*alone, kMaxHashDepth));
            EXPECT_EQ(structuralHash(*cand.child.materialize(), kMaxHashDepth),
                      structuralHash(*alone, kMaxHashDepth));
        }
    }
    auto ownKernel = [&](const Candidate &cand) {
        const StatePtr s = cand.child.materialize();
        for (size_t k = 0; k < s->kernels().size(); ++k) {
            if (s->kernels()[k]->node == node) return s->kernels()[k].get();
        }
        return static_cast<const LoopNest *>(nullptr);
    };
    for (size_t i = 0; i < menu.kept.size(); ++i) {
        ASSERT_NE(ownKernel(kept[0][i]), nullptr);
        EXPECT_EQ(ownKernel(kept[0][i]), ownKernel(kept[1][i])); // built once, shared
        EXPECT_NE(ownKernel(kept[0][i]), ownKernel(kept[2][i])); // stage_1 inlined into it
    }
}
