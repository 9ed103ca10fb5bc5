// SearchReplayer: a private engine stepped to the asked step.
#include "controllers/SearchReplayer.h"

#include "util/Error.h"

#include <string>

namespace beamscope {

void SearchReplayer::reset(std::shared_ptr<const FunctionDAG> dag, SearchOptions options) {
    m_engine.reset();
    m_dag = std::move(dag);
    m_options = std::move(options);
}

int SearchReplayer::stepsDone() const {
    return m_engine && m_engine->lastStep() ? m_engine->lastStep()->index + 1 : 0;
}

SearchStepPtr SearchReplayer::stepAt(int k, const CancelToken *cancel) {
    if (!m_dag) throw UsageError("no search to replay");
    if (k < 0) throw UsageError("no step " + std::to_string(k) + " to replay");
    if (!m_engine || stepsDone() > k + 1) // past step k: start again from the seed
        m_engine = std::make_unique<SearchEngine>(m_dag, m_options);
    while (stepsDone() <= k) {
        if (m_engine->finished())
            throw Error("the search ends after " + std::to_string(stepsDone()) +
                        " steps: there is no step " + std::to_string(k + 1));
        m_engine->step(cancel);
    }
    return m_engine->lastStep();
}

std::string SearchReplayer::mismatch(const HistoryRecord &record, const SearchStep &whole) {
    const auto same = [](double x, double y) { return x == y || (x != x && y != y); };
    const SearchStep &a = *record.step;
    if (a.index != whole.index || a.pass != whole.pass || a.node != whole.node ||
        a.phase != whole.phase)
        return "header";
    if (a.beam.size() != whole.beam.size()) return "beam";
    for (size_t i = 0; i < a.beam.size(); ++i) {
        const BeamEntry &x = a.beam[i], &y = whole.beam[i];
        if (x.hash != y.hash || x.decision != y.decision || !same(x.cost.total, y.cost.total) ||
            !same(x.rankCost, y.rankCost))
            return "beam";
    }
    if (a.best.has_value() != whole.best.has_value() ||
        (a.best && !same(a.best->cost.total, whole.best->cost.total)))
        return "best";
    if (a.frozen != whole.frozen) return "frozen";
    const SearchCounters &p = a.counters, &q = whole.counters;
    if (p.enumerated != q.enumerated || p.pruned != q.pruned || p.evaluated != q.evaluated)
        return "counters";
    int sampled = 0;
    for (const StepCandidate &c : whole.candidates)
        sampled += c.sampled ? 1 : 0;
    if (record.candidates != int(whole.candidates.size()) || record.sampled != sampled ||
        record.buckets != int(whole.buckets.size()) || record.pruned != int(whole.pruned.size()))
        return "candidates";
    return {};
}

} // namespace beamscope
