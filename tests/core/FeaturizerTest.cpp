// Featurizer: features of hand-made stencil-chain schedules, checked against hand computation.
#include "ScheduleTestUtil.h"

#include "cost/AnalyticalGpuCostModel.h"
#include "cost/CostOf.h"
#include "cost/Featurizer.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

/// The features of stage `stage` of `name` in `state` (V100 unless `gpu` names another).
StageFeatures featuresOf(const ScheduleState &state, const std::string &name, int stage = 0,
                         const std::string &gpu = "v100") {
    Featurizer featurizer(GpuSpec::load(gpu), false);
    const int node = state.dag().find(name);
    for (const auto &kernel : featurizer.featurize(state)) {
        for (const StageFeatureRow &row : *kernel) {
            if (row.node == node && row.stage == stage) return row.features;
        }
    }
    ADD_FAILURE() << "no features for " << name;
    return {};
}

} // namespace

TEST(Featurizer, CoalescedAndStridedThreadLoopsGiveDifferentTransactionCounts) {
    auto dag = stencilChainDag(1);
    // stage_1 gets its own kernel (it is pointwise, so it would be inlined otherwise).
    const StatePtr start = rootTiled(ScheduleState::initial(dag), "stage_1", {32, 8}, {1, 1});
    // output reads stage_1 (4-byte floats) pointwise. Threads along x: a warp reads 32
    // consecutive floats = 128 bytes = 4 sectors of 32 bytes, all of them used.
    const StatePtr coalesced = placeRest(rootTiled(start, "output", {32, 1}, {1, 1}));
    ASSERT_EQ(coalesced->placement(dag->find("stage_1")).kind, ComputeKind::Root);
    const StageFeatures c = featuresOf(*coalesced, "output");
    EXPECT_DOUBLE_EQ(c[Feature::num_global_mem_loads_per_block], 4.0);
    EXPECT_DOUBLE_EQ(c[Feature::global_mem_load_efficiency], 1.0);
    EXPECT_DOUBLE_EQ(c[Feature::num_blocks], 48.0 * 2560.0);

    // Threads along y: each lane reads its own row, one sector per lane, 4 of 32 bytes used.
    const StatePtr strided = placeRest(rootTiled(start, "output", {1, 32}, {1, 1}));
    const StageFeatures s = featuresOf(*strided, "output");
    EXPECT_DOUBLE_EQ(s[Feature::num_global_mem_loads_per_block], 32.0);
    EXPECT_DOUBLE_EQ(s[Feature::global_mem_load_efficiency], 0.125);
    // Stores of 2-byte output values: 64 contiguous bytes (2 sectors) vs 32 rows.
    EXPECT_DOUBLE_EQ(c[Feature::num_global_mem_stores_per_block], 2.0);
    EXPECT_DOUBLE_EQ(s[Feature::num_global_mem_stores_per_block], 32.0);
}

// A thread's serial points along x lie inside its thread loop (x = (block * threads + thread) *
// serial + s): one store instruction of a warp writes one point per lane, lanes `serial` points
// apart, and the next instruction the same sectors again (Halide's PTX: one scalar st.global per
// unrolled point, benchmarks/ptx_accumulators.py's way of reading it). output's values are 2
// bytes: 4 points along x put lanes 8 bytes apart, 32 lanes over 250 bytes = 8 sectors per
// instruction, 4 instructions = 32 sectors for the warp's 256 bytes (8 sectors): efficiency
// 0.25. 4 points along y: each instruction 64 contiguous bytes = 2 sectors, 4 rows = 8 sectors,
// the footprint. A CPU's write-back cache (pocl-cpu) merges the repeats: the footprint there.
TEST(Featurizer, StoresOfLanesASerialTileApartArePricedPerInstruction) {
    auto dag = stencilChainDag(1);
    const StatePtr start = rootTiled(ScheduleState::initial(dag), "stage_1", {32, 8}, {1, 1});
    const StatePtr alongX = placeRest(rootTiled(start, "output", {32, 1}, {4, 1}));
    const StatePtr alongY = placeRest(rootTiled(start, "output", {32, 1}, {1, 4}));
    const StageFeatures x = featuresOf(*alongX, "output");
    EXPECT_DOUBLE_EQ(x[Feature::num_global_mem_stores_per_block], 32.0);
    EXPECT_DOUBLE_EQ(x[Feature::global_mem_store_efficiency], 0.25);
    const StageFeatures y = featuresOf(*alongY, "output");
    EXPECT_DOUBLE_EQ(y[Feature::num_global_mem_stores_per_block], 8.0);
    EXPECT_DOUBLE_EQ(y[Feature::global_mem_store_efficiency], 1.0);
    const StageFeatures cpu = featuresOf(*alongX, "output", 0, "pocl-cpu");
    EXPECT_DOUBLE_EQ(cpu[Feature::global_mem_store_efficiency], 1.0);
    // The analytic model prices the repeated sectors: the same points cost more along x.
    const GpuSpec v100 = GpuSpec::load("v100");
    EXPECT_GT(costOf(*alongX, "analytic", v100).cost.total,
              costOf(*alongY, "analytic", v100).cost.total);
}

// A global load instruction of a warp costs the L1 a wavefront per 128-byte line its lanes
// touch. output reads stage_1 (4-byte floats) pointwise: 32 lanes along x read 128 contiguous
// bytes, which cross a line boundary between two neighbours 4 bytes apart with chance 4 / 128
// wherever the row starts: 1 + 31 / 32 lines. 32 lanes along y read a line each. 4 unrolled
// points along x per thread put the lanes 16 bytes apart: 4 instructions of 1 + 31 / 8 lines.
// stage_1 is a 5x5 stencil of stage_0's floats: a thread's 4 unrolled points along x read
// 8 x 5 distinct elements, which LLVM loads once each (40 instructions, not 4 x 25), lanes 16
// bytes apart: 1 + 31 / 8 lines each. pocl-cpu has no such cost (0).
TEST(Featurizer, GlobalLoadsCostAnL1WavefrontPerLineEachInstructionTouches) {
    auto dag = stencilChainDag(1);
    const StatePtr start = rootTiled(ScheduleState::initial(dag), "stage_1", {32, 1}, {4, 1});
    const StatePtr alongX = placeRest(rootTiled(start, "output", {32, 1}, {1, 1}));
    const StatePtr alongY = placeRest(rootTiled(start, "output", {1, 32}, {1, 1}));
    const StatePtr fourAlongX = placeRest(rootTiled(start, "output", {32, 1}, {4, 1}));
    using F = Feature;
    EXPECT_DOUBLE_EQ(featuresOf(*alongX, "output")[F::num_global_mem_load_wavefronts_per_block],
                     1.0 + 31.0 / 32.0);
    EXPECT_DOUBLE_EQ(featuresOf(*alongY, "output")[F::num_global_mem_load_wavefronts_per_block],
                     32.0);
    const StageFeatures four = featuresOf(*fourAlongX, "output");
    EXPECT_DOUBLE_EQ(four[F::num_global_mem_load_instructions_per_block], 4.0);
    EXPECT_DOUBLE_EQ(four[F::num_global_mem_load_wavefronts_per_block], 4.0 * (1.0 + 31.0 / 8.0));
    const StageFeatures stencil = featuresOf(*fourAlongX, "stage_1");
    EXPECT_DOUBLE_EQ(stencil[F::num_global_mem_load_instructions_per_block], 40.0);
    EXPECT_DOUBLE_EQ(stencil[F::num_global_mem_load_wavefronts_per_block],
                     40.0 * (1.0 + 31.0 / 8.0));
    EXPECT_DOUBLE_EQ(
        featuresOf(*alongY, "output", 0, "pocl-cpu")[F::num_global_mem_load_wavefronts_per_block],
        0.0);
    // The analytic model prices the column read above the row read of the same points (in
    // blocks of 256 threads: one-warp blocks take the time their SMs need to start them,
    // AnalyticalGpuCostModelTest, the same for both reads).
    const GpuSpec h100 = GpuSpec::load("h100");
    const StatePtr rowsOf256 = placeRest(rootTiled(start, "output", {256, 1}, {1, 1}));
    const StatePtr columnsOf256 = placeRest(rootTiled(start, "output", {1, 256}, {1, 1}));
    EXPECT_GT(costOf(*columnsOf256, "analytic", h100).cost.total,
              costOf(*rowsOf256, "analytic", h100).cost.total);
}

// matmul's prod.update(0) runs its pure serial loops inside its RVar (k = 64). Its accumulators
// stay in registers across the RVar loop, loaded before it and stored once after it, when a
// thread has one point, or its points are unrolled along x (constant offsets); unrolled along y
// they sit a row stride apart, a run-time value for a Func at the root, and LLVM keeps them in
// memory; a rolled serial loop indexes them by its variable. In the last two cases every RVar
// iteration loads and stores each point: k times the stores of the pure stage with the same
// tiling, and a load instruction per point and iteration (on PoCL's CPU the write-back cache
// absorbs the repeats: counted once there). benchmarks/ptx_accumulators.py shows all four
// in Halide's PTX. The buffer the update writes is the pure stage's, whatever its RVars.
// A thread's loads wait one round per iteration of its rolled loops, four iterations sharing a
// round (ptxas unrolls and issues their loads together) unless each iteration reads the points
// the previous one wrote; its unrolled points share their iteration's round.
TEST(Featurizer, UpdateAccumulatorsRepeatPerRVarIterationWhenRolledOrARowApart) {
    const auto dag = std::make_shared<const FunctionDAG>(
        buildApp("matmul", {{"m", 256}, {"n", 256}, {"k", 64}}));
    const StatePtr start = ScheduleState::initial(dag);
    const int prod = dag->find("prod");
    const std::vector<Stage> &stages = dag->node(prod).stages; // update loops: r, x, y
    struct Case {
        int64_t serialX, serialY;
        bool repeats;
        double rounds; ///< of the update's loads, per thread
    };
    for (const Case c : {Case{1, 1, false, 64.0 / 4}, Case{4, 1, false, 64.0 / 4},
                         Case{1, 4, true, 64.0}, Case{1, kMaxUnrolledPoints, true, 64.0},
                         Case{1, 2 * kMaxUnrolledPoints, true, 64.0 * 2 * kMaxUnrolledPoints}}) {
        const StatePtr state = placeRest(start->withRootTiling(
            prod, {ScheduleState::makeTiling(stages[0], {32, 8}, {c.serialX, c.serialY}),
                   ScheduleState::makeTiling(stages[1], {1, 32, 8}, {1, c.serialX, c.serialY})}));
        const std::string what =
            "serial " + std::to_string(c.serialX) + "x" + std::to_string(c.serialY);
        for (const std::string gpu : {"v100", "pocl-cpu"}) {
            const StageFeatures pure = featuresOf(*state, "prod", 0, gpu);
            const StageFeatures update = featuresOf(*state, "prod", 1, gpu);
            const bool repeats = c.repeats && gpu == "v100";
            EXPECT_GT(pure[Feature::num_global_mem_stores_per_block], 0.0);
            EXPECT_DOUBLE_EQ(update[Feature::num_global_mem_stores_per_block],
                             (repeats ? 64.0 : 1.0) *
                                 pure[Feature::num_global_mem_stores_per_block])
                << gpu << ", " << what;
            EXPECT_DOUBLE_EQ(update[Feature::global_mem_store_efficiency],
                             pure[Feature::global_mem_store_efficiency])
                << gpu << ", " << what;
            if (gpu == "v100") {
                // Each of the 8 warps loads A(r, y) and B(x, r) at each of the 64 iterations,
                // and the point itself when it repeats: unrolled points load an address once
                // (LLVM merges them: points along x share A(r, y), along y B(x, r)), so a thread
                // loads serialY + serialX elements an iteration; a rolled loop two per point.
                const double points = double(c.serialX * c.serialY);
                const bool unrolled = c.serialY <= kMaxUnrolledPoints;
                const double operands = unrolled ? double(c.serialX + c.serialY) : 2.0 * points;
                EXPECT_DOUBLE_EQ(update[Feature::num_global_mem_load_instructions_per_block],
                                 8.0 * 64.0 * (operands + (repeats ? points : 0.0)))
                    << what;
            }
            EXPECT_DOUBLE_EQ(update[Feature::bytes_at_realization], 256.0 * 256.0 * 4.0)
                << gpu << ", " << what;
            EXPECT_DOUBLE_EQ(pure[Feature::bytes_at_realization], 256.0 * 256.0 * 4.0)
                << gpu << ", " << what;
            EXPECT_DOUBLE_EQ(update[Feature::global_mem_load_rounds_per_thread], c.rounds)
                << gpu << ", " << what;
            // The pure stage writes each point once: a rolled loop of 32 loads 4 at a time.
            EXPECT_DOUBLE_EQ(pure[Feature::global_mem_load_rounds_per_thread],
                             c.serialY > kMaxUnrolledPoints ? double(c.serialY) / 4.0 : 1.0)
                << gpu << ", " << what;
        }
    }
}

// prod.update(0) of matmul with threads along x: at each RVar iteration r, a warp loads one
// float of A (A(r, y): 1 sector) and 32 of B (B(x..x+31, r): 4 sectors). Along r a thread walks
// A's row, so the next 7 iterations find A's sector in L1: the walk of 64 iterations reaches L2
// as 8 sectors, not 64, while the walks of the SM's 64 resident warps (8 blocks of 256 threads
// on a V100) fit in its 96 KB; B's rows are new sectors every iteration. With k = 1024 the
// walks of A, 4 KB a warp, 256 KB in all, fit 96/256 = 0.375 of the time: of the 1024 - 128
// sectors it reads again, 0.375 come from L1.
TEST(Featurizer, L1ServesTheSectorsAThreadsRVarWalkReadsAgain) {
    for (const int64_t k : {int64_t(64), int64_t(1024)}) {
        const auto dag = std::make_shared<const FunctionDAG>(
            buildApp("matmul", {{"m", 256}, {"n", 256}, {"k", k}}));
        const int prod = dag->find("prod");
        const std::vector<Stage> &stages = dag->node(prod).stages; // update loops: r, x, y
        const StatePtr state = placeRest(ScheduleState::initial(dag)->withRootTiling(
            prod, {ScheduleState::makeTiling(stages[0], {32, 8}, {1, 1}),
                   ScheduleState::makeTiling(stages[1], {1, 32, 8}, {1, 1, 1})}));
        const StageFeatures update = featuresOf(*state, "prod", 1);
        const double kd = double(k);
        const double walkOfA = kd * 4 / 32;
        const double fromL1 = k == 64 ? 1.0 : 0.375;
        const double aSectors = kd - (kd - walkOfA) * fromL1;
        const double perWarp = aSectors + 4 * kd;
        EXPECT_DOUBLE_EQ(update[Feature::num_global_mem_loads_per_block], 8 * perWarp) << k;
        EXPECT_DOUBLE_EQ(update[Feature::global_mem_load_l1_hit_rate], 1.0 - perWarp / (5 * kd))
            << k;
        // Two load instructions per iteration, for each of the block's 8 warps.
        EXPECT_DOUBLE_EQ(update[Feature::num_global_mem_load_instructions_per_block], 8 * 2 * kd)
            << k;
        // PoCL's summed terms were calibrated on the counts without NVIDIA's L1.
        EXPECT_DOUBLE_EQ(
            featuresOf(*state, "prod", 1, "pocl-cpu")[Feature::global_mem_load_l1_hit_rate], 0.0)
            << k;
    }
}

TEST(Featurizer, SharedMemoryFusedStageShowsItsRecompute) {
    auto dag = stencilChainDag(1);
    StatePtr state = ScheduleState::initial(dag);
    state = rootTiled(state, "output", {32, 8}, {1, 1});
    state = rootTiled(state, "stage_1", {32, 8}, {1, 1});
    state = state->withBlock(dag->find("stage_0"), dag->find("stage_1"), {1, 1});
    state = placeRest(state);
    EXPECT_EQ(state->memoryOf(dag->find("stage_0")), MemoryType::Shared);

    // A 32x8 block of stage_1 needs a (32+4)x(8+4) tile of stage_0, recomputed per block:
    // 48 x 320 blocks of 432 points, against the 1540 x 2564 points it has.
    const StageFeatures f = featuresOf(*state, "stage_0");
    EXPECT_DOUBLE_EQ(f[Feature::num_realizations], 48.0 * 320.0);
    EXPECT_DOUBLE_EQ(f[Feature::points_computed_per_realization], 36.0 * 12.0);
    EXPECT_DOUBLE_EQ(f[Feature::points_computed_total], 36.0 * 12.0 * 48.0 * 320.0);
    EXPECT_DOUBLE_EQ(f[Feature::points_computed_minimum], 1540.0 * 2564.0);
    EXPECT_DOUBLE_EQ(f[Feature::shared_bytes_at_task], 36.0 * 12.0 * 4.0);

    // stage_1 reads its 25 taps from shared memory: over its one (root) realization that is
    // all of stage_0; per block, the 36x12 tile.
    const StageFeatures consumer = featuresOf(*state, "stage_1");
    EXPECT_DOUBLE_EQ(consumer[Feature::unique_shared_bytes_read_per_realization],
                     1540.0 * 2564.0 * 4.0);
    EXPECT_DOUBLE_EQ(consumer[Feature::unique_bytes_read_per_task], 36.0 * 12.0 * 4.0);
    EXPECT_DOUBLE_EQ(consumer[Feature::unique_global_bytes_read_per_realization], 0.0);
    // Each of a warp's 25 load instructions (one per tap: no value is kept between taps) is a
    // wavefront of its own, though the warp's unique footprint, (32+4)x5 words, fills only
    // ceil(180 / 32) = 6: 8 warps of 25 per block.
    EXPECT_DOUBLE_EQ(consumer[Feature::num_shared_mem_loads_per_block], 8.0 * 25.0);
    EXPECT_DOUBLE_EQ(consumer[Feature::shared_mem_occupancy], 36.0 * 12.0 * 4.0 / (48.0 * 1024.0));
}

TEST(Featurizer, ThreadLevelStageShowsItsRegisterFootprint) {
    auto dag = stencilChainDag(1);
    StatePtr state = ScheduleState::initial(dag);
    state = rootTiled(state, "output", {32, 8}, {1, 1});
    state = rootTiled(state, "stage_1", {16, 8}, {2, 2});
    state = state->withThread(dag->find("stage_0"), dag->find("stage_1"));
    state = placeRest(state);
    EXPECT_EQ(state->memoryOf(dag->find("stage_0")), MemoryType::Register);

    // Each thread computes a 2x2 tile of stage_1, which needs (2+4)x(2+4) points of stage_0:
    // 36 floats = 144 bytes in registers, plus its own 2x2 unrolled tile (16 bytes).
    const StageFeatures f = featuresOf(*state, "stage_0");
    EXPECT_DOUBLE_EQ(f[Feature::points_computed_per_realization], 36.0);
    EXPECT_DOUBLE_EQ(f[Feature::register_bytes_at_task], 36.0 * 4.0 * 16.0 * 8.0);
    const StageFeatures consumer = featuresOf(*state, "stage_1");
    EXPECT_DOUBLE_EQ(consumer[Feature::unique_register_bytes_read_per_thread], 144.0);
    EXPECT_DOUBLE_EQ(consumer[Feature::working_set_at_thread], 144.0 + 16.0);
    EXPECT_DOUBLE_EQ(consumer[Feature::points_computed_per_thread], 4.0);
}

// iir_blur's `blur(x, y, c) = undef<float>()` has no loop in Halide's lowering: the stage is
// marked undefined, its root kernel has no rows (nothing priced, no launch), and the updates that
// do the work are priced as before; how the undefined stage is tiled changes no cost.
TEST(Featurizer, AnUndefinedStageIsPricedAsNothing) {
    const auto dag =
        std::make_shared<const FunctionDAG>(buildApp("iir_blur", {{"width", 64}, {"height", 48}}));
    const int blur = dag->find("blur_y_blur");
    ASSERT_GE(blur, 0);
    const std::vector<Stage> &stages = dag->node(blur).stages;
    ASSERT_EQ(stages.size(), 4u);
    EXPECT_TRUE(stages[0].undefined);
    for (size_t s = 1; s < stages.size(); ++s)
        EXPECT_FALSE(stages[s].undefined) << stages[s].name;

    const StatePtr start = ScheduleState::initial(dag);
    const auto withPureTiling = [&](std::vector<int64_t> threads) {
        std::vector<StageTiling> tilings;
        tilings.push_back(ScheduleState::makeTiling(stages[0], threads, {1, 1, 1}));
        for (size_t s = 1; s < stages.size(); ++s) {
            std::vector<int64_t> ones(stages[s].loops.size(), 1);
            std::vector<int64_t> t = ones;
            t[stages[s].loops.size() > 2 ? 1 : 0] = 16; // the pure x loop (after the RVar)
            tilings.push_back(ScheduleState::makeTiling(stages[s], t, ones));
        }
        return placeRest(start->withRootTiling(blur, tilings));
    };
    const StatePtr narrow = withPureTiling({16, 1, 1});
    const StatePtr wide = withPureTiling({32, 8, 1});
    Featurizer featurizer(GpuSpec::load("h100"), false);
    size_t empty = 0;
    for (const auto &kernel : featurizer.featurize(*narrow)) {
        for (const StageFeatureRow &row : *kernel)
            EXPECT_FALSE(dag->node(row.node).stages[size_t(row.stage)].undefined)
                << dag->node(row.node).stages[size_t(row.stage)].name;
        empty += kernel->empty() ? 1 : 0;
    }
    EXPECT_EQ(empty, 2u); // blur_x_blur's and blur_y_blur's pure stages, both at the root
    const GpuSpec h100 = GpuSpec::load("h100");
    EXPECT_GT(costOf(*narrow, "analytic", h100).cost.total, 0.0);
    EXPECT_DOUBLE_EQ(costOf(*narrow, "analytic", h100).cost.total,
                     costOf(*wide, "analytic", h100).cost.total);
    EXPECT_GT(featuresOf(*narrow, "blur_y_blur", 1, "h100")[Feature::points_computed_total], 0.0);
}

TEST(Featurizer, MemoizationReusesUnchangedKernels) {
    auto dag = stencilChainDag(3);
    StatePtr state = placeRest(ScheduleState::initial(dag));
    Featurizer featurizer(GpuSpec::load("v100"), true);
    featurizer.featurize(*state);
    const int64_t misses = featurizer.memoMisses();
    EXPECT_EQ(featurizer.memoHits(), 0);
    // Retiling only the output rebuilds one kernel; every other kernel is a hit.
    const StatePtr retiled = rootTiled(state, "output", {64, 2}, {1, 1});
    featurizer.featurize(*retiled);
    EXPECT_EQ(featurizer.memoMisses(), misses + 1);
    EXPECT_EQ(featurizer.memoHits(), int64_t(retiled->kernels().size()) - 1);

    // Same features with and without the memo.
    Featurizer fresh(GpuSpec::load("v100"), false);
    const auto a = featurizer.featurize(*retiled);
    const auto b = fresh.featurize(*retiled);
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
        ASSERT_EQ(a[k]->size(), b[k]->size());
        for (size_t r = 0; r < a[k]->size(); ++r)
            EXPECT_EQ((*a[k])[r].features.values, (*b[k])[r].features.values);
    }
}

TEST(CostModel, TermsAreFiniteAndTheCoalescedScheduleIsCheaper) {
    auto dag = stencilChainDag(1);
    const StatePtr start = ScheduleState::initial(dag);
    const StatePtr coalesced = placeRest(rootTiled(start, "output", {32, 8}, {1, 1}));
    const StatePtr strided = placeRest(rootTiled(start, "output", {1, 32}, {1, 1}));
    Featurizer featurizer(GpuSpec::load("v100"));
    AnalyticalGpuCostModel model(GpuSpec::load("v100"));
    StateCost a, b;
    model.enqueue(*coalesced, featurizer.featurize(*coalesced), &a);
    model.enqueue(*strided, featurizer.featurize(*strided), &b);
    model.evaluateAll();
    for (const StateCost *c : {&a, &b}) {
        EXPECT_TRUE(std::isfinite(c->total));
        for (double t : c->terms)
            EXPECT_TRUE(std::isfinite(t) && t >= 0);
    }
    EXPECT_LT(a.total, b.total);
}
