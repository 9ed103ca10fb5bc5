// CollectCandidates: the K schedules `collect` measures for one pipeline — the top of a beam
// search, greedy searches with dropout (DropoutCostModel) and random completions (greedy
// searches whose every choice is ranked by a random cost, RandomCostModel) — so that the rows
// span good and bad schedules, as the paper's training set does.
#pragma once

#include "bench/CandidateSampler.h"

#include <cstdint>
#include <memory>

namespace beamscope {

/// A cost model that ranks states at random: each state's total is the inner model's times a
/// log-uniform factor in [2^-12, 2^12], drawn from a seeded Rng. A greedy search with it makes
/// random choices among the (sampled) candidates: a random completion of the schedule.
class RandomCostModel : public CostModel {
public:
    RandomCostModel(std::shared_ptr<CostModel> inner, std::uint64_t seed);
    std::string name() const override { return m_inner->name() + "+random"; }
    std::vector<std::string> termNames() const override { return m_inner->termNames(); }
    void enqueue(const ScheduleState &state,
                 std::vector<std::shared_ptr<const KernelFeatures>> features,
                 StateCost *out) override;
    void evaluateAll() override;

private:
    std::shared_ptr<CostModel> m_inner;
    Rng m_rng;
    std::vector<StateCost *> m_pending;
};

/// Up to `k` distinct complete schedules of `dag`: about half from the top of a beam search
/// (options.search), a quarter greedy with dropout, a quarter random completions (labelled
/// beam#i, greedy#i, random#i). Predicted costs are the undisturbed model's. Throws
/// SearchCancelled when `cancel` is set.
std::vector<BenchCandidate> collectCandidates(const std::shared_ptr<const FunctionDAG> &dag,
                                              const SearchOptions &search, int k,
                                              double dropoutPercent, const CancelToken *cancel);

} // namespace beamscope
