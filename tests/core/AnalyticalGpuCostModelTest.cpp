// AnalyticalGpuCostModel::kernelCosts on hand-made feature rows, against hand computations with
// the h100 preset (132 SMs x 2048 threads, 128 FP32 lanes per SM at 1.98 GHz, 3350 GB/s, 50 MiB
// of L2): the DRAM bytes of realizations that share the L2, a stage priced at its own
// parallelism, arithmetic that needs a quarter of the threads memory does, loads that wait their
// latency per round when too few warps hide it, a phase of a fused kernel run only by the
// blocks an SM holds at once, the L1's wavefronts served by the SMs that have blocks, a
// histogram's scattered bins at L2's request rate, load instructions in the schedulers' issue
// slots, and arithmetic and memory combined by their 3-norm.
#include "cost/AnalyticalGpuCostModel.h"
#include "cost/Featurizer.h"
#include "schedule/GpuSpec.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace beamscope;

namespace {

using F = Feature;

constexpr double kH100Threads = 132.0 * 2048.0;
constexpr double kH100BytesPerSecond = 3350e9;
constexpr double kH100L2Bytes = 52428800.0;
constexpr double kH100OpsPerSecond = 132.0 * 128.0 * 1.98e9;
/// Threads that keep every FP32 lane issuing: 4 per lane (a dependent FMA issues 4 clocks on).
constexpr double kH100ArithmeticThreads = 132.0 * 128.0 * 4.0;
/// A global load's latency: twice the one at which 8,448 warps of 128-byte loads just reach
/// the DRAM bandwidth (645.6 ns).
constexpr double kH100LoadLatencySeconds = 2.0 * (kH100Threads / 32) * 128.0 / kH100BytesPerSecond;

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

/// A root stage of `blocks` blocks of `threads` threads (64: 2 warps) reading `footprint`
/// bytes: each thread computes `rounds` points, one global load each, waiting for each in turn
/// (the featurizer counts the rounds: Featurizer tests).
StageFeatureRow loadingRow(int node, double blocks, double rounds, double footprint,
                           double threads = 64) {
    StageFeatureRow row = readingRow(node, 1, footprint, footprint);
    row.features[F::num_blocks] = blocks;
    row.features[F::num_threads_per_block] = threads;
    row.features[F::inner_parallelism] = blocks * threads;
    row.features[F::num_active_warps_per_block] = threads / 32;
    row.features[F::points_computed_per_thread] = rounds;
    row.features[F::num_global_mem_load_instructions_per_block] = 2 * rounds;
    row.features[F::global_mem_load_rounds_per_thread] = rounds;
    return row;
}

double termMs(const std::vector<StageCost> &costs, int node, CostTerm term) {
    for (const StageCost &c : costs)
        if (c.node == node) return c.terms[size_t(term)];
    ADD_FAILURE() << "no cost for node " << node;
    return 0;
}

/// A loading stage's load instructions in the schedulers' issue slots (4 warp instructions per
/// SM a clock), at the arithmetic's fill: `residentThreads` of the 67,584 that keep it busy.
double issueSeconds(double blocks, double instructionsPerBlock, double residentThreads) {
    return blocks * instructionsPerBlock / (132.0 * 4 * 1.98e9) /
           std::min(1.0, residentThreads / kH100ArithmeticThreads);
}

/// What a kernel of no arithmetic but its load instructions' issue takes: the 3-norm of that
/// and its memory time, in milliseconds; its Compute and Load terms add up to it.
double withIssueMs(double memorySeconds, double issue) {
    return std::cbrt(memorySeconds * memorySeconds * memorySeconds + issue * issue * issue) * 1e3;
}

double loadAndIssueMs(const std::vector<StageCost> &costs, int node) {
    return termMs(costs, node, CostTerm::Load) + termMs(costs, node, CostTerm::Compute);
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
    // peak; its loads, two rounds a warp, wait out their latency twice with too few warps to
    // hide it: 2 x 2,112 warps x 645.6 ns / 2,112 resident, longer than DRAM needs for the
    // bytes.
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    StageFeatureRow arithmetic = idleRow(0);
    arithmetic.features[F::inner_parallelism] = kH100Threads / 4;
    arithmetic.features[F::points_computed_total] = 1e6;
    arithmetic.features[F::ops_per_point] = 64;
    EXPECT_NEAR(termMs(model.kernelCosts({arithmetic}, 0), 0, CostTerm::Compute),
                1e6 * 64 / kH100OpsPerSecond * 1e3, 1e-12);
    const StageFeatureRow reading = loadingRow(0, kH100Threads / 4 / 64, 2, 4e6);
    EXPECT_NEAR(loadAndIssueMs(model.kernelCosts({reading}, 0), 0),
                withIssueMs(2 * kH100LoadLatencySeconds,
                            issueSeconds(kH100Threads / 4 / 64, 4, kH100Threads / 4)),
                1e-9);
}

TEST(AnalyticalGpuCostModel, ALoadWaitsItsLatencyPerRoundWhenTooFewWarpsHideIt) {
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    const double dramMs = 4e6 / kH100BytesPerSecond * 1e3;
    // Every thread the device holds, one round each: 8,448 warps wait one latency together,
    // shorter than DRAM takes for 4 MB, so the bandwidth bounds it. (Blocks of 256 threads, 8
    // an SM, start in 0.4 us: AKernelTakesAtLeastTheTimeItsSmsNeedToStartItsBlocks.)
    const double blocks = kH100Threads / 256;
    ASSERT_LT(kH100LoadLatencySeconds * 1e3, dramMs);
    EXPECT_NEAR(loadAndIssueMs(model.kernelCosts({loadingRow(0, blocks, 1, 4e6, 256)}, 0), 0),
                withIssueMs(dramMs / 1e3, issueSeconds(blocks, 2, kH100Threads)), 1e-12);
    // Four rounds per thread, one after the other.
    EXPECT_NEAR(loadAndIssueMs(model.kernelCosts({loadingRow(0, blocks, 4, 4e6, 256)}, 0), 0),
                withIssueMs(4 * kH100LoadLatencySeconds, issueSeconds(blocks, 8, kH100Threads)),
                1e-12);
    // Half of the rounds' sectors served by L1 (a tenth of the latency each): 4 x 0.55.
    StageFeatureRow walking = loadingRow(0, blocks, 4, 4e6, 256);
    walking.features[F::global_mem_load_l1_hit_rate] = 0.5;
    EXPECT_NEAR(
        loadAndIssueMs(model.kernelCosts({walking}, 0), 0),
        withIssueMs(4 * 0.55 * kH100LoadLatencySeconds, issueSeconds(blocks, 8, kH100Threads)),
        1e-12);
    // A block of 2 threads is a warp of its own: all 1,280 warps of 2 lanes are resident at
    // once and each waits the latency of its 64 rounds: however few its lanes and sectors, a
    // warp's round costs a latency (histogram_equalize's per-row histograms, whose RVar
    // iterations each read the bins the last one wrote).
    StageFeatureRow narrow = loadingRow(0, 1280, 64, 4e6);
    narrow.features[F::num_threads_per_block] = 2;
    narrow.features[F::inner_parallelism] = 2560;
    narrow.features[F::num_active_warps_per_block] = 1;
    // Its 128 load instructions a block issue at the fill of 2,560 threads: 4 us beside 41 us.
    EXPECT_NEAR(
        loadAndIssueMs(model.kernelCosts({narrow}, 0), 0),
        withIssueMs(1280.0 * 64 / 1280 * kH100LoadLatencySeconds, issueSeconds(1280, 128, 2560)),
        1e-12);
}

TEST(AnalyticalGpuCostModel, APhaseRunsOnlyInTheBlocksAnSmHoldsAtOnce) {
    // A fused kernel: a producer phase 528 threads wide (17 warps, so 544 of the SM's 2048
    // threads: 3 blocks resident) and the root's phase of 64 threads per block. The root has
    // 558,272 threads in all (8,723 blocks of 2 warps, three rounds of loads each), more than
    // fill the device, but only 132 x 3 x 64 = 25,344 of them, 792 warps, run at once: its
    // loads wait 3 x 17,446 / 792 latencies. Alone, 132 x 32 blocks are resident: 3 x 17,446 /
    // 8,448 (4.0 us, longer than its 67 blocks an SM take to start, 3.4 us).
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    StageFeatureRow producer = idleRow(1);
    producer.features[F::num_threads_per_block] = 528;
    const StageFeatureRow root = loadingRow(0, 8723, 3, 4e6);
    EXPECT_NEAR(loadAndIssueMs(model.kernelCosts({root}, 0), 0),
                withIssueMs(3 * 17446.0 / 8448 * kH100LoadLatencySeconds,
                            issueSeconds(8723, 6, kH100Threads)),
                1e-12);
    EXPECT_NEAR(
        loadAndIssueMs(model.kernelCosts({root, producer}, 0), 0),
        withIssueMs(3 * 17446.0 / 792 * kH100LoadLatencySeconds, issueSeconds(8723, 6, 25344)),
        1e-12);
    // Shared memory limits the resident blocks too: 100 KB per block leaves 2 of the SM's
    // 228 KB (233,472 bytes) for the same 64-thread phase, now in 64-thread blocks: 528 warps.
    StageFeatureRow sharedProducer = idleRow(1);
    sharedProducer.features[F::num_threads_per_block] = 64;
    sharedProducer.features[F::shared_bytes_at_task] = 100000;
    EXPECT_NEAR(
        loadAndIssueMs(model.kernelCosts({root, sharedProducer}, 0), 0),
        withIssueMs(3 * 17446.0 / 528 * kH100LoadLatencySeconds, issueSeconds(8723, 6, 16896)),
        1e-12);
}

TEST(AnalyticalGpuCostModel, TheL1ServesAKernelsWavefrontsOnTheSmsThatHaveBlocks) {
    // A scan's shape: blocks of one warp, each load instruction touching a line per lane
    // (lanes a row apart), one round of loads a thread. Each SM's L1 serves its own blocks'
    // wavefronts at 2 lines a clock however few warps wait on them; the wait is the latency,
    // priced once per round. 1e6 wavefronts a block take 1e6 / 2 clocks at 1.98 GHz.
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    const double wavefronts = 1e6;
    const auto scan = [&](double blocks) {
        StageFeatureRow row = idleRow(0);
        row.features[F::num_blocks] = blocks;
        row.features[F::num_threads_per_block] = 32;
        row.features[F::inner_parallelism] = blocks * 32;
        row.features[F::num_active_warps_per_block] = 1;
        row.features[F::num_global_mem_load_instructions_per_block] = 1;
        row.features[F::global_mem_load_rounds_per_thread] = 1;
        row.features[F::num_global_mem_load_wavefronts_per_block] = wavefronts;
        return row;
    };
    const double perBlockMs = wavefronts / 2 / 1.98e9 * 1e3;
    // The latency overlaps the L1's time; 1 % of the shorter side shows (kOverlapSlack).
    const double latencyMs = 0.01 * kH100LoadLatencySeconds * 1e3;
    // 33 blocks on 33 SMs: one block's time, not the 16x the arithmetic fill of 1,056 threads
    // (a quarter of the device's 67,584 FP32-filling threads, spread over 132 SMs) once made it.
    EXPECT_NEAR(loadAndIssueMs(model.kernelCosts({scan(33)}, 0), 0),
                withIssueMs((perBlockMs + latencyMs) / 1e3, issueSeconds(33, 1, 33 * 32)), 1e-9);
    // 264 blocks, two an SM: twice that.
    EXPECT_NEAR(loadAndIssueMs(model.kernelCosts({scan(264)}, 0), 0),
                withIssueMs((2 * perBlockMs + latencyMs) / 1e3, issueSeconds(264, 1, 264 * 32)),
                1e-9);
}

TEST(AnalyticalGpuCostModel, AKernelTakesAtLeastTheTimeItsSmsNeedToStartItsBlocks) {
    // A pointwise init, one 4-byte store a thread in blocks of 64: 245,760 blocks write 62.9 MB,
    // 18.8 us at DRAM's bandwidth, but 1,862 blocks an SM (245,760 / 132, rounded up) started
    // 100 clocks apart take 94.0 us at 1.98 GHz (the H200 ran nl_means' such init in 148 us).
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    const auto init = [](double blocks) {
        StageFeatureRow row = idleRow(0);
        row.features[F::num_blocks] = blocks;
        row.features[F::num_threads_per_block] = 64;
        row.features[F::inner_parallelism] = blocks * 64;
        row.features[F::num_realizations] = 1;
        row.features[F::bytes_at_realization] = blocks * 64 * 4;
        return row;
    };
    const auto kernelMs = [](const std::vector<StageCost> &costs) {
        double ms = 0;
        for (const StageCost &c : costs)
            ms += c.terms[size_t(CostTerm::Compute)] + c.terms[size_t(CostTerm::Load)] +
                  c.terms[size_t(CostTerm::Store)];
        return ms;
    };
    EXPECT_NEAR(kernelMs(model.kernelCosts({init(245760)}, 0)), 1862 * 100 / 1.98e9 * 1e3, 1e-9);
    // The same bytes from 3,840 blocks (30 an SM: 1.5 us to start), every thread the device
    // holds busy, take DRAM's time.
    StageFeatureRow wide = init(3840);
    wide.features[F::inner_parallelism] = kH100Threads;
    wide.features[F::bytes_at_realization] = 245760.0 * 64 * 4;
    EXPECT_NEAR(kernelMs(model.kernelCosts({wide}, 0)),
                245760.0 * 64 * 4 / kH100BytesPerSecond * 1e3, 1e-9);
}

TEST(AnalyticalGpuCostModel, AHistogramsScatteredBinsTakeL2sRequestRate) {
    // A root histogram's update: 4,224 one-warp blocks (all resident), 64 RVar iterations a
    // thread, each loading and storing the bin its pixel picks, a sector of its own: 2 x 32 x
    // 64 = 4,096 requests a block, 17.3 M in all, 67.2 us at 130 a clock and 1.98 GHz, however
    // few bytes they move. The loads' latency (64 rounds x 645.6 ns at full residency: 41.3 us)
    // and its 4 MB from DRAM (1.2 us, 1% of which shows) hide under them.
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    StageFeatureRow update = loadingRow(0, 4224, 64, 4e6, 32);
    update.stage = 1;
    update.features[F::num_global_mem_scattered_requests_per_block] = 2.0 * 32 * 64;
    const std::vector<StageCost> costs = model.kernelCosts({update}, 0);
    const double requests = 4224.0 * 4096 / (130.0 * 1.98e9);
    const double dram = 4e6 / kH100BytesPerSecond, latency = 64 * kH100LoadLatencySeconds;
    const double memory = requests + 0.01 * dram;
    // Its 128 load instructions a block issue in 0.5 us (all 135,168 threads resident).
    const double issue = issueSeconds(4224, 128, 4224 * 32);
    const double kernelMs = withIssueMs(memory, issue);
    EXPECT_NEAR(loadAndIssueMs(costs, 0) + termMs(costs, 0, CostTerm::Store), kernelMs, 1e-9);
    // The kernel's time goes to the terms by what each asks: half the requests are the bins'
    // stores.
    EXPECT_NEAR(termMs(costs, 0, CostTerm::Store),
                requests / 2 * memory / (dram + requests + latency) * kernelMs / (memory + issue),
                1e-9);
    // Without the scattered requests the same stage waits on its loads' latency alone.
    update.features[F::num_global_mem_scattered_requests_per_block] = 0;
    EXPECT_NEAR(loadAndIssueMs(model.kernelCosts({update}, 0), 0), withIssueMs(latency, issue),
                1e-9);
}

TEST(AnalyticalGpuCostModel, ALoadInstructionTakesAnIssueSlotFromTheArithmetic) {
    // 1e8 points of 64 FP32 ops fill the H100's 16,896 lanes for 0.19 ms at 1.98 GHz. On its
    // SMs of 128 lanes an FMA of every lane takes all four schedulers' clock, so 1,320 blocks
    // of 1,000 warp load instructions each (1.32 M, 10,000 an SM: 1.26 us at 4 a clock) add
    // their issue time to the arithmetic.
    const GpuSpec h100 = GpuSpec::load("h100");
    const AnalyticalGpuCostModel model(h100);
    StageFeatureRow stage = idleRow(0);
    stage.features[F::points_computed_total] = 1e8;
    stage.features[F::ops_per_point] = 64;
    stage.features[F::num_blocks] = 1320;
    const double arithmetic = 1e8 * 64 / kH100OpsPerSecond;
    EXPECT_NEAR(termMs(model.kernelCosts({stage}, 0), 0, CostTerm::Compute), arithmetic * 1e3,
                1e-12);
    stage.features[F::num_global_mem_load_instructions_per_block] = 1000;
    const double issue = 1320.0 * 1000 / (132.0 * 4 * 1.98e9);
    EXPECT_NEAR(termMs(model.kernelCosts({stage}, 0), 0, CostTerm::Compute),
                (arithmetic + issue) * 1e3, 1e-12);
    // An A100 SM has 64 FP32 lanes: the FMAs take two of its four schedulers' clocks, and loads
    // issue in the other two until they need more than half the arithmetic's time.
    const GpuSpec a100 = GpuSpec::load("a100");
    const AnalyticalGpuCostModel ampere(a100);
    const double a100Arithmetic = 1e8 * 64 / (108.0 * 64 * 1.41e9);
    const double a100Issue = 1320.0 * 1000 / (108.0 * 4 * 1.41e9);
    ASSERT_LT(a100Issue, a100Arithmetic / 2);
    EXPECT_NEAR(termMs(ampere.kernelCosts({stage}, 0), 0, CostTerm::Compute), a100Arithmetic * 1e3,
                1e-12);
    stage.features[F::num_global_mem_load_instructions_per_block] = 1000 * 1000;
    ASSERT_GT(1000 * a100Issue, a100Arithmetic / 2);
    EXPECT_NEAR(termMs(ampere.kernelCosts({stage}, 0), 0, CostTerm::Compute),
                (a100Arithmetic / 2 + 1000 * a100Issue) * 1e3, 1e-10);
}

TEST(AnalyticalGpuCostModel, ArithmeticAndMemoryCombineByTheirThreeNorm) {
    // A root stage whose arithmetic (1e6 points of 64 ops: 187 ns) and DRAM bytes (as many at
    // 3,350 GB/s) take equally long: the kernel takes 2^(1/3) of either, not the longer alone,
    // shared between the two terms by what each asks.
    const AnalyticalGpuCostModel model(GpuSpec::load("h100"));
    const double arithmetic = 1e6 * 64 / kH100OpsPerSecond;
    StageFeatureRow stage = readingRow(0, 1, arithmetic * kH100BytesPerSecond, 1e9);
    stage.features[F::points_computed_total] = 1e6;
    stage.features[F::ops_per_point] = 64;
    const std::vector<StageCost> costs = model.kernelCosts({stage}, 0);
    const double kernel = std::cbrt(2.0) * arithmetic;
    EXPECT_NEAR(termMs(costs, 0, CostTerm::Compute), kernel / 2 * 1e3, 1e-12);
    EXPECT_NEAR(termMs(costs, 0, CostTerm::Load), kernel / 2 * 1e3, 1e-12);
    // Ten times the bytes: the memory side almost alone, (1000 + 1)^(1/3) of the arithmetic.
    stage.features[F::unique_global_bytes_read_per_realization] *= 10;
    const std::vector<StageCost> memoryBound = model.kernelCosts({stage}, 0);
    EXPECT_NEAR(termMs(memoryBound, 0, CostTerm::Compute) + termMs(memoryBound, 0, CostTerm::Load),
                std::cbrt(1001.0) * arithmetic * 1e3, 1e-12);
}
