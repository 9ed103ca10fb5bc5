// SearchEngine: the steppable beam search of Anderson et al. 2021 (sections 3 and 4). For each
// Func from the outputs back it takes two decisions (compute location, then tiling of root
// Funcs) for the whole beam; one call to step() is one decision. Passes hash to increasing
// depth and penalize known-bad structures; a root/inline pre-pass freezes the cheapest stages;
// hierarchical sampling chooses which candidates are featurized and costed.
#pragma once

#include "cost/AnalyticalGpuCostModel.h"
#include "search/Pins.h"
#include "search/Rng.h"
#include "search/SearchStep.h"

#include <atomic>
#include <memory>
#include <set>
#include <stdexcept>

namespace beamscope {

/// Tunables of a search, with the paper's defaults.
struct SearchOptions {
    int beamSize = 32;
    int passes = 5;
    uint64_t seed = 0;
    bool sampling = true;    ///< hierarchical sampling (3.1); off: every candidate is costed
    bool freezing = true;    ///< root/inline pre-pass and freezing (3.2)
    bool memoization = true; ///< featurization memoized per kernel (3.3)
    double knownBadPenalty = 0.5; ///< cost x (1 + penalty) for a known-bad hash (4.5)
    std::vector<Pin> pins;
    SearchSpaceOptions space;
    GpuSpec gpu;             ///< must be set (GpuSpec::defaultSpec() is the paper's V100)
    /// The cost model when the engine is given none: analytic, polymage or a model file
    /// (makeCostModel).
    std::string costModel = "analytic";

    /// Greedy: beam 1, one pass (the paper's greedy samples).
    static SearchOptions greedy();
};

/// Thrown by step() when its cancel token is set; the engine is left at the previous step.
class SearchCancelled : public std::runtime_error {
public:
    SearchCancelled() : std::runtime_error("search cancelled") {}
};

/// Set from any thread to stop a running step().
using CancelToken = std::atomic<bool>;

class SearchEngine {
public:
    /// Checks the pins (throws Error for impossible ones) and prepares the first step. With no
    /// `model`, builds options.costModel's (throws UsageError/Error for an unusable one).
    SearchEngine(std::shared_ptr<const FunctionDAG> dag, SearchOptions options,
                 std::shared_ptr<CostModel> model = nullptr);

    /// Advances one decision for the whole beam; returns its snapshot.
    SearchStepPtr step(const CancelToken *cancel = nullptr);
    /// Steps to the end; returns the last step.
    SearchStepPtr run(const CancelToken *cancel = nullptr);

    bool finished() const { return m_finished; }
    /// The best complete state found so far (nullptr before the first pass ends).
    const BeamEntry *best() const { return m_best ? &*m_best : nullptr; }
    const SearchStepPtr &lastStep() const { return m_last; }
    const SearchCounters &counters() const { return m_counters; }
    const std::set<int> &frozen() const { return m_frozen; }
    const SearchOptions &options() const { return m_options; }
    /// The model that costs the states (the one given, or makeCostModel(options.costModel)).
    const CostModel &costModel() const { return *m_model; }
    const FunctionDAG &dag() const { return *m_dag; }
    /// Total number of steps of the search (for progress), estimated before the pre-pass ends.
    int estimatedSteps() const;
    /// Wall time spent in step(), milliseconds.
    double elapsedMs() const { return m_elapsedMs; }

private:
    SearchStepPtr advance(const CancelToken *cancel);
    void startPass(int pass);
    void finishPass();
    std::vector<StepCandidate> enumerate(int node, Phase phase, std::vector<PrunedCandidate> &pruned,
                                         const CancelToken *cancel);
    bool allowedByPins(const FuncPlacement &placement, int node) const;
    void evaluate(std::vector<StepCandidate> &candidates, const std::vector<int> &which,
                  std::vector<StateCost> &costs, StepTimings &timings, const CancelToken *cancel);
    void freezeAfterPrepass();
    bool needsTiling(int node) const;

    std::shared_ptr<const FunctionDAG> m_dag;
    SearchOptions m_options;
    std::shared_ptr<CostModel> m_model;
    std::vector<std::string> m_termNames; ///< m_model->termNames()
    std::unique_ptr<Featurizer> m_featurizer;
    SearchSpace m_space;
    Rng m_rng;
    std::vector<ResolvedPin> m_pins;
    std::vector<int> m_order;

    int m_pass = 0;
    size_t m_cursor = 0;
    Phase m_phase = Phase::ComputeLocation;
    int m_stepIndex = 0;
    bool m_finished = false;
    std::vector<BeamEntry> m_beam;
    std::optional<BeamEntry> m_best;
    std::set<int> m_frozen;
    std::vector<FuncPlacement> m_frozenPlacements;
    std::vector<std::set<uint64_t>> m_badHashes; ///< per earlier pass, at its depth
    std::set<uint64_t> m_passBad, m_passGood;
    SearchCounters m_counters;
    SearchStepPtr m_last;
    double m_elapsedMs = 0;
};

} // namespace beamscope
