// CandidateSampler: the schedules a benchmark run considers (paper section 6): the top k of
// the final beam of one beam search, plus k greedy searches (beam 1, one pass) with random
// dropout, each with its own seed. Dropout is a CostModel decorator (DropoutCostModel), so the
// engine itself is unchanged: a dropped state's cost is pushed behind every kept one.
#pragma once

#include "cost/CostModel.h"
#include "search/SearchEngine.h"
#include "util/Rng.h"

#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// Random dropout as in Anderson et al.'s autoscheduler (its `random_dropout` parameter):
/// `percent` is the chance that a whole search of `decisions` decisions drops nothing, so
/// each evaluated state is kept with probability (percent / 100)^(1 / decisions). A dropped
/// state's total cost is multiplied by kDropFactor: it ranks behind every kept state but
/// dropped states keep their relative order, so a step whose states were all dropped still
/// picks the cheapest one. Per-stage costs are left as they are.
class DropoutCostModel : public CostModel {
public:
    static constexpr double kDropFactor = 1e6;

    DropoutCostModel(std::shared_ptr<CostModel> inner, double percent, int decisions,
                     std::uint64_t seed);
    std::string name() const override { return m_inner->name() + "+dropout"; }
    /// The inner model's terms.
    std::vector<std::string> termNames() const override { return m_inner->termNames(); }
    void enqueue(const ScheduleState &state,
                 std::vector<std::shared_ptr<const KernelFeatures>> features,
                 StateCost *out) override;
    void evaluateAll() override;
    /// Probability that one evaluated state is kept.
    double keepProbability() const { return m_keep; }
    /// States dropped so far.
    std::int64_t dropped() const { return m_dropped; }

private:
    std::shared_ptr<CostModel> m_inner;
    double m_keep;
    Rng m_rng;
    std::vector<StateCost *> m_pending;
    std::int64_t m_dropped = 0;
};

/// One schedule to benchmark.
struct BenchCandidate {
    std::string label; ///< "beam#0".."beam#k-1", "greedy#0".."greedy#k-1"
    StatePtr state;
    double predicted = 0; ///< the (undropped) cost model's total (ms, or a score for polymage)
    double searchMs = 0;  ///< time of the search that produced it
};

struct CandidateOptions {
    SearchOptions search;       ///< the beam search (its seed s; greedy run i uses s + 1 + i)
    int topK = 5;               ///< entries taken from the final beam
    int greedySamples = 5;      ///< greedy searches with dropout
    double dropoutPercent = 10; ///< see DropoutCostModel
    const CancelToken *cancel = nullptr; ///< stops the searches (SearchCancelled) when set
};

struct CandidateSet {
    std::vector<BenchCandidate> candidates; ///< beam first (by predicted cost), then greedy
    double beamSearchMs = 0;
    double greedySearchMs = 0; ///< all greedy searches together
    int duplicates = 0;        ///< greedy results equal to an earlier candidate
};

/// Runs the beam search and the greedy searches; duplicates (same schedule JSON) are dropped.
/// Throws SearchCancelled when options.cancel is set.
CandidateSet sampleCandidates(std::shared_ptr<const FunctionDAG> dag,
                              const CandidateOptions &options);

/// The `k` best complete states of `best` (may be null) and `beam`, by predicted cost, labelled
/// "beam#0".."beam#k-1"; a state that appears twice (same schedule JSON) is taken once.
std::vector<BenchCandidate> topOfBeam(const BeamEntry *best, const std::vector<BeamEntry> &beam,
                                      int k, double searchMs);

/// Appends options.greedySamples greedy searches with dropout (labelled "greedy#i") to `set`,
/// dropping (and counting in set.duplicates) schedules already in it. Throws SearchCancelled.
void addGreedySamples(const std::shared_ptr<const FunctionDAG> &dag,
                      const CandidateOptions &options, CandidateSet &set);

/// The total cost of a complete `state` on `gpu` by the model `costModel` names (makeCostModel:
/// analytic, polymage or a model file): ms, or PolyMage's unitless score.
double predictCost(const ScheduleState &state, const GpuSpec &gpu,
                   const std::string &costModel = "analytic");
/// The same with the GPU and cost model of `options`.
double predictCost(const ScheduleState &state, const SearchOptions &options);

} // namespace beamscope
