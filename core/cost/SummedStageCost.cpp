// The appendix-B terms of a stage, summed (see SummedStageCost.h).
#include "cost/SummedStageCost.h"

#include <algorithm>
#include <cmath>

namespace beamscope {

SummedCoefficients SummedCoefficients::fromGpu(const GpuSpec &gpu) {
    const double hz = gpu.clockGHz * 1e9;
    const double dram = gpu.globalMemoryBandwidthGBs * 1e9;
    const double l2 = 3.0 * dram;
    const double shared = double(gpu.smCount) * gpu.sharedMemoryBanks * gpu.sharedBankWidthBytes * hz;
    const double registers = double(gpu.smCount) * gpu.fp32LanesPerSm * 3.0 * 4.0 * hz;
    SummedCoefficients c;
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

StageCost summedStageCost(const StageFeatureRow &row, bool isKernel, const SummedCoefficients &c,
                          const GpuSpec &gpu) {
    using F = Feature;
    const StageFeatures &f = row.features;
    StageCost cost;
    cost.node = row.node;
    cost.stage = row.stage;
    auto term = [&](CostTerm t) -> double & { return cost.terms[size_t(t)]; };
    const bool inlined = f[F::inlined_calls] > 0;

    // Compute: points x ops at peak rate, slowed by idle SMs, too few warps and idle lanes.
    double compute = f[F::points_computed_total] * f[F::ops_per_point] * c.secondsPerOp;
    const double smSlots = double(gpu.smCount) * std::max(1.0, f[F::max_block_occupancy] * gpu.maxBlocksPerSm);
    const double tasks = std::max(1.0, f[F::num_tasks]);
    const double tasksPerCore = tasks / smSlots;
    const double idleCoreWastage = std::ceil(tasksPerCore) / std::max(1.0, tasksPerCore);
    const double smUse = std::min(1.0, tasks / gpu.smCount);
    const double residentWarps = std::max(1.0, f[F::max_warp_occupancy] * gpu.maxWarpsPerSm);
    const double warpUse = std::min(1.0, residentWarps * gpu.warpSize / (4.0 * gpu.fp32LanesPerSm));
    compute *= idleCoreWastage / (smUse * warpUse);
    if (!inlined) compute /= std::max(0.05, 1.0 - f[F::idle_lane_wastage]);
    term(CostTerm::Compute) = compute;

    // Load: footprints by memory type, per point and per block, plus transactions.
    double load = f[F::num_realizations] *
                  (c.dramSecondsPerLine * f[F::unique_global_lines_read_per_realization] +
                   c.sharedSecondsPerByte * f[F::unique_shared_bytes_read_per_realization] +
                   c.dramSecondsPerByte * f[F::unique_global_bytes_read_per_realization] +
                   c.registerSecondsPerByte * f[F::unique_register_bytes_read_per_realization]);
    load += c.l1SecondsPerByte * f[F::num_scalars] * f[F::unique_bytes_read_per_point];
    load += c.l2SecondsPerByte * f[F::num_tasks] * f[F::unique_bytes_read_per_task] / std::max(1.0, f[F::num_realizations] > 1 ? f[F::num_realizations] / f[F::num_blocks] : 1.0);
    double globalLoads = f[F::num_blocks] * f[F::num_global_mem_loads_per_block] * c.globalSecondsPerLoadTx;
    double sharedLoads = f[F::num_blocks] * f[F::num_shared_mem_loads_per_block] * c.sharedSecondsPerTx;
    if (!inlined) {
        globalLoads /= std::max(0.01, f[F::global_mem_load_efficiency]);
        sharedLoads /= std::max(0.01, f[F::shared_mem_load_efficiency]);
    }
    term(CostTerm::Load) = load + globalLoads + sharedLoads;

    // Store: transactions, and partial sectors when blocks write narrow rows.
    double globalStores = c.globalSecondsPerStoreTx * f[F::num_blocks] * f[F::num_global_mem_stores_per_block];
    if (!inlined) globalStores /= std::max(0.01, f[F::global_mem_store_efficiency]);
    const double sharedStores = c.sharedSecondsPerTx * f[F::num_blocks] * f[F::num_shared_mem_stores_per_block];
    double falseSharing = 0;
    if (isKernel && f[F::inner_parallelism] > 1 && f[F::global_innermost_bytes_at_task] > 0) {
        falseSharing = c.falseSharingSeconds * f[F::num_scalars] /
                       std::max(1.0, f[F::global_innermost_bytes_at_task]) *
                       std::max(0.0, 1.0 - f[F::global_innermost_bytes_at_task] / gpu.globalTransactionBytes);
    }
    term(CostTerm::Store) = globalStores + sharedStores + falseSharing;

    // Malloc: only global allocations cost a device allocation.
    term(CostTerm::Malloc) = isKernel ? c.mallocSeconds * f[F::num_realizations] : 0.0;

    // Parallelism: a launch per kernel; a barrier per realization of a fused Func.
    term(CostTerm::Parallelism) =
        isKernel ? f[F::num_productions] * (f[F::inner_parallelism] > 1 ? c.launchSeconds : 0.0)
                 : c.syncSeconds * f[F::num_realizations];

    // Working set: registers are free up to the budget; beyond it, every byte spills.
    const double excess = std::max(0.0, f[F::working_set_at_thread] - c.registerBudgetBytes);
    term(CostTerm::WorkingSet) = f[F::inner_parallelism] *
                                 (excess * c.spillSecondsPerByte * f[F::points_computed_per_thread] +
                                  f[F::working_set_at_thread] * c.registerSecondsPerByte);

    for (double &t : cost.terms) t *= 1e3; // seconds -> milliseconds
    return cost;
}

} // namespace beamscope
