// AnalyticalGpuCostModel: run time in milliseconds from the appendix-A features and a GpuSpec,
// kernel by kernel as a roofline: a kernel takes the longer of its arithmetic and its memory
// traffic (DRAM bytes, or L2 sectors when those bind), slowed when it has too few threads to fill
// the device, plus its launch. The six terms say where that time goes (docs/design-notes.md, "The
// analytic model against the H100 data"). A CPU's OpenCL device (a spec with stores_write_back,
// PoCL) is priced with the summed appendix-B terms instead (SummedStageCost.h), which ranked its
// schedules better than the roofline does.
#pragma once

#include "cost/CostModel.h"
#include "schedule/GpuSpec.h"


namespace beamscope {

/// The machine constants the model prices work with, in seconds per unit, from a GpuSpec.
struct AnalyticalCoefficients {
    double secondsPerOp;       ///< 1 / (SMs x FP32 lanes x clock)
    double secondsPerIssue;    ///< one warp instruction issued: 1 / (SMs x 4 schedulers x clock)
    double dramSecondsPerByte; ///< 1 / DRAM bandwidth
    double l2SecondsPerByte;   ///< global sectors through L1/L2, at 5x the DRAM bandwidth
    double l2SecondsPerRequest;       ///< a lone sector's request (a scattering update's bin)
    double sharedSecondsPerWavefront; ///< one shared-memory wavefront (all banks once) per SM per clock
    double launchSeconds;      ///< one kernel launch
    double blockStartSeconds;  ///< an SM starting one block (kBlockStartClocks at the clock)
    double spillSecondsPerByte; ///< a register spilled to local memory (via L2)
    int registerBudgetBytes;    ///< per thread, before spilling (registersPerThreadMax x 4)
    double threadsToFill;       ///< resident threads that hide memory latency (SMs x threads/SM)
    double threadsToFillArithmetic; ///< threads that keep every FP32 lane issuing (SMs x lanes x 4)
    double loadLatencySeconds; ///< a global load's latency: what full warps of 128-byte loads hide

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

    /// The costs of the stages of one kernel (its rows, root stage at `rootNode`), in the order
    /// of `rows`: the kernel's time shared among its stages and terms.
    std::vector<StageCost> kernelCosts(const KernelFeatures &rows, int rootNode) const;
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
