// PolyMageCostModel: Algorithm 2's seven factors on a hand-made kernel (every number worked out
// by hand below) and on a real featurized stencil kernel, and the state total they add up to.
#include "ScheduleTestUtil.h"

#include "cost/Featurizer.h"
#include "cost/PolyMageCostModel.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

StageFeatureRow row(int node, std::initializer_list<std::pair<Feature, double>> values) {
    StageFeatureRow r;
    r.node = node;
    r.stage = 0;
    for (const auto &[f, v] : values)
        r.features[f] = v;
    return r;
}

} // namespace

TEST(PolyMageCostModel, WeightsAreTable3) {
    const PolyMageWeights v = PolyMageWeights::v100();
    EXPECT_EQ(v.asArray(), (std::array<double, 7>{50, 0.5, 60, 10, 2, 100, 1}));
    const PolyMageWeights p = PolyMageWeights::gtx1080Ti();
    EXPECT_EQ(p.asArray(), (std::array<double, 7>{50, 0.5, 45, 20, 2, 100, 1}));
    EXPECT_EQ(PolyMageCostModel(GpuSpec::load("v100")).termNames(),
              (std::vector<std::string>{"gl_transactions", "occupancy_loss", "mem_compute_ratio",
                                        "unallocated_shared", "unused_registers", "overlap",
                                        "tail_blocks"}));
}

TEST(PolyMageCostModel, HandMadeKernelGivesTheHandComputedFactors) {
    using F = Feature;
    // A kernel of two stages: node 1 fused in shared memory into root node 2.
    KernelFeatures kernel;
    kernel.push_back(row(1, {{F::shared_bytes_at_task, 10000},
                             {F::working_set_at_thread, 8},
                             {F::expr_branching, 2},
                             {F::num_global_mem_loads_per_block, 96},
                             {F::points_computed_total, 160000},
                             {F::points_computed_minimum, 120000},
                             {F::ops_per_point, 6}}));
    kernel.push_back(row(2, {{F::num_warps_per_block, 4},
                             {F::num_blocks, 1000},
                             {F::num_threads_per_block, 128},
                             {F::working_set_at_thread, 40},
                             {F::expr_branching, 3},
                             {F::num_global_mem_loads_per_block, 64},
                             {F::points_computed_total, 128000},
                             {F::points_computed_minimum, 128000},
                             {F::ops_per_point, 10}}));
    const PolyMageCostModel model(GpuSpec::load("v100")); // 80 SMs, 96 KB shared/SM, 64K regs
    const PolyMageFactors f = model.kernelFactors(kernel, 2);

    // Lines 5-9: 4 warps, 1000 blocks, 10000 B of shared memory per block.
    EXPECT_DOUBLE_EQ(f.warpsPerBlock, 4);
    EXPECT_DOUBLE_EQ(f.sharedBytesPerBlock, 10000);
    // Line 20: ceil(40 B / 4) registers of register tile + Strahler 3 + 2 = 15.
    EXPECT_DOUBLE_EQ(f.registersPerThread, 15);
    // Line 18: min(floor(98304 / 10000) = 9, 32) = 9 blocks per SM.
    EXPECT_DOUBLE_EQ(f.maxBlocksPerSm, 9);
    // Lines 19-24: shared memory allows 9 x 4 = 36 warps; registers floor(65536 / 15) = 4369
    // threads, capped at 2048 = 64 warps; occupancy 36 / 64.
    EXPECT_DOUBLE_EQ(f.occupancy, 0.5625);
    // Line 17: (96 + 64) transactions per block / 4 warps = 40 per warp.
    EXPECT_DOUBLE_EQ(f.glTransactions, 40);
    // Lines 25-26: warp bandwidth 900e9 x 32 / (80 x 64) = 5.625e9 B/s; 32 B x 40 / that.
    EXPECT_NEAR(f.memTime, 1280.0 / 5.625e9, 1e-20);
    // Line 28: per warp tile, 6 ops x 160000 / 4000 + 10 ops x 128000 / 4000 = 560 cycles.
    EXPECT_NEAR(f.computeTime, 560.0 / 1.53e9, 1e-20);
    // Line 30: 1 - 10000 x 9 / 98304.
    EXPECT_NEAR(f.unallocatedShared, 1.0 - 90000.0 / 98304.0, 1e-15);
    // Line 32: 1 - 15 x 64 x 32 x 0.5625 / 65536 = 1 - 17280 / 65536.
    EXPECT_NEAR(f.unusedRegisters, 0.736328125, 1e-15);
    // Line 33: 40000 redundant points of 288000 computed.
    EXPECT_NEAR(f.overlap, 40000.0 / 288000.0, 1e-15);
    // Line 34: ceil(1000 / 80) = 13 blocks per SM, 13 mod 9 = 4 beyond whole rounds.
    EXPECT_DOUBLE_EQ(f.extraBlocks, 4);

    const std::array<double, 7> terms = f.terms();
    const std::array<double, 7> expected = {40,
                                            1 - 0.5625,
                                            (1280.0 * 1.53) / (5.625 * 560.0),
                                            1.0 - 90000.0 / 98304.0,
                                            0.736328125,
                                            40000.0 / 288000.0,
                                            4};
    for (size_t t = 0; t < 7; ++t)
        EXPECT_NEAR(terms[t], expected[t], 1e-12) << "term " << t;
    // The memory/compute ratio worked out: 1958.4 / 3150.
    EXPECT_NEAR(terms[2], 0.62171428571, 1e-10);
}

TEST(PolyMageCostModel, FeaturizedSharedMemoryKernel) {
    // stencil chain of length 1: stage_1 at root (32x8 threads), stage_0 in shared memory at its
    // blocks; output in its own kernel.
    auto dag = stencilChainDag(1);
    StatePtr state = ScheduleState::initial(dag);
    state = rootTiled(state, "output", {32, 8}, {1, 1});
    state = rootTiled(state, "stage_1", {32, 8}, {1, 1});
    state = state->withBlock(dag->find("stage_0"), dag->find("stage_1"), {1, 1});
    state = placeRest(state);
    const GpuSpec gpu = GpuSpec::load("v100");
    Featurizer featurizer(gpu, false);
    const auto kernels = featurizer.featurize(*state);
    const int stage0 = dag->find("stage_0"), stage1 = dag->find("stage_1");
    const KernelFeatures *fused = nullptr;
    for (const auto &k : kernels) {
        if (k->size() == 2) fused = k.get();
    }
    ASSERT_NE(fused, nullptr);
    using F = Feature;
    const StageFeatures *s0 = nullptr, *s1 = nullptr;
    for (const StageFeatureRow &r : *fused)
        (r.node == stage0 ? s0 : s1) = &r.features;
    ASSERT_TRUE(s0 && s1);

    PolyMageCostModel model(gpu);
    const PolyMageFactors f = model.kernelFactors(*fused, stage1);
    // 1536/32 x 2560/8 = 48 x 320 blocks. A block's threads are those of its widest stage:
    // stage_0's 36x12 tile takes 432 threads (stage_1 uses 256 of them), 14 warps. The 36x12
    // float tile of stage_0 is the only shared allocation (1728 B).
    EXPECT_DOUBLE_EQ(f.blocks, 15360);
    EXPECT_DOUBLE_EQ(f.warpsPerBlock, 14);
    EXPECT_DOUBLE_EQ(f.sharedBytesPerBlock, 1728);
    // min(floor(98304 / 1728) = 56, 32) = 32 blocks: 448 warps, capped at 64.
    EXPECT_DOUBLE_EQ(f.maxBlocksPerSm, 32);
    // Registers: one float per thread (4 B) plus the two stages' Strahler numbers, far below
    // the 32 per thread that 2048 threads may use: occupancy 1.
    const double regs = 1 + (*s0)[F::expr_branching] + (*s1)[F::expr_branching];
    ASSERT_LE(regs, 32);
    EXPECT_DOUBLE_EQ(f.registersPerThread, regs);
    EXPECT_DOUBLE_EQ(f.occupancy, 1.0);
    EXPECT_NEAR(f.unusedRegisters, 1.0 - regs / 32.0, 1e-15);
    EXPECT_NEAR(f.unallocatedShared, 1.0 - 1728.0 * 32 / 98304.0, 1e-15);
    // stage_0 computes 36x12 per block over 15360 blocks against 1540x2564 needed; stage_1
    // computes exactly its 1536x2560.
    const double s0Total = 432.0 * 15360, s0Min = 1540.0 * 2564, s1Total = 1536.0 * 2560;
    EXPECT_NEAR(f.overlap, (s0Total - s0Min) / (s0Total + s1Total), 1e-15);
    // 15360 / 80 = 192 blocks per SM = 6 whole rounds of 32.
    EXPECT_DOUBLE_EQ(f.extraBlocks, 0);
    // stage_1 reads only shared memory; stage_0's global loads per warp.
    EXPECT_DOUBLE_EQ((*s1)[F::num_global_mem_loads_per_block], 0);
    EXPECT_DOUBLE_EQ(f.glTransactions, (*s0)[F::num_global_mem_loads_per_block] / 14);
    const double warpTime = 32 * f.glTransactions / (900e9 * 32 / (80 * 64));
    const double computeTime =
        ((*s0)[F::ops_per_point] * s0Total + (*s1)[F::ops_per_point] * s1Total) / (15360.0 * 14) /
        1.53e9;
    EXPECT_NEAR(f.memTime / warpTime, 1.0, 1e-12);
    EXPECT_NEAR(f.computeTime / computeTime, 1.0, 1e-12);

    // Through the CostModel interface: the kernel's weighted terms sit on stage_1; the state's
    // total is the sum over kernels of the weighted sums.
    StateCost cost;
    model.enqueue(*state, kernels, &cost);
    model.evaluateAll();
    const std::array<double, 7> w = PolyMageWeights::v100().asArray();
    const std::array<double, 7> factors = f.terms();
    double total = 0;
    for (const auto &k : kernels) {
        const int root = k->back().node;
        const std::array<double, 7> kt = model.kernelFactors(*k, root).terms();
        for (size_t t = 0; t < 7; ++t)
            total += w[t] * kt[t];
    }
    EXPECT_NEAR(cost.total, total, 1e-9 * total);
    for (const StageCost &sc : cost.stages) {
        if (sc.node == stage1) {
            for (size_t t = 0; t < 7; ++t)
                EXPECT_NEAR(sc.terms[t], w[t] * factors[t], 1e-12) << t;
        } else if (sc.node == stage0) {
            EXPECT_EQ(sc.total(), 0.0);
        }
    }
    EXPECT_EQ(cost.terms[7], 0.0);
}
