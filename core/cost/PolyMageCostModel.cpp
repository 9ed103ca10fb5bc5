// PolyMage-GPU's Algorithm 2, line by line, over one kernel's appendix-A feature rows.
#include "cost/PolyMageCostModel.h"

#include <algorithm>
#include <cmath>

namespace beamscope {

PolyMageWeights PolyMageWeights::v100() {
    return PolyMageWeights{50, 0.5, 60, 10, 2, 100, 1};
}

PolyMageWeights PolyMageWeights::gtx1080Ti() {
    return PolyMageWeights{50, 0.5, 45, 20, 2, 100, 1};
}

std::array<double, 7> PolyMageWeights::asArray() const {
    return {glTransactions,  occupancyLoss, memComputeRatio, unallocatedShared,
            unusedRegisters, overlap,       tailBlocks};
}

std::array<double, 7> PolyMageFactors::terms() const {
    const double ratio = computeTime > 0 ? memTime / computeTime : 0.0;
    return {glTransactions,  1.0 - occupancy, ratio,      unallocatedShared,
            unusedRegisters, overlap,         extraBlocks};
}

PolyMageCostModel::PolyMageCostModel(GpuSpec gpu, PolyMageWeights weights)
    : m_gpu(std::move(gpu)), m_weights(weights) {}

std::vector<std::string> PolyMageCostModel::termNames() const {
    return {"gl_transactions",  "occupancy_loss", "mem_compute_ratio", "unallocated_shared",
            "unused_registers", "overlap",        "tail_blocks"};
}

PolyMageFactors PolyMageCostModel::kernelFactors(const KernelFeatures &kernel, int rootNode) const {
    using F = Feature;
    PolyMageFactors r;
    if (kernel.empty()) return r;
    // The kernel's own row: its root stage (computed last, after the stages fused into it).
    const StageFeatures *root = &kernel.back().features;
    for (const StageFeatureRow &row : kernel) {
        if (row.node == rootNode) root = &row.features;
    }
    const StageFeatures &k = *root;
    const double warp = m_gpu.warpSize;
    const double maxWarps = m_gpu.maxWarpsPerSm;

    // Lines 5-9: warps per block, blocks, shared memory per block (every shared-memory tile of
    // the group: PolyMage's warp tile x warps x buffers).
    r.warpsPerBlock = std::max(1.0, k[F::num_warps_per_block]);
    r.blocks = std::max(1.0, k[F::num_blocks]);
    double maxThreadBytes = 0, strahler = 0, transactions = 0;
    double computed = 0, redundant = 0, iterTimes = 0;
    const double hz = m_gpu.clockGHz * 1e9;
    for (const StageFeatureRow &row : kernel) {
        const StageFeatures &f = row.features;
        r.sharedBytesPerBlock += f[F::shared_bytes_at_task];
        maxThreadBytes = std::max(maxThreadBytes, f[F::working_set_at_thread]);
        strahler += f[F::expr_branching];
        transactions += f[F::num_global_mem_loads_per_block];
        computed += f[F::points_computed_total];
        redundant += std::max(0.0, f[F::points_computed_total] - f[F::points_computed_minimum]);
        // Line 28: TIME_PER_ITER(H) x tileVol(H), one op per lane per cycle, per warp tile.
        const double tileVol = f[F::points_computed_total] / (r.blocks * r.warpsPerBlock);
        iterTimes += f[F::ops_per_point] / hz * tileVol;
    }
    // Line 20: register tile (register-stored bytes per thread) + sum of REG_USAGE(H), read as
    // each stage's Strahler number (the registers its expression tree needs).
    r.registersPerThread = std::ceil(maxThreadBytes / 4.0) + strahler;

    // Lines 18-19: blocks per SM as shared memory allows, and the warps they hold.
    const double smemPerSm = double(m_gpu.sharedMemoryPerSmBytes);
    r.maxBlocksPerSm =
        r.sharedBytesPerBlock > 0
            ? std::min(std::floor(smemPerSm / r.sharedBytesPerBlock), double(m_gpu.maxBlocksPerSm))
            : double(m_gpu.maxBlocksPerSm);
    r.maxBlocksPerSm = std::max(1.0, r.maxBlocksPerSm);
    const double shMemOcc = std::min(r.maxBlocksPerSm * r.warpsPerBlock, maxWarps);
    // Lines 22-24: warps per SM as registers allow; theoretical occupancy.
    const double maxThreads =
        std::min(std::floor(double(m_gpu.registersPerSm) / std::max(1.0, r.registersPerThread)),
                 double(m_gpu.maxThreadsPerSm));
    const double regOcc = std::floor(maxThreads / warp);
    r.occupancy = std::min(shMemOcc, regOcc) / maxWarps;

    // Lines 14-17: global load transactions of one warp.
    r.glTransactions = transactions / r.warpsPerBlock;
    // Lines 25-26: the DRAM bandwidth shared by all SMs, then by the warps an SM runs at once.
    const double warpBandwidth = m_gpu.globalMemoryBandwidthGBs * 1e9 * warp /
                                 (double(m_gpu.smCount) * m_gpu.fp32LanesPerSm);
    r.memTime = m_gpu.globalTransactionBytes * r.glTransactions / warpBandwidth;
    r.computeTime = iterTimes;
    // Lines 29-32: shared memory left unallocated, registers left unused, per SM.
    r.unallocatedShared = 1.0 - r.sharedBytesPerBlock * r.maxBlocksPerSm / smemPerSm;
    const double regPerSm = r.registersPerThread * maxWarps * warp;
    r.unusedRegisters = 1.0 - regPerSm * r.occupancy / double(m_gpu.registersPerSm);
    // Line 33: redundant (overlap) points over all points the group computes.
    r.overlap = computed > 0 ? redundant / computed : 0.0;
    // Line 34 (as the text explains it): the blocks of one SM (line 6) beyond a whole number of
    // concurrently resident rounds.
    const double blocksPerSm = std::ceil(r.blocks / double(m_gpu.smCount));
    r.extraBlocks = std::fmod(blocksPerSm, r.maxBlocksPerSm);
    return r;
}

void PolyMageCostModel::enqueue(const ScheduleState &state,
                                std::vector<std::shared_ptr<const KernelFeatures>> features,
                                StateCost *out) {
    Pending p{std::move(features), {}, out};
    for (const LoopNestPtr &k : state.kernels())
        p.kernelRoots.push_back(k->node);
    m_queue.push_back(std::move(p));
}

void PolyMageCostModel::evaluateAll() {
    const std::array<double, 7> w = m_weights.asArray();
    for (Pending &p : m_queue) {
        StateCost &out = *p.out;
        out = StateCost{};
        for (size_t k = 0; k < p.features.size(); ++k) {
            const KernelFeatures &kernel = *p.features[k];
            const int root = k < p.kernelRoots.size() ? p.kernelRoots[k] : -1;
            const std::array<double, 7> factors = kernelFactors(kernel, root).terms();
            // The kernel's score goes to its root stage; fused stages are listed with no terms.
            size_t rootIndex = out.stages.size() + kernel.size() - 1;
            for (const StageFeatureRow &row : kernel) {
                if (row.node == root) rootIndex = out.stages.size();
                StageCost sc;
                sc.node = row.node;
                sc.stage = row.stage;
                out.stages.push_back(sc);
            }
            if (kernel.empty()) continue;
            for (size_t t = 0; t < w.size(); ++t)
                out.stages[rootIndex].terms[t] = w[t] * factors[t];
        }
        out.addUpStages(); // terms past w.size() are zero
    }
    m_queue.clear();
}

} // namespace beamscope
