// SearchEngine: the steppable beam search of Anderson et al. 2021 (sections 3 and 4). For each
// Func from the outputs back it takes two decisions (compute location, then tiling of root
// Funcs) for the whole beam; one call to step() is one decision. With freezing, a root/inline
// pre-pass (pass 0) takes the place of the first of the passes and freezes the cheapest stages.
// Main pass p (1-based) buckets each parent's children at hash depth p - 1 (the pre-pass at -1:
// one bucket per parent) and draws floor(log2 B) from each; when the beam is selected, a state
// is penalized by how many states with its depth-p hash were taken before it in the step, and
// by 10 more when its depth p - 2 hash is not among those earlier passes kept (section 4.5, as
// the authors' implementation does). A Func that only wraps an input buffer (an ImageParam's
// "<name>_im") is an input there, never scheduled nor costed: here every pass starts from a
// state with it inlined, so it takes no step and is left out of the freezing count.
#pragma once

#include "cost/AnalyticalGpuCostModel.h"
#include "search/Pins.h"
#include "search/SearchStep.h"
#include "util/Rng.h"

#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

namespace beamscope {

/// Tunables of a search, with the paper's defaults.
struct SearchOptions {
    int beamSize = 32;
    int passes = 5;
    uint64_t seed = 0;
    bool sampling = true;    ///< hierarchical sampling (3.1); off: every candidate is costed
    bool freezing = true;    ///< root/inline pre-pass and freezing (3.2)
    /// Freezing applies to pipelines of at least this many searched Funcs (input wrappers not
    /// counted). The paper freezes "for programs with many stages"; on smaller ones the
    /// pre-pass fixes the output's tiling and most of the rest before the full search sees
    /// them (docs/design-notes.md, "Freezing from ten Funcs"). 0: every pipeline of two or
    /// more, as the paper's configuration and sessions and traces written before.
    int freezeMinFuncs = kDefaultFreezeMinFuncs;
    static constexpr int kDefaultFreezeMinFuncs = 10;
    bool memoization = true; ///< featurization memoized per kernel (3.3)
    /// Added to the penalty factor of a state whose coarser hash (depth pass - 2) no earlier
    /// pass kept among its good states (4.5; the authors' implementation adds 10).
    double knownBadPenalty = 10;
    std::vector<Pin> pins;
    /// The Funcs the pre-pass freezes, by name, in place of the N - log2(N) cheapest: an
    /// experiment (e.g. another implementation's frozen set); each keeps its pre-pass decision
    /// as the rule's would. Empty: the paper's rule. Unknown names are refused.
    std::vector<std::string> freezeFuncs;
    SearchSpaceOptions space;
    GpuSpec gpu; ///< must be set (GpuSpec::defaultSpec() is the paper's V100)
    /// The cost model when the engine is given none: analytic, polymage or a model file
    /// (makeCostModel).
    std::string costModel = "analytic";

    /// Greedy: beam 1, one pass (the paper's greedy samples).
    static SearchOptions greedy();
    /// Greedy with `options`' switches, penalty, pins, space, GPU, cost model and seed (set
    /// each sample's own); without its freezeFuncs, an experiment on the full search.
    static SearchOptions greedyFrom(const SearchOptions &options);
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
    /// The complete state with the lowest predicted cost (unpenalized) among the final beams of
    /// the main passes so far (nullptr before the first main pass ends).
    const BeamEntry *best() const { return m_best ? &*m_best : nullptr; }
    const SearchStepPtr &lastStep() const { return m_last; }
    const SearchCounters &counters() const { return m_counters; }
    const std::set<int> &frozen() const { return m_frozen; }
    using FreezeRank = beamscope::FreezeRank;
    /// The Funcs of N, cheapest first (ties in search order), as the pre-pass ranked them;
    /// empty before the pre-pass ends or without one.
    const std::vector<FreezeRank> &freezeRanking() const;
    const SearchOptions &options() const { return m_options; }
    /// The model that costs the states (the one given, or makeCostModel(options.costModel)).
    const CostModel &costModel() const { return *m_model; }
    const FunctionDAG &dag() const { return *m_dag; }
    /// Total number of steps of the search (for progress): an upper bound until the first main
    /// pass ends (every Func two steps, one if frozen or inlined for sure), then the steps taken
    /// and the last main pass's length for each pass to come; exact once finished.
    int estimatedSteps() const;
    /// Number of main passes: options.passes, less the one the freezing pre-pass replaces.
    int mainPasses() const { return m_mainPasses; }
    /// Whether this search runs the freezing pre-pass.
    bool freezes() const { return m_mainPasses != m_options.passes; }
    /// Why the pre-pass runs or not, one phrase: "on", "off", "off: one Func", "off: one pass",
    /// "off: 8 searched Funcs, fewer than 10" (input wrappers are not searched: freezing's N).
    const std::string &freezingSummary() const { return m_freezingSummary; }
    /// The hash depth at which main pass `pass` (1-based) buckets; -1 for the pre-pass (0).
    static int samplingDepth(int pass) { return pass - 1; }
    /// Funcs of `n` that freezing leaves under search: all but log2(n) are frozen, counted as
    /// n - log2(n) rounded down, so ceil(log2(n)) stay (at least 1).
    static int funcsLeftUnfrozen(int n);
    /// A Func that is a trivial wrapper of an input buffer or parameter (an ImageParam's
    /// "<name>_im": one pure definition calling the input at its own variables). The authors'
    /// implementation takes these as inputs (FunctionDAG is_input) and never schedules them.
    static bool isInputWrapper(const Node &node);
    /// An input wrapper that no pin names, as its Func or as a host: every pass starts with it
    /// inlined and no step decides it (the engine, `why` and the DAG view share this rule).
    static bool readsInPlace(const Node &node, const std::vector<Pin> &pins);
    /// The input wrappers this search inlines without searching (those no pin names).
    const std::set<int> &inputWrappers() const { return m_inputs; }
    /// Wall time spent in step(), milliseconds.
    double elapsedMs() const { return m_elapsedMs; }

private:
    SearchStepPtr advance(const CancelToken *cancel);
    /// freezingSummary()'s phrase, made once the pre-pass is decided.
    std::string summarizeFreezing() const;
    void startPass(int pass);
    void finishPass();
    std::vector<StepCandidate> enumerate(int node, Phase phase,
                                         std::vector<PrunedCandidate> &pruned,
                                         const CancelToken *cancel);
    bool allowedByPins(const FuncPlacement &placement, int node) const;
    void evaluate(std::vector<StepCandidate> &candidates, const std::vector<int> &which,
                  std::vector<StateCost> &costs, StepTimings &timings, const CancelToken *cancel);
    void freezeAfterPrepass();
    void blessBeam();
    bool penalizing() const;
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
    int m_mainPasses = 0;
    size_t m_cursor = 0;
    Phase m_phase = Phase::ComputeLocation;
    int m_stepIndex = 0;
    int m_passStartStep = 0; ///< m_stepIndex of the current pass's first step
    int m_lastPassSteps = 0; ///< steps of the last main pass that ended (0: none yet)
    std::string m_freezingSummary; ///< freezingSummary(): fixed at construction
    bool m_finished = false;
    std::vector<BeamEntry> m_beam;
    std::optional<BeamEntry> m_best;
    std::set<int> m_frozen;
    std::set<int> m_inputs; ///< input wrappers, inlined in m_start (isInputWrapper)
    StatePtr m_start;       ///< every pass's first state: nothing placed but m_inputs inlined
    std::vector<FuncPlacement> m_frozenPlacements;
    std::set<int> m_freezeOverride; ///< options.freezeFuncs resolved (empty: the rule)
    /// Set when the pre-pass ends; shared with the steps after it (SearchStep::freezeRanking).
    std::shared_ptr<const std::vector<FreezeRank>> m_freezeRanking;
    /// Hashes (at the depth of the pass that kept them) of the good final states of earlier
    /// passes and of all their ancestors.
    std::set<uint64_t> m_permitted;
    /// Per Func, its tilings (SearchSpace::tilingMenu), made at its first tiling step.
    std::map<int, TilingMenu> m_tilingMenus;
    SearchCounters m_counters;
    SearchStepPtr m_last;
    double m_elapsedMs = 0;
};

} // namespace beamscope
