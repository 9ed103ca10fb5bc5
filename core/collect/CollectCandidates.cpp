// RandomCostModel and the beam / greedy / random mix of one pipeline's collected schedules.
#include "collect/CollectCandidates.h"

#include "cost/CostModelFactory.h"
#include "cost/CostOf.h"
#include "schedule/ScheduleIO.h"

#include <cmath>
#include <set>

namespace beamscope {

RandomCostModel::RandomCostModel(std::shared_ptr<CostModel> inner, std::uint64_t seed)
    : m_inner(std::move(inner)), m_rng(seed) {}

void RandomCostModel::enqueue(const ScheduleState &state,
                              std::vector<std::shared_ptr<const KernelFeatures>> features,
                              StateCost *out) {
    m_inner->enqueue(state, std::move(features), out);
    m_pending.push_back(out);
}

void RandomCostModel::evaluateAll() {
    m_inner->evaluateAll();
    for (StateCost *out : m_pending) {
        const double u = double(m_rng.next() >> 11) * (1.0 / 9007199254740992.0);
        out->total *= std::exp2(24.0 * u - 12.0);
    }
    m_pending.clear();
}

std::vector<BenchCandidate> collectCandidates(const std::shared_ptr<const FunctionDAG> &dag,
                                              const SearchOptions &search, int k,
                                              double dropoutPercent, const CancelToken *cancel) {
    const int randomCount = k / 4;
    const int greedyCount = k >= 2 ? std::max(1, k / 4) : 0;
    const int beamCount = std::max(1, k - randomCount - greedyCount);
    CandidateOptions co;
    co.search = search;
    co.topK = beamCount;
    co.greedySamples = greedyCount;
    co.dropoutPercent = dropoutPercent;
    co.cancel = cancel;
    CandidateSet set = sampleCandidates(dag, co);

    std::set<std::string> seen;
    for (const BenchCandidate &c : set.candidates)
        seen.insert(scheduleToJson(*c.state).dump());
    for (int i = 0; i < randomCount; ++i) {
        SearchOptions greedy = SearchOptions::greedyFrom(search);
        greedy.seed = search.seed + 1000 + std::uint64_t(i);
        auto model = std::make_shared<RandomCostModel>(makeCostModel(search.costModel, search.gpu),
                                                       greedy.seed * 0x9E3779B97F4A7C15ULL + 0x7A);
        SearchEngine engine(dag, greedy, model);
        engine.run(cancel);
        const BeamEntry *best = engine.best();
        if (!best || !best->state->complete()) continue;
        if (!seen.insert(scheduleToJson(*best->state).dump()).second) continue;
        set.candidates.push_back({"random#" + std::to_string(i), best->state,
                                  costOf(*best->state, search.costModel, search.gpu).cost.total,
                                  engine.elapsedMs()});
    }
    if (int(set.candidates.size()) > k) set.candidates.resize(size_t(k));
    return set.candidates;
}

} // namespace beamscope
