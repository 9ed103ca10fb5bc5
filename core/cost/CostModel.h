// CostModel: the batched interface the search evaluates states through (paper 5.2): enqueue
// states with their features, evaluate all, read the total and per-stage cost split into the
// terms of appendix B. Implementations: AnalyticalGpuCostModel (no training); learned later.
#pragma once

#include "cost/Featurizer.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// The cost components of appendix B.
enum class CostTerm : uint8_t { Compute, Load, Store, Parallelism, WorkingSet, Malloc, Count };
constexpr size_t kCostTerms = static_cast<size_t>(CostTerm::Count);

/// "compute", "load", "store", "parallelism", "working_set", "malloc".
const char *costTermName(CostTerm t);

using CostTerms = std::array<double, kCostTerms>;

/// The cost of one computed stage, by term (milliseconds of predicted run time).
struct StageCost {
    int node = -1;
    int stage = -1;
    CostTerms terms{};
    double total() const;
};

/// The cost of a state: total, per term, per stage.
struct StateCost {
    double total = 0;
    CostTerms terms{};
    std::vector<StageCost> stages;
};

class CostModel {
public:
    virtual ~CostModel() = default;
    /// A short name for reports ("analytical-gpu").
    virtual std::string name() const = 0;
    /// Queues `state` (with its features, from a Featurizer) to be evaluated into `*out`.
    virtual void enqueue(const ScheduleState &state,
                         std::vector<std::shared_ptr<const KernelFeatures>> features,
                         StateCost *out) = 0;
    /// Evaluates every queued state and clears the queue.
    virtual void evaluateAll() = 0;
};

} // namespace beamscope
