// CostModel: the batched interface the search evaluates states through (paper 5.2): enqueue
// states with their features, evaluate all, read the total and per-stage cost split into the
// model's own terms (termNames()). Implementations: AnalyticalGpuCostModel (appendix B),
// PolyMageCostModel (PolyMage-GPU's scorer), LearnedCostModel (trees over the analytic prior);
// makeCostModel (CostModelFactory.h) builds one from a user's spec.
#pragma once

#include "cost/Featurizer.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// The cost components of appendix B (the analytic model's terms, in its CostTerms order).
enum class CostTerm : uint8_t { Compute, Load, Store, Parallelism, WorkingSet, Malloc, Count };
constexpr size_t kCostTerms = static_cast<size_t>(CostTerm::Count);

/// "compute", "load", "store", "parallelism", "working_set", "malloc".
const char *costTermName(CostTerm t);

/// The most terms any model splits its cost into; a model uses the first termNames().size().
constexpr size_t kMaxCostTerms = 8;
/// A cost split by term; entries past the model's termNames() are zero.
using CostTerms = std::array<double, kMaxCostTerms>;

/// The analytic model's term names, in CostTerm order.
std::vector<std::string> analyticTermNames();

/// The cost of one computed stage, by term (milliseconds of predicted run time for the analytic
/// and learned models, unitless scores for PolyMage's).
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
    /// Sets terms to the stages' sums, term by term, and total to the terms' sum.
    void addUpStages();
    /// The terms of stages [first, first + count) summed term by term, as addUpStages() sums them.
    CostTerms termsOfStages(size_t first, size_t count) const;
    /// The terms' sum, as addUpStages() takes the total.
    static double totalOf(const CostTerms &terms);
};

class CostModel {
public:
    virtual ~CostModel() = default;
    /// A short name for reports ("analytical-gpu").
    virtual std::string name() const = 0;
    /// The names of the terms this model splits a cost into (at most kMaxCostTerms), in order.
    virtual std::vector<std::string> termNames() const = 0;
    /// Queues `state` (with its features, from a Featurizer) to be evaluated into `*out`.
    virtual void enqueue(const ScheduleState &state,
                         std::vector<std::shared_ptr<const KernelFeatures>> features,
                         StateCost *out) = 0;
    /// Evaluates every queued state and clears the queue.
    virtual void evaluateAll() = 0;
};

} // namespace beamscope
