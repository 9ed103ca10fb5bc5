// sampleCandidates: one beam search, then greedy searches with dropout.
#include "bench/CandidateSampler.h"

#include "cost/CostModelFactory.h"
#include "cost/CostOf.h"
#include "cost/DropoutCostModel.h"
#include "schedule/ScheduleIO.h"

#include <set>

namespace beamscope {

namespace {
std::string scheduleKey(const BenchCandidate &c) {
    return scheduleToJson(*c.state).dump();
}
} // namespace

std::vector<BenchCandidate> topOfBeam(const BeamEntry *best, const std::vector<BeamEntry> &beam,
                                      int k, double searchMs) {
    // Named as the GUI's Beam dock lists them: the search's result, then the beam's rows by
    // their index (its order, read from 1 in words: "beam#2" is row 3).
    std::vector<BenchCandidate> all;
    if (best && best->state && best->state->complete())
        all.push_back({"result", best->state, best->cost.total, searchMs});
    for (size_t row = 0; row < beam.size(); ++row) {
        const BeamEntry &e = beam[row];
        if (e.state && e.state->complete())
            all.push_back({"beam#" + std::to_string(row), e.state, e.cost.total, searchMs});
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const auto &a, const auto &b) { return a.predicted < b.predicted; });
    std::vector<BenchCandidate> taken;
    std::set<std::string> seen;
    for (BenchCandidate &c : all) {
        if (int(taken.size()) >= k) break;
        if (!seen.insert(scheduleKey(c)).second) continue;
        taken.push_back(std::move(c));
    }
    return taken;
}

void addGreedySamples(const std::shared_ptr<const FunctionDAG> &dag,
                      const CandidateOptions &options, CandidateSet &set) {
    std::set<std::string> seen;
    for (const BenchCandidate &c : set.candidates)
        seen.insert(scheduleKey(c));
    // Greedy samples: beam 1, one pass, seed s + 1 + i, dropout through the cost model.
    const int decisions = 2 * dag->funcCount();
    for (int i = 0; i < options.greedySamples; ++i) {
        SearchOptions greedy = SearchOptions::greedyFrom(options.search);
        greedy.seed = options.search.seed + 1 + uint64_t(i);
        auto model = std::make_shared<DropoutCostModel>(
            makeCostModel(greedy.costModel, greedy.gpu), options.dropoutPercent, decisions,
            greedy.seed * 0x9E3779B97F4A7C15ULL + 0xD209);
        SearchEngine engine(dag, greedy, model);
        engine.run(options.cancel);
        set.greedySearchMs += engine.elapsedMs();
        const BeamEntry *best = engine.best();
        if (!best || !best->state->complete()) continue;
        BenchCandidate c{"greedy#" + std::to_string(i), best->state,
                         costOf(*best->state, greedy.costModel, greedy.gpu).cost.total,
                         engine.elapsedMs()};
        if (seen.insert(scheduleKey(c)).second)
            set.candidates.push_back(std::move(c));
        else
            ++set.duplicates;
    }
}

CandidateSet sampleCandidates(std::shared_ptr<const FunctionDAG> dag,
                              const CandidateOptions &options) {
    CandidateSet set;
    // The beam search: its best state, then the final beam by predicted cost.
    SearchEngine beam(dag, options.search);
    beam.run(options.cancel);
    set.beamSearchMs = beam.elapsedMs();
    set.freezing = beam.freezingSummary();
    set.candidates = topOfBeam(beam.best(), beam.lastStep()->beam, options.topK, set.beamSearchMs);
    addGreedySamples(dag, options, set);
    return set;
}

} // namespace beamscope
