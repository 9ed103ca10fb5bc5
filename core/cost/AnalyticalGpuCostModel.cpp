// The appendix-B cost formula, term by term, with GpuSpec-derived coefficients.
#include "cost/AnalyticalGpuCostModel.h"

#include <algorithm>
#include <cmath>

namespace beamscope {

const char *costTermName(CostTerm t) {
    static const char *const names[] = {"compute", "load", "store", "parallelism", "working_set", "malloc"};
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
    for (double t : terms) sum += t;
    return sum;
}

AnalyticalCoefficients AnalyticalCoefficients::fromGpu(const GpuSpec &gpu) {
    const double hz = gpu.clockGHz * 1e9;
    const double dram = gpu.globalMemoryBandwidthGBs * 1e9;
    const double l2 = 3.0 * dram;
    const double shared = double(gpu.smCount) * gpu.sharedMemoryBanks * gpu.sharedBankWidthBytes * hz;
    const double registers = double(gpu.smCount) * gpu.fp32LanesPerSm * 3.0 * 4.0 * hz;
    AnalyticalCoefficients c;
    c.secondsPerOp = 1.0 / (double(gpu.smCount) * gpu.fp32LanesPerSm * hz);
    c.dramSecondsPerByte = 1.0 / dram;
    c.dramSecondsPerLine = gpu.globalTransactionBytes / dram / 2.0;
    c.l2SecondsPerByte = 1.0 / l2;
    c.l1SecondsPerByte = 1.0 / shared;
    c.sharedSecondsPerByte = 1.0 / shared;
    c.registerSecondsPerByte = 1.0 / registers;
    c.globalSecondsPerLoadTx = gpu.globalTransactionBytes / l2;
    c.globalSecondsPerStoreTx = gpu.globalTransactionBytes / dram;
    c.sharedSecondsPerTx = 1.0 / (double(gpu.smCount) * hz);
    c.falseSharingSeconds = gpu.globalTransactionBytes / dram;
    c.mallocSeconds = 10e-6;
    c.launchSeconds = gpu.kernelLaunchOverheadUs * 1e-6;
    c.syncSeconds = 40.0 / (double(gpu.smCount) * hz);
    c.spillSecondsPerByte = 4.0 / l2;
    c.registerBudgetBytes = gpu.registersPerThreadMax * 4;
    return c;
}

AnalyticalGpuCostModel::AnalyticalGpuCostModel(GpuSpec gpu)
    : m_gpu(std::move(gpu)), m_c(AnalyticalCoefficients::fromGpu(m_gpu)) {}

StageCost AnalyticalGpuCostModel::stageCost(const StageFeatureRow &row, bool isKernel) const {
    using F = Feature;
    const StageFeatures &f = row.features;
    StageCost cost;
    cost.node = row.node;
    cost.stage = row.stage;
    auto term = [&](CostTerm t) -> double & { return cost.terms[size_t(t)]; };
    const bool inlined = f[F::inlined_calls] > 0;

    // Compute: points x ops at peak rate, slowed by idle SMs, too few warps and idle lanes.
    double compute = f[F::points_computed_total] * f[F::ops_per_point] * m_c.secondsPerOp;
    const double smSlots = double(m_gpu.smCount) * std::max(1.0, f[F::max_block_occupancy] * m_gpu.maxBlocksPerSm);
    const double tasks = std::max(1.0, f[F::num_tasks]);
    const double tasksPerCore = tasks / smSlots;
    const double idleCoreWastage = std::ceil(tasksPerCore) / std::max(1.0, tasksPerCore);
    const double smUse = std::min(1.0, tasks / m_gpu.smCount);
    const double residentWarps = std::max(1.0, f[F::max_warp_occupancy] * m_gpu.maxWarpsPerSm);
    const double warpUse = std::min(1.0, residentWarps * m_gpu.warpSize / (4.0 * m_gpu.fp32LanesPerSm));
    compute *= idleCoreWastage / (smUse * warpUse);
    if (!inlined) compute /= std::max(0.05, 1.0 - f[F::idle_lane_wastage]);
    term(CostTerm::Compute) = compute;

    // Load: footprints by memory type, per point and per block, plus transactions.
    double load = f[F::num_realizations] *
                  (m_c.dramSecondsPerLine * f[F::unique_global_lines_read_per_realization] +
                   m_c.sharedSecondsPerByte * f[F::unique_shared_bytes_read_per_realization] +
                   m_c.dramSecondsPerByte * f[F::unique_global_bytes_read_per_realization] +
                   m_c.registerSecondsPerByte * f[F::unique_register_bytes_read_per_realization]);
    load += m_c.l1SecondsPerByte * f[F::num_scalars] * f[F::unique_bytes_read_per_point];
    load += m_c.l2SecondsPerByte * f[F::num_tasks] * f[F::unique_bytes_read_per_task] / std::max(1.0, f[F::num_realizations] > 1 ? f[F::num_realizations] / f[F::num_blocks] : 1.0);
    double globalLoads = f[F::num_blocks] * f[F::num_global_mem_loads_per_block] * m_c.globalSecondsPerLoadTx;
    double sharedLoads = f[F::num_blocks] * f[F::num_shared_mem_loads_per_block] * m_c.sharedSecondsPerTx;
    if (!inlined) {
        globalLoads /= std::max(0.01, f[F::global_mem_load_efficiency]);
        sharedLoads /= std::max(0.01, f[F::shared_mem_load_efficiency]);
    }
    term(CostTerm::Load) = load + globalLoads + sharedLoads;

    // Store: transactions, and partial sectors when blocks write narrow rows.
    double globalStores = m_c.globalSecondsPerStoreTx * f[F::num_blocks] * f[F::num_global_mem_stores_per_block];
    if (!inlined) globalStores /= std::max(0.01, f[F::global_mem_store_efficiency]);
    const double sharedStores = m_c.sharedSecondsPerTx * f[F::num_blocks] * f[F::num_shared_mem_stores_per_block];
    double falseSharing = 0;
    if (isKernel && f[F::inner_parallelism] > 1 && f[F::global_innermost_bytes_at_task] > 0) {
        falseSharing = m_c.falseSharingSeconds * f[F::num_scalars] /
                       std::max(1.0, f[F::global_innermost_bytes_at_task]) *
                       std::max(0.0, 1.0 - f[F::global_innermost_bytes_at_task] / m_gpu.globalTransactionBytes);
    }
    term(CostTerm::Store) = globalStores + sharedStores + falseSharing;

    // Malloc: only global allocations cost a device allocation.
    term(CostTerm::Malloc) = isKernel ? m_c.mallocSeconds * f[F::num_realizations] : 0.0;

    // Parallelism: a launch per kernel; a barrier per realization of a fused Func.
    term(CostTerm::Parallelism) =
        isKernel ? f[F::num_productions] * (f[F::inner_parallelism] > 1 ? m_c.launchSeconds : 0.0)
                 : m_c.syncSeconds * f[F::num_realizations];

    // Working set: registers are free up to the budget; beyond it, every byte spills.
    const double excess = std::max(0.0, f[F::working_set_at_thread] - m_c.registerBudgetBytes);
    term(CostTerm::WorkingSet) = f[F::inner_parallelism] *
                                 (excess * m_c.spillSecondsPerByte * f[F::points_computed_per_thread] +
                                  f[F::working_set_at_thread] * m_c.registerSecondsPerByte);

    for (double &t : cost.terms) t *= 1e3; // seconds -> milliseconds
    return cost;
}

void AnalyticalGpuCostModel::enqueue(const ScheduleState &state,
                                     std::vector<std::shared_ptr<const KernelFeatures>> features,
                                     StateCost *out) {
    Pending p{std::move(features), {}, out};
    for (const LoopNestPtr &k : state.kernels()) p.kernelRoots.push_back(k->node);
    m_queue.push_back(std::move(p));
}

void AnalyticalGpuCostModel::evaluateAll() {
    for (Pending &p : m_queue) {
        StateCost &out = *p.out;
        out = StateCost{};
        for (size_t k = 0; k < p.features.size(); ++k) {
            for (const StageFeatureRow &row : *p.features[k]) {
                out.stages.push_back(stageCost(row, row.node == p.kernelRoots[k]));
            }
        }
        for (const StageCost &c : out.stages) {
            for (size_t t = 0; t < kCostTerms; ++t) out.terms[t] += c.terms[t];
        }
        for (double t : out.terms) out.total += t;
    }
    m_queue.clear();
}

} // namespace beamscope
