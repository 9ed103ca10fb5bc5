// PolyMageCostModel: the explainable GPU scorer of PolyMage-GPU (Jangda and Guha 2020, section
// 6, Algorithm 2 lines 1-36), computed per Beamscope kernel (PolyMage's fused group) from the
// same appendix-A feature rows the analytic model reads. Its seven terms are the weighted
// factors of Algorithm 2 line 35; a state's cost is their sum over kernels (unitless, for
// ranking). docs/design-notes.md says which feature each factor reads and where it departs.
#pragma once

#include "cost/CostModel.h"
#include "schedule/GpuSpec.h"

namespace beamscope {

/// The weights w1..w7 of Algorithm 2 line 35 (the paper's Table 3).
struct PolyMageWeights {
    double glTransactions = 50;    ///< w1: global memory transactions per warp
    double occupancyLoss = 0.5;    ///< w2: 1 - theoretical occupancy
    double memComputeRatio = 60;   ///< w3: memory time / compute time
    double unallocatedShared = 10; ///< w4: fraction of an SM's shared memory left unallocated
    double unusedRegisters = 2;    ///< w5: fraction of an SM's registers left unused
    double overlap = 100;          ///< w6: fraction of redundant (overlapped) computation
    double tailBlocks = 1;         ///< w7: extra thread blocks per SM (load imbalance)

    /// Table 3, Tesla V100 column (the default).
    static PolyMageWeights v100();
    /// Table 3, GTX 1080Ti column.
    static PolyMageWeights gtx1080Ti();
    /// The weights in term order (w1..w7).
    std::array<double, 7> asArray() const;
};

/// The unweighted factors of Algorithm 2 for one kernel, with the intermediate values they come
/// from (for tests and explanations).
struct PolyMageFactors {
    double warpsPerBlock = 0;       ///< line 5
    double blocks = 0;              ///< totalTB
    double sharedBytesPerBlock = 0; ///< line 9 (shMemPerTB)
    double registersPerThread = 0;  ///< line 20 (regPerTh)
    double maxBlocksPerSm = 0;      ///< line 18
    double occupancy = 0;           ///< line 24
    double glTransactions = 0;      ///< line 17 (per warp)
    double memTime = 0;             ///< line 26, seconds
    double computeTime = 0;         ///< line 28, seconds
    double unallocatedShared = 0;   ///< line 30
    double unusedRegisters = 0;     ///< line 32
    double overlap = 0;             ///< line 33
    double extraBlocks = 0;         ///< line 34
    /// The seven factors in term order (w1..w7 multiply them).
    std::array<double, 7> terms() const;
};

class PolyMageCostModel : public CostModel {
public:
    explicit PolyMageCostModel(GpuSpec gpu, PolyMageWeights weights = PolyMageWeights::v100());

    std::string name() const override { return "polymage-gpu"; }
    /// "gl_transactions", "occupancy_loss", "mem_compute_ratio", "unallocated_shared",
    /// "unused_registers", "overlap", "tail_blocks".
    std::vector<std::string> termNames() const override;
    void enqueue(const ScheduleState &state,
                 std::vector<std::shared_ptr<const KernelFeatures>> features,
                 StateCost *out) override;
    void evaluateAll() override;

    /// Algorithm 2's factors for one kernel: its feature rows and the node of its root stage.
    PolyMageFactors kernelFactors(const KernelFeatures &kernel, int rootNode) const;
    const PolyMageWeights &weights() const { return m_weights; }

private:
    struct Pending {
        std::vector<std::shared_ptr<const KernelFeatures>> features;
        std::vector<int> kernelRoots;
        StateCost *out;
    };
    GpuSpec m_gpu;
    PolyMageWeights m_weights;
    std::vector<Pending> m_queue;
};

} // namespace beamscope
