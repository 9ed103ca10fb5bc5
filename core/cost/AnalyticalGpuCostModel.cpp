// The appendix-B cost formula, term by term, with GpuSpec-derived coefficients.
#include "cost/AnalyticalGpuCostModel.h"

#include "cost/SummedStageCost.h"

#include <algorithm>
#include <cmath>

namespace beamscope {

const char *costTermName(CostTerm t) {
    static const char *const names[] = {"compute",     "load",        "store",
                                        "parallelism", "working_set", "malloc"};
    return names[size_t(t)];
}

std::vector<std::string> analyticTermNames() {
    std::vector<std::string> names;
    for (size_t t = 0; t < kCostTerms; ++t)
        names.push_back(costTermName(CostTerm(t)));
    return names;
}

double StageCost::total() const {
    double sum = 0;
    for (double t : terms)
        sum += t;
    return sum;
}

CostTerms StateCost::termsOfStages(size_t first, size_t count) const {
    CostTerms sums{};
    for (size_t s = first; s < first + count; ++s) {
        for (size_t t = 0; t < kMaxCostTerms; ++t)
            sums[t] += stages[s].terms[t];
    }
    return sums;
}

double StateCost::totalOf(const CostTerms &terms) {
    double total = 0;
    for (double t : terms)
        total += t;
    return total;
}

void StateCost::addUpStages() {
    terms = termsOfStages(0, stages.size());
    total = totalOf(terms);
}

namespace {
/// Clocks between dependent FP32 instructions of one warp (Volta to Hopper).
constexpr double kArithmeticLatencyClocks = 4.0;
/// A global load's latency over the one at which full occupancy just reaches the bandwidth.
constexpr double kLoadLatencyOverBandwidthMatch = 2.0;
/// Clocks an SM takes to start each block of a kernel, one after another: a kernel of many
/// small blocks runs no faster than its blocks per SM at this pace, however little each does.
/// Fitted to the H200's 7,759 kernels timed at 5 us or more (CUPTI): the spread of their
/// measured time over the price, median absolute deviation of its log, is 0.351 with no such
/// floor, 0.351 / 0.266 / 0.240 / 0.261 / 0.312 at 50 / 75 / 100 / 125 / 150 clocks; a cost per
/// warp of the block on top fits worse (docs/design-notes.md, "Blocks start one after another").
constexpr double kBlockStartClocks = 100.0;
/// Requests for lone sectors L2 serves per clock, device-wide. Fitted to the H200's root
/// histograms (CUPTI): bilateral_grid's 17-21 M bin loads and stores, a sector each, ran in
/// 80-97 us (90-125 a clock alone); over its 11 and bgu's 11 such kernels, mean |log(measured /
/// price)| is 0.324 / 0.204 / 0.147 / 0.170 / 0.207 at 90 / 110 / 130 / 150 / 170 a clock
/// (docs/design-notes.md, "Histograms at the root").
constexpr double kL2RequestsPerClock = 130.0;
/// Every NVIDIA SM since Volta has four warp schedulers, each issuing one warp instruction a
/// clock: an FP32 FMA of every lane on an SM of 128 lanes (Hopper, Ada) takes all four, so a
/// load instruction takes a clock from the arithmetic (docs/design-notes.md, "Loads take issue
/// slots").
constexpr double kWarpSchedulersPerSm = 4.0;
} // namespace

AnalyticalCoefficients AnalyticalCoefficients::fromGpu(const GpuSpec &gpu) {
    const double hz = gpu.clockGHz * 1e9;
    const double dram = gpu.globalMemoryBandwidthGBs * 1e9;
    AnalyticalCoefficients c;
    c.secondsPerOp = 1.0 / (double(gpu.smCount) * gpu.fp32LanesPerSm * hz);
    c.secondsPerIssue = 1.0 / (double(gpu.smCount) * kWarpSchedulersPerSm * hz);
    c.dramSecondsPerByte = 1.0 / dram;
    c.l2SecondsPerByte = 1.0 / (5.0 * dram);
    c.l2SecondsPerRequest = 1.0 / (kL2RequestsPerClock * hz);
    c.sharedSecondsPerWavefront = 1.0 / (double(gpu.smCount) * hz);
    c.launchSeconds = gpu.kernelLaunchOverheadUs * 1e-6;
    c.blockStartSeconds = kBlockStartClocks / hz;
    c.spillSecondsPerByte = 4.0 / (5.0 * dram);
    c.registerBudgetBytes = gpu.registersPerThreadMax * 4;
    c.threadsToFill = double(gpu.smCount) * gpu.maxThreadsPerSm;
    // The latency at which full warps of coalesced 4-byte loads (128 bytes a warp) at full
    // occupancy would just reach DRAM's bandwidth, doubled: loaded latencies run longer (the
    // factor was fitted on the H100 rows, docs/design-notes.md).
    c.loadLatencySeconds =
        kLoadLatencyOverBandwidthMatch * c.threadsToFill / std::max(1, gpu.warpSize) * 128.0 / dram;
    // A dependent FP32 instruction issues about 4 clocks after the one it waits on, so a lane
    // issues every clock once 4 threads take turns on it: the arithmetic peak needs a quarter
    // of the threads an SM holds on an H100 (512 of 2048), where memory latency needs them all.
    c.threadsToFillArithmetic = std::min(c.threadsToFill, double(gpu.smCount) * gpu.fp32LanesPerSm *
                                                              kArithmeticLatencyClocks);
    return c;
}

AnalyticalGpuCostModel::AnalyticalGpuCostModel(GpuSpec gpu)
    : m_gpu(std::move(gpu)), m_c(AnalyticalCoefficients::fromGpu(m_gpu)) {}

namespace {

/// The share of the shorter of two overlapped times that still shows (see kernelCosts).
constexpr double kOverlapSlack = 0.01;
/// Arithmetic and memory overlap imperfectly: the kernel takes the 3-norm of the two, 1.26x the
/// longer when they are equal, the longer alone when one dominates (docs/design-notes.md,
/// "Loads take issue slots": 3 ranked the validation pipelines best of 2, 3, 4 and 6).
constexpr double kComputeMemoryNorm = 3.0;
/// An L1 hit's latency over a miss's (tens of clocks against hundreds).
constexpr double kL1HitLatencyShare = 0.1;
/// Lines of global loads an SM's L1 serves per clock. One was too few for the rows measured:
/// matmul's and conv_layer's kernels ran 1.2-1.35 lines per clock on the H100 by this count;
/// 2 ranked both GPUs' rows best of 1, 2, 3 and 4 (docs/design-notes.md, "L1 wavefronts of
/// global loads").
constexpr double kL1LinesPerClock = 2.0;

/// What one stage asks of the machine: arithmetic time and bytes moved, by level and direction.
struct StageDemand {
    double compute = 0; ///< seconds at the FP32 peak over the lanes a warp keeps busy
    double dramLoad = 0, dramStore = 0; ///< compulsory global bytes read, and written by the root
    double l2Load = 0, l2Store = 0;     ///< global sectors moved through L2, in bytes
    double l2Requests = 0; ///< seconds of lone sectors' requests (a scattering update's bins)
    double sharedLoad = 0, sharedStore = 0; ///< seconds of shared-memory wavefronts
    double l1Load = 0;      ///< seconds of L1 wavefronts of global loads (hits and misses alike)
    double loadLatency = 0; ///< seconds the warps wait on global loads when too few of them
};

/// Bytes a stage reads from DRAM. Each realization's footprint is compulsory, but the
/// realizations of one kernel (a block's or a thread's) run side by side and share the L2: what
/// one re-reads of another's inputs is an L2 hit while the buffers read fit in it. So the sum
/// over realizations is bounded by the buffers' size, plus the re-reads in proportion to the
/// part of the buffers the L2 cannot hold. (Without this, matmul's `prod` in registers at the
/// output's threads was charged 21 GB, 640x the 34 MB of its two matrices.)
double dramBytesRead(const StageFeatures &f, const GpuSpec &gpu) {
    using F = Feature;
    const double perRealization = f[F::unique_global_bytes_read_per_realization];
    const double total = f[F::num_realizations] * perRealization;
    const double buffers =
        std::max(f[F::global_allocation_bytes_read_per_realization], perRealization);
    if (total <= buffers) return total; // also every stage that reads nothing: buffers > 0 below
    const double missing = std::max(0.0, 1.0 - double(gpu.l2CacheBytes) / buffers);
    return buffers + (total - buffers) * missing;
}

/// Blocks of a kernel one SM holds at once: a block is as wide as its widest phase (every
/// stage's threads in it run in the same block, the others idle at the barriers) and holds the
/// shared memory of all its stages; the SM's thread, block and shared-memory limits decide.
double residentBlocksPerSm(const KernelFeatures &rows, const GpuSpec &gpu) {
    using F = Feature;
    double widest = 1, shared = 0;
    for (const StageFeatureRow &row : rows) {
        // The block Halide launches (num_warps_per_block: every phase's threads per dimension),
        // at least as wide as any one phase.
        widest = std::max({widest, row.features[F::num_threads_per_block],
                           row.features[F::num_warps_per_block] * gpu.warpSize});
        shared += row.features[F::shared_bytes_at_task];
    }
    return std::max(1, gpu.residentBlocksPerSm(int(std::ceil(widest)), std::llround(shared)));
}

/// The share of the threads that hide a latency (threadsToFill: memory's; threadsToFillArithmetic:
/// the FP32 pipeline's) a stage keeps busy. A stage inside a kernel runs as a phase of its own
/// between barriers, with only its own threads (a block-level histogram's 64 of the block's
/// 1024), so it is priced at its own parallelism, not the kernel root's; and only the blocks
/// resident at once run it: `residentThreads` (see kernelCosts).
double stageFill(double residentThreads, double threadsToFill) {
    return std::clamp(residentThreads / threadsToFill, 1e-3, 1.0);
}

StageDemand demandOf(const StageFeatures &f, bool isRoot, double residentThreads,
                     const AnalyticalCoefficients &c, const GpuSpec &gpu) {
    using F = Feature;
    StageDemand d;
    d.compute = f[F::points_computed_total] * f[F::ops_per_point] * c.secondsPerOp;
    // A warp with idle lanes issues at the rate of a full one (stages with inlined calls are
    // priced as written: their lanes follow the consumer's).
    if (f[F::inlined_calls] <= 0) d.compute /= std::max(0.05, f[F::warp_lane_utilization]);
    // The schedulers issue the arithmetic and the global loads alike, one warp instruction each
    // a clock. An SM of 128 FP32 lanes issues an FMA of every lane each clock, so its loads
    // add to its arithmetic; one of 64 (Volta, the A100) issues loads in the arithmetic's spare
    // clocks.
    const double arithmeticIssue =
        d.compute * gpu.fp32LanesPerSm / (kWarpSchedulersPerSm * std::max(1, gpu.warpSize));
    const double loadIssue =
        f[F::num_blocks] * f[F::num_global_mem_load_instructions_per_block] * c.secondsPerIssue;
    d.compute = std::max(d.compute, arithmeticIssue + loadIssue);
    d.dramLoad = dramBytesRead(f, gpu);
    if (isRoot) d.dramStore = f[F::num_realizations] * f[F::bytes_at_realization];
    // What reaches the SMs from L2: the sectors the warps load, and at least each block's whole
    // input footprint (its tile and halo), which smaller tiles pay again and again.
    d.l2Load = std::max(f[F::num_blocks] * f[F::num_global_mem_loads_per_block] *
                            gpu.globalTransactionBytes,
                        f[F::num_tasks] * f[F::unique_bytes_read_per_task]);
    d.l2Store =
        f[F::num_blocks] * f[F::num_global_mem_stores_per_block] * gpu.globalTransactionBytes;
    // A histogram's scattered bins: L2 takes a request per sector, at its request rate.
    d.l2Requests = f[F::num_blocks] * f[F::num_global_mem_scattered_requests_per_block] *
                   c.l2SecondsPerRequest;
    // Shared memory serves one wavefront (every bank once) per SM per clock; the features count
    // wavefronts with their bank conflicts. An update kept in shared memory with a rolled serial
    // loop pays a load and a store per RVar iteration here (Featurizer: stores).
    d.sharedLoad =
        f[F::num_blocks] * f[F::num_shared_mem_loads_per_block] * c.sharedSecondsPerWavefront;
    d.sharedStore =
        f[F::num_blocks] * f[F::num_shared_mem_stores_per_block] * c.sharedSecondsPerWavefront;
    // Global loads pass through the same L1 data path, a wavefront per line an instruction
    // touches: a stencil's taps, each its own instruction, or lanes a column apart (a transpose,
    // a gather by x / 8 with 8 points a thread along x) cost it however few sectors L2 sends.
    d.l1Load = f[F::num_blocks] * f[F::num_global_mem_load_wavefronts_per_block] *
               c.sharedSecondsPerWavefront / kL1LinesPerClock;
    // A stage with fewer threads than hide a latency runs at that fraction of its rate: its
    // arithmetic below 4 threads per FP32 lane (a quarter of an H100's).
    d.compute /= stageFill(residentThreads, c.threadsToFillArithmetic);
    const double slowdown = 1.0 / stageFill(residentThreads, c.threadsToFill);
    // Stores drain without stalling a warp; below every thread the device holds they move at
    // that fraction of the bandwidth.
    for (double *x : {&d.dramStore, &d.l2Store})
        *x *= slowdown;
    // Loads stall: a warp waits a latency for each round of its loads, however many lanes and
    // sectors the round has, the loads of a round (its unrolled points, their calls, and a few
    // iterations of a rolled loop that does not read what it wrote) issued together
    // (Featurizer: loadRounds). Too few warps to hide it take rounds x latency / resident warps
    // (Little's law), an L1 hit a tenth of that; enough of them reach the bandwidth (dramLoad,
    // l2Load, unslowed).
    if (f[F::num_global_mem_load_instructions_per_block] > 0) {
        const double rounds = f[F::num_blocks] * f[F::num_active_warps_per_block] *
                              std::max(1.0, f[F::global_mem_load_rounds_per_thread]);
        const double hits = f[F::global_mem_load_l1_hit_rate];
        const double warpsPerThread =
            f[F::num_active_warps_per_block] / std::max(1.0, f[F::num_threads_per_block]);
        const double residentWarps = std::max(1.0, residentThreads * warpsPerThread);
        d.loadLatency = rounds * (1.0 - hits + kL1HitLatencyShare * hits) * c.loadLatencySeconds /
                        residentWarps;
    }
    const double onChip = 1.0 / stageFill(residentThreads, c.threadsToFillArithmetic);
    for (double *x : {&d.sharedLoad, &d.sharedStore})
        *x *= onChip;
    // Each SM's L1 serves its own blocks' wavefronts, however few warps wait on them (a warp's
    // uncoalesced load keeps it busy for all its lines; the wait itself is loadLatency): the
    // wavefronts take their time over the SMs that have blocks, not at the arithmetic fill.
    // (Scaled by the fill, a scan's 33 one-warp blocks were priced at 16x the L1's time, 3x
    // what the H200 measured; docs/design-notes.md, "The L1 serves its own SM's wavefronts".)
    d.l1Load *=
        double(gpu.smCount) / std::clamp(f[F::num_blocks], 1.0, double(std::max(1, gpu.smCount)));
    return d;
}

} // namespace

std::vector<StageCost> AnalyticalGpuCostModel::kernelCosts(const KernelFeatures &rows,
                                                           int rootNode) const {
    using F = Feature;
    std::vector<StageDemand> demands;
    StageDemand sum;
    const double residentBlocks = residentBlocksPerSm(rows, m_gpu);
    for (const StageFeatureRow &row : rows) {
        const bool isRoot = row.node == rootNode;
        // The stage's threads that run at once: all of them, or its part of every resident
        // block (a 64-thread phase of a 528-thread block runs 3 x 64 threads per SM of 2048).
        const double residentThreads =
            std::min(row.features[F::inner_parallelism],
                     double(m_gpu.smCount) * residentBlocks *
                         std::max(1.0, row.features[F::num_threads_per_block]));
        demands.push_back(demandOf(row.features, isRoot, residentThreads, m_c, m_gpu));
        const StageDemand &d = demands.back();
        sum.compute += d.compute;
        sum.dramLoad += d.dramLoad;
        sum.dramStore += d.dramStore;
        sum.l2Load += d.l2Load;
        sum.l2Store += d.l2Store;
        sum.l2Requests += d.l2Requests;
        sum.sharedLoad += d.sharedLoad;
        sum.sharedStore += d.sharedStore;
        sum.l1Load += d.l1Load;
        sum.loadLatency += d.loadLatency;
    }
    // The roofline: memory is bound by DRAM bytes or by L2 sectors, whichever takes longer, or
    // by the loads' latency when too few warps wait on them, and 1% of the shorter side of each
    // shows (this keeps schedules that differ only in the shorter side apart, which the search
    // needs). Arithmetic and memory overlap, but not wholly: the kernel takes their norm
    // (kComputeMemoryNorm), which also keeps them apart. Each stage's demand already carries
    // its own parallelism (demandOf).
    const auto overlapped = [](double a, double b) {
        return std::max(a, b) + kOverlapSlack * std::min(a, b);
    };
    const auto normOf = [](double a, double b) {
        return std::pow(std::pow(a, kComputeMemoryNorm) + std::pow(b, kComputeMemoryNorm),
                        1.0 / kComputeMemoryNorm);
    };
    const double dramSeconds = (sum.dramLoad + sum.dramStore) * m_c.dramSecondsPerByte;
    // L2 serves the coalesced sectors at its bandwidth and the lone ones at its request rate.
    const double l2Seconds = (sum.l2Load + sum.l2Store) * m_c.l2SecondsPerByte + sum.l2Requests;
    // Shared memory and L1 are one unified storage with one data path per SM.
    const double sharedSeconds = sum.sharedLoad + sum.sharedStore + sum.l1Load;
    const double memorySeconds =
        overlapped(std::max(overlapped(dramSeconds, l2Seconds), sum.loadLatency), sharedSeconds);
    // No faster than the SMs start its blocks: too many blocks for their work (a pointwise
    // store of one point a thread in 64-thread blocks) take the time of starting them.
    double rootBlocks = 1;
    for (const StageFeatureRow &row : rows)
        if (row.node == rootNode) rootBlocks = std::max(rootBlocks, row.features[F::num_blocks]);
    const double startSeconds =
        std::ceil(rootBlocks / double(std::max(1, m_gpu.smCount))) * m_c.blockStartSeconds;
    const double kernelSeconds = std::max(normOf(sum.compute, memorySeconds), startSeconds);
    const double demandSeconds = sum.compute + memorySeconds;
    const double scale = demandSeconds > 0 ? kernelSeconds / demandSeconds : 0.0;
    // Each stage's part of the memory time: its bytes at each level, weighted by their speed.
    const auto memoryWeight = [&](double dram, double l2, double shared) {
        return dram * m_c.dramSecondsPerByte + l2 * m_c.l2SecondsPerByte + shared;
    };
    const double memoryWeights = dramSeconds + l2Seconds + sharedSeconds + sum.loadLatency;

    std::vector<StageCost> costs;
    for (size_t i = 0; i < rows.size(); ++i) {
        const StageFeatures &f = rows[i].features;
        const StageDemand &d = demands[i];
        StageCost cost;
        cost.node = rows[i].node;
        cost.stage = rows[i].stage;
        auto term = [&](CostTerm t) -> double & { return cost.terms[size_t(t)]; };
        // The kernel's time, shared among its stages in proportion to what each asks for.
        term(CostTerm::Compute) = d.compute * scale;
        if (memoryWeights > 0) {
            const double perWeight = memorySeconds / memoryWeights * scale;
            // A scattered bin's requests are half loads, half stores.
            term(CostTerm::Load) = (memoryWeight(d.dramLoad, d.l2Load, d.sharedLoad + d.l1Load) +
                                    d.loadLatency + 0.5 * d.l2Requests) *
                                   perWeight;
            term(CostTerm::Store) =
                (memoryWeight(d.dramStore, d.l2Store, d.sharedStore) + 0.5 * d.l2Requests) *
                perWeight;
        }
        const bool isRoot = rows[i].node == rootNode;
        term(CostTerm::Parallelism) =
            isRoot && f[F::inner_parallelism] > 1 ? f[F::num_productions] * m_c.launchSeconds : 0.0;
        // Registers beyond the budget spill to local memory, every point of every thread.
        const double excess = std::max(0.0, f[F::working_set_at_thread] - m_c.registerBudgetBytes);
        term(CostTerm::WorkingSet) = f[F::inner_parallelism] * excess * m_c.spillSecondsPerByte *
                                     f[F::points_computed_per_thread];
        term(CostTerm::Malloc) = 0.0;
        for (double &t : cost.terms)
            t *= 1e3; // seconds -> milliseconds
        costs.push_back(cost);
    }
    return costs;
}

void AnalyticalGpuCostModel::enqueue(const ScheduleState &state,
                                     std::vector<std::shared_ptr<const KernelFeatures>> features,
                                     StateCost *out) {
    Pending p{std::move(features), {}, out};
    for (const LoopNestPtr &k : state.kernels())
        p.kernelRoots.push_back(k->node);
    m_queue.push_back(std::move(p));
}

void AnalyticalGpuCostModel::evaluateAll() {
    const SummedCoefficients summed = SummedCoefficients::fromGpu(m_gpu);
    for (Pending &p : m_queue) {
        StateCost &out = *p.out;
        out = StateCost{};
        for (size_t k = 0; k < p.features.size(); ++k) {
            if (m_gpu.storesWriteBack) {
                // A CPU's OpenCL device: the summed terms (see SummedStageCost.h).
                for (const StageFeatureRow &row : *p.features[k])
                    out.stages.push_back(
                        summedStageCost(row, row.node == p.kernelRoots[k], summed, m_gpu));
                continue;
            }
            for (StageCost &c : kernelCosts(*p.features[k], p.kernelRoots[k]))
                out.stages.push_back(c);
        }
        out.addUpStages();
    }
    m_queue.clear();
}

} // namespace beamscope
