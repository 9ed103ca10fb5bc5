// Featurizer: computes the schedule features of every stage a state computes (paper 5.1,
// appendix A), one kernel at a time, memoized per kernel subtree (paper 3.3).
#pragma once

#include "cost/StageFeatures.h"
#include "schedule/GpuSpec.h"
#include "schedule/ScheduleState.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace beamscope {

/// The features of one computed stage, with where it was computed.
struct StageFeatureRow {
    int node = -1;
    int stage = -1;
    StageFeatures features;
};

/// The feature rows of one kernel (its root stage and every stage fused into it).
using KernelFeatures = std::vector<StageFeatureRow>;

/// The L1 lines a load instruction of a warp touches, per access of a stage, for one lane
/// pattern (Featurizer.cpp: linesPerInstruction), memoized across kernels and states: a search
/// meets the same stage tiling in many states, and gathering each lane on its own is costly.
class LaneLinesMemo {
public:
    /// The lines for `key` of `dag`, from `compute` the first time (a new DAG clears the memo).
    std::vector<double> get(const std::shared_ptr<const FunctionDAG> &dag,
                            const std::vector<int64_t> &key,
                            const std::function<std::vector<double>()> &compute);

private:
    std::mutex m_mutex;
    std::shared_ptr<const FunctionDAG> m_dag; ///< pinned, so its address is not reused
    std::map<std::vector<int64_t>, std::vector<double>> m_lines;
};

/// A stage body's operations per point (the ops_per_point feature) is its own part plus each
/// inlined Func's part. Own: the stage's arithmetic and loads.
double ownOpsPerPoint(const Stage &stage);
/// An inlined Func's part: its calls times its arithmetic.
double inlinedOpsPerPoint(const FunctionDAG &dag, const InlinedCall &call);

class Featurizer {
public:
    explicit Featurizer(GpuSpec gpu, bool memoize = true);

    /// Features of every stage computed by `state` (inlined Funcs have none), kernel by
    /// kernel in launch order. Unscheduled producers are read as if they were in global memory.
    std::vector<std::shared_ptr<const KernelFeatures>> featurize(const ScheduleState &state);

    /// Features of one kernel, bypassing the memo.
    KernelFeatures featurizeKernel(const ScheduleState &state, const LoopNest &kernel) const;

    const GpuSpec &gpu() const { return m_gpu; }
    int64_t featurizations() const { return m_featurizations; }
    int64_t memoHits() const { return m_hits; }
    int64_t memoMisses() const { return m_misses; }
    void resetCounters();

    /// Transactions, so that a cancelled search step leaves no trace: memo entries and
    /// counters since the last commit() are dropped by rollback().
    void commit();
    void rollback();

private:
    GpuSpec m_gpu;
    bool m_memoize;
    std::shared_ptr<LaneLinesMemo> m_laneLines = std::make_shared<LaneLinesMemo>();
    int64_t m_featurizations = 0, m_hits = 0, m_misses = 0;
    int64_t m_committedCounters[3] = {0, 0, 0};
    std::vector<const LoopNest *> m_uncommitted; ///< memo keys added since the last commit
    // Keyed by kernel identity; the LoopNestPtr pins the address so it cannot be reused.
    std::map<const LoopNest *, std::pair<LoopNestPtr, std::shared_ptr<const KernelFeatures>>> m_memo;
};

} // namespace beamscope
