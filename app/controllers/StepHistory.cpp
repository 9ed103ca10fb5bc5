// StepHistory: compact copies of steps and the record list.
#include "controllers/StepHistory.h"

#include "util/Error.h"

#include <string>

namespace beamscope {

SearchStepPtr StepHistory::compact(const SearchStep &step) {
    auto out = std::make_shared<SearchStep>();
    out->index = step.index;
    out->pass = step.pass;
    out->passes = step.passes;
    out->hashDepth = step.hashDepth;
    out->node = step.node;
    out->func = step.func;
    out->phase = step.phase;
    out->beam = step.beam;
    out->frozen = step.frozen;
    out->freezing = step.freezing;
    out->freezeRanking = step.freezeRanking; // shared by the steps after the pre-pass
    out->counters = step.counters;
    out->timings = step.timings;
    out->termNames = step.termNames;
    out->passFinished = step.passFinished;
    out->finished = step.finished;
    out->best = step.best;
    return out;
}

HistoryRecord StepHistory::record(const SearchStepPtr &step, bool keepWhole) {
    HistoryRecord r;
    r.step = keepWhole ? step : compact(*step);
    r.complete = keepWhole;
    r.candidates = int(step->candidates.size());
    r.buckets = int(step->buckets.size());
    r.pruned = int(step->pruned.size());
    for (const StepCandidate &c : step->candidates)
        r.sampled += c.sampled ? 1 : 0;
    r.bestCost = cheapestInBeam(*step);
    return r;
}

void StepHistory::append(HistoryRecord record) {
    if (!record.step || record.step->index != size())
        throw Error("step history: expected step " + std::to_string(size()) + ", got " +
                    (record.step ? std::to_string(record.step->index) : std::string("none")));
    m_records.push_back(std::move(record));
}

const HistoryRecord &StepHistory::at(int k) const {
    if (k < 0 || k >= size())
        throw Error("step history: no step " + std::to_string(k) + " (" + std::to_string(size()) +
                    " kept)");
    return m_records[size_t(k)];
}

size_t StepHistory::ownBytes() const {
    size_t bytes = m_records.capacity() * sizeof(HistoryRecord);
    for (const HistoryRecord &r : m_records) {
        if (r.complete) continue; // a trace's steps are the history's own, not counted here
        const SearchStep &s = *r.step;
        bytes += sizeof(SearchStep) + s.func.capacity() + s.freezing.capacity() +
                 s.frozen.capacity() * sizeof(int);
        auto entryBytes = [](const BeamEntry &e) {
            return sizeof(BeamEntry) + e.decision.capacity() +
                   e.cost.stages.capacity() * sizeof(StageCost);
        };
        for (const BeamEntry &e : s.beam)
            bytes += entryBytes(e);
        if (s.best) bytes += entryBytes(*s.best);
        for (const std::string &t : s.termNames)
            bytes += sizeof(std::string) + t.capacity();
    }
    return bytes;
}

} // namespace beamscope
