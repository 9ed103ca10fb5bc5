// AnalyticalGpuCostModel: the appendix-B cost formula with coefficients derived from a GpuSpec
// instead of predicted by a network. Every coefficient has a physical meaning (see
// AnalyticalCoefficients) and the result approximates run time in milliseconds.
#pragma once

#include "cost/CostModel.h"
#include "schedule/GpuSpec.h"


namespace beamscope {

/// The coefficients of appendix B, named by the paper's index, in seconds per unit.
struct AnalyticalCoefficients {
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

    static AnalyticalCoefficients fromGpu(const GpuSpec &gpu);
};

class AnalyticalGpuCostModel : public CostModel {
public:
    explicit AnalyticalGpuCostModel(GpuSpec gpu);

    std::string name() const override { return "analytical-gpu"; }
    /// analyticTermNames(): "compute", "load", "store", "parallelism", "working_set", "malloc".
    std::vector<std::string> termNames() const override { return analyticTermNames(); }
    void enqueue(const ScheduleState &state, std::vector<std::shared_ptr<const KernelFeatures>> features,
                 StateCost *out) override;
    void evaluateAll() override;

    /// The cost of one stage from its features, `isKernel` when it is a root (launched) stage.
    StageCost stageCost(const StageFeatureRow &row, bool isKernel) const;
    const AnalyticalCoefficients &coefficients() const { return m_c; }

private:
    struct Pending {
        std::vector<std::shared_ptr<const KernelFeatures>> features;
        std::vector<int> kernelRoots;
        StateCost *out;
    };
    GpuSpec m_gpu;
    AnalyticalCoefficients m_c;
    std::vector<Pending> m_queue;
};

} // namespace beamscope
