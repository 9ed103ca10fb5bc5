// StepHistory: every step of a search, kept compactly so that any of them can be shown again.
// A record keeps what the DAG, loop nest, beam and cost views read (the beam with its states and
// costs, the best so far, frozen Funcs, counters, the step's header) and the step's sizes for the
// timeline; the candidates, buckets and pruned lists, which hold most of a step's memory, are
// dropped and recomputed on demand by replaying the search from its seed (SearchReplayer). Beam
// states are immutable and shared with the engine's own (a state keeps its parents alive), so a
// record costs little beyond its beam vector. A history filled from a trace file keeps whole
// steps instead (they cannot be replayed). Qt-free.
#pragma once

#include "search/SearchStep.h"

#include <cstddef>
#include <limits>
#include <vector>

namespace beamscope {

/// One step as the history keeps it.
struct HistoryRecord {
    /// The step: compact (no candidates, buckets or pruned) unless `complete`.
    SearchStepPtr step;
    bool complete = false; ///< the step as the engine produced it (from a trace: read-only)
    int candidates = 0;    ///< the step's counts, kept for the timeline
    int buckets = 0;
    int sampled = 0;
    int pruned = 0;
    /// Best cost in the beam after the step (ms); NaN for an empty beam.
    double bestCost = std::numeric_limits<double>::quiet_NaN();
};

class StepHistory {
public:
    /// `step` without its candidates, buckets and pruned lists (the rest shared or copied).
    static SearchStepPtr compact(const SearchStep &step);
    /// The record of `step`: compact when `keepWhole` is false.
    static HistoryRecord record(const SearchStepPtr &step, bool keepWhole);

    /// Appends the next step's record; its step index must be size().
    void append(HistoryRecord record);
    /// Forgets every step (a new search).
    void clear() { m_records.clear(); }
    int size() const { return int(m_records.size()); }
    bool empty() const { return m_records.empty(); }
    /// The record of step `k` (0-based; checked).
    const HistoryRecord &at(int k) const;
    const std::vector<HistoryRecord> &records() const { return m_records; }
    /// Bytes the records hold beyond the states they share with the search (an estimate: the
    /// beam vectors, their cost breakdowns and labels), for the memory figure.
    size_t ownBytes() const;

private:
    std::vector<HistoryRecord> m_records;
};

} // namespace beamscope
