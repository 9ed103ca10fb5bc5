// The analytic model's summed form: the appendix-B terms of each stage added up, with coefficients
// from the device spec. AnalyticalGpuCostModel prices a CPU's OpenCL device (PoCL: caches that
// absorb stores, no warps to hide latency with) this way; GPUs are priced as a roofline per
// kernel (docs/design-notes.md, "The analytic model against the H100 data").
#pragma once

#include "cost/CostModel.h"
#include "cost/Featurizer.h"
#include "schedule/GpuSpec.h"

namespace beamscope {

/// The coefficients of appendix B, named by the paper's index, in seconds per unit.
struct SummedCoefficients {
    double secondsPerOp;            ///< c4/c19 per op: 1 / (SMs x FP32 lanes x clock)
    double dramSecondsPerByte;      ///< c6: compulsory DRAM traffic, 1 / bandwidth
    double dramSecondsPerLine;      ///< c5: a partly used sector per line, sector / bandwidth / 2
    double l2SecondsPerByte;        ///< c14: per-block footprint from L2 (~3x DRAM bandwidth)
    double l1SecondsPerByte;        ///< c10: per-point bytes from L1 (shared-memory bandwidth)
    double sharedSecondsPerByte;    ///< c20: 1 / (SMs x banks x bank width x clock)
    double registerSecondsPerByte;  ///< c7: register file bandwidth, 3 operands of 4 B per lane
    double globalSecondsPerLoadTx;  ///< global load transactions: sector / L2 bandwidth
    double globalSecondsPerStoreTx; ///< c21: sector / DRAM bandwidth
    double sharedSecondsPerTx;      ///< c29 and shared loads: one bank cycle on one SM
    double falseSharingSeconds;     ///< c22: a partial sector written per row segment
    double mallocSeconds;           ///< c24: a global (device) allocation
    double launchSeconds;           ///< c25: one kernel launch
    double syncSeconds;             ///< per realization of a fused Func: a block barrier
    double spillSecondsPerByte;     ///< c9 above the register budget: local memory via L2
    int registerBudgetBytes;        ///< per thread, before spilling (registersPerThreadMax x 4)

    static SummedCoefficients fromGpu(const GpuSpec &gpu);
};

/// The summed terms of one stage from its features, `isKernel` when it is a root (launched)
/// stage, in milliseconds.
StageCost summedStageCost(const StageFeatureRow &row, bool isKernel, const SummedCoefficients &c,
                          const GpuSpec &gpu);

} // namespace beamscope
