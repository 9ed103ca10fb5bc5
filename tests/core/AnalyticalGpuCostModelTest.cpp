// AnalyticalGpuCostModel::kernelCosts on hand-made feature rows, against hand computations with
// the h100 preset (132 SMs x 2048 threads, 128 FP32 lanes per SM at 1.98 GHz, 3350 GB/s, 50 MiB
// of L2): the DRAM bytes of realizations that share the L2, a stage priced at its own
// parallelism, arithmetic that needs a quarter of the threads memory does, and a phase of a
// fused kernel run only by the blocks an SM holds at once.
#include "cost/AnalyticalGpuCostModel.h"
#include "cost/Featurizer.h"
#include "schedule/GpuSpec.h"

#include <gtest/gtest.h>

using namespace beamscope;

namespace {

using F = Feature;

constexpr double kH100Threads = 132.0 * 2048.0;
constexpr double kH100BytesPerSecond = 3350e9;
constexpr double kH100L2Bytes = 52428800.0;
constexpr double kH100OpsPerSecond = 132.0 * 128.0 * 1.98e9;
/// Threads that keep every FP32 lane issuing: 4 per lane (a dependent FMA issues 4 clocks on).
constexpr double kH100ArithmeticThreads = 132.0 * 128.0 * 4.0;

/// A stage that fills the device and asks nothing of it.
StageFeatureRow idleRow(int node) {
    StageFeatureRow row;
    row.node = node;
    row.stage = 0;
    row.features[F::inner_parallelism] = kH100Threads;
    row.features[F::num_threads_per_block] = 64; // 32 resident blocks: all 2048 threads of an SM
    row.features[F::num_realizations] = 1;
    row.features[F::warp_lane_utilization] = 1;
    return row;
}

/// A stage realized `realizations` times in the kernel, each reading `footprint` unique bytes
/// of global buffers `buffers` bytes large, and nothing else.
StageFeatureRow readingRow(int node, double realizations, double footprint, double buffers) {
    StageFeatureRow row = idleRow(node);
    row.features[F::num_realizations] = realizations;
    row.features[F::unique_global_bytes_read_per_realization] = footprint;
    row.features[F::global_allocation_bytes_read_per_realization] = buffers;
    return row;
}

double termMs(const std::vector<StageCost> &costs, int node, CostTerm term) {
    for (const StageCost &c : costs)
        if (c.node == node) return c.terms[size_t(term)];
    ADD_FAILURE() << "no cost for node " << node;
    return 0;
}

} // namespace

TEST(AnalyticalGpuCostModel, RealizationsSharingTheL2ReadTheirBuffersFromDramOnce) {
    // matmul's `prod` at the output's threads: 262,144 realizations each reading 80 KiB of two
    // 16 MiB matrices. They run side by side and the matrices fit in L2, so DRAM delivers the
    // 32 MiB once, not 20 GiB.
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    const KernelFeatures rows{idleRow(0), readingRow(1, 262144, 81920, 33554432)};
    const double expectedMs = 33554432.0 / kH100BytesPerSecond * 1e3;
    EXPECT_NEAR(termMs(model.kernelCosts(rows, 0), 1, CostTerm::Load), expectedMs, 1e-9);
}

TEST(AnalyticalGpuCostModel, ReReadsOfBuffersLargerThanTheL2MissInProportion) {
    // 1,000 realizations of 1 MB each over 100 MB of buffers: the 100 MB once, and of the other
    // 900 MB the share the L2 cannot hold, 1 - 52,428,800 / 100,000,000.
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    const KernelFeatures rows{idleRow(0), readingRow(1, 1000, 1e6, 1e8)};
    const double bytes = 1e8 + 9e8 * (1.0 - kH100L2Bytes / 1e8);
    EXPECT_NEAR(termMs(model.kernelCosts(rows, 0), 1, CostTerm::Load),
                bytes / kH100BytesPerSecond * 1e3, 1e-9);
    // A single realization (a root stage) reads its footprint, bounded or not.
    const KernelFeatures root{readingRow(0, 1, 4e6, 1e8)};
    EXPECT_NEAR(termMs(model.kernelCosts(root, 0), 0, CostTerm::Load),
                4e6 / kH100BytesPerSecond * 1e3, 1e-9);
}

TEST(AnalyticalGpuCostModel, AStageWithFewerThreadsThanTheKernelIsPricedAtItsOwnParallelism) {
    // A block-level histogram: its update keeps a tenth of the threads the FP32 lanes need busy
    // while the kernel's root keeps all of the device's; its arithmetic runs at a tenth of the
    // rate.
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    StageFeatureRow histogram = idleRow(1);
    histogram.features[F::points_computed_total] = 1e6;
    histogram.features[F::ops_per_point] = 64;
    const double fullRateMs = 1e6 * 64 / kH100OpsPerSecond * 1e3;
    EXPECT_NEAR(termMs(model.kernelCosts({idleRow(0), histogram}, 0), 1, CostTerm::Compute),
                fullRateMs, 1e-12);
    histogram.features[F::inner_parallelism] = kH100ArithmeticThreads / 10;
    EXPECT_NEAR(termMs(model.kernelCosts({idleRow(0), histogram}, 0), 1, CostTerm::Compute),
                10 * fullRateMs, 1e-12);
    // The kernel's root with that parallelism is slowed the same way, as before.
    StageFeatureRow root = histogram;
    root.node = 0;
    EXPECT_NEAR(termMs(model.kernelCosts({root}, 0), 0, CostTerm::Compute), 10 * fullRateMs, 1e-12);
}

TEST(AnalyticalGpuCostModel, ArithmeticNeedsAQuarterOfTheThreadsMemoryDoes) {
    // A stage with a quarter of the device's resident threads (512 per SM) computes at the FP32
    // peak, but reads at a quarter of the DRAM bandwidth: a load is in flight for hundreds of
    // clocks, an FMA's result is ready 4 clocks on.
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    StageFeatureRow arithmetic = idleRow(0);
    arithmetic.features[F::inner_parallelism] = kH100Threads / 4;
    arithmetic.features[F::points_computed_total] = 1e6;
    arithmetic.features[F::ops_per_point] = 64;
    EXPECT_NEAR(termMs(model.kernelCosts({arithmetic}, 0), 0, CostTerm::Compute),
                1e6 * 64 / kH100OpsPerSecond * 1e3, 1e-12);
    StageFeatureRow reading = readingRow(0, 1, 4e6, 4e6);
    reading.features[F::inner_parallelism] = kH100Threads / 4;
    EXPECT_NEAR(termMs(model.kernelCosts({reading}, 0), 0, CostTerm::Load),
                4 * 4e6 / kH100BytesPerSecond * 1e3, 1e-9);
}

TEST(AnalyticalGpuCostModel, APhaseRunsOnlyInTheBlocksAnSmHoldsAtOnce) {
    // A fused kernel: a producer phase 528 threads wide (17 warps, so 544 of the SM's 2048
    // threads: 3 blocks resident) and the root's phase of 64 threads per block. The root has
    // 558,272 threads in all, more than fill the device, but only 132 x 3 x 64 = 25,344 of them
    // run at once: its DRAM traffic at that share of the 270,336 threads memory needs.
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    StageFeatureRow producer = idleRow(1);
    producer.features[F::num_threads_per_block] = 528;
    StageFeatureRow root = readingRow(0, 1, 4e6, 4e6);
    root.features[F::inner_parallelism] = 558272;
    root.features[F::num_threads_per_block] = 64;
    const double fullRateMs = 4e6 / kH100BytesPerSecond * 1e3;
    EXPECT_NEAR(termMs(model.kernelCosts({root}, 0), 0, CostTerm::Load), fullRateMs, 1e-9);
    EXPECT_NEAR(termMs(model.kernelCosts({root, producer}, 0), 0, CostTerm::Load),
                fullRateMs * kH100Threads / (132.0 * 3 * 64), 1e-9);
    // Shared memory limits the resident blocks too: 100 KB per block leaves 2 of the SM's
    // 228 KB (233,472 bytes) for the same 64-thread phase, now in 64-thread blocks.
    StageFeatureRow sharedProducer = idleRow(1);
    sharedProducer.features[F::num_threads_per_block] = 64;
    sharedProducer.features[F::shared_bytes_at_task] = 100000;
    EXPECT_NEAR(termMs(model.kernelCosts({root, sharedProducer}, 0), 0, CostTerm::Load),
                fullRateMs * kH100Threads / (132.0 * 2 * 64), 1e-9);
}
