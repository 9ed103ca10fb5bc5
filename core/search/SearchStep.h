// SearchStep: the immutable snapshot the engine returns after each decision — the beam, the
// step's candidates in buckets, pruned candidates with reasons, frozen stages, counters, times.
#pragma once

#include "cost/CostModel.h"
#include "search/Sampler.h"
#include "search/SearchSpace.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// A state in the beam, with its cost (and the penalized cost it was ranked by).
struct BeamEntry {
    StatePtr state;
    StateCost cost;
    double rankCost = 0;  ///< cost after the penalties of section 4.5
    uint64_t hash = 0;    ///< search hash at the pass's sampling depth
    std::string decision; ///< the decision that produced it
};

/// One enumerated candidate of the step. Only sampled (and carried-over) candidates are
/// materialized as states; the others keep their derivation, which materialize() turns into a
/// state on demand (e.g. when a user opens a candidate's loop nest).
struct StepCandidate {
    StatePtr state;   ///< set when sampled or carried over
    Derivation child; ///< the decision on top of the parent beam state (unset when carried)
    std::string label;
    int parent = -1; ///< index into the previous beam
    uint64_t hash = 0;
    bool sampled = false;   ///< chosen as a bucket representative and evaluated
    bool penalized = false; ///< charged a penalty (4.5) when the beam was selected
    bool inBeam = false;
    double cost = std::numeric_limits<double>::quiet_NaN(); ///< NaN unless evaluated

    /// The candidate as a state.
    StatePtr materialize() const { return state ? state : child.materialize(); }
};

/// Counters, cumulative over the search so far.
struct SearchCounters {
    int64_t enumerated = 0;
    int64_t pruned = 0;
    int64_t evaluated = 0;
    int64_t featurizations = 0;
    int64_t memoHits = 0;
    int64_t memoMisses = 0;
};

/// Wall time of this step's activities, milliseconds (not part of the deterministic trace).
struct StepTimings {
    double enumerate = 0, sample = 0, featurize = 0, cost = 0, select = 0;
    double total() const { return enumerate + sample + featurize + cost + select; }
};

/// One Func of freezing's ranking: its cost in the pre-pass's best state (its stages' costs,
/// an inlined Func's compute its own: funcCostsForFreezing) and whether it was frozen.
struct FreezeRank {
    int node = -1;
    double cost = 0;
    bool frozen = false;
};

struct SearchStep {
    int index = 0;     ///< 0-based step number
    int pass = 0;      ///< 0 for the freezing pre-pass, then 1..passes
    int passes = 0;    ///< main passes of the search (the pre-pass replaces one)
    int hashDepth = 0; ///< sampling depth: pass - 1 (-1 in the pre-pass: a bucket per parent)
    int node = -1;     ///< the Func decided
    std::string func;
    Phase phase = Phase::ComputeLocation;
    std::vector<BeamEntry> beam;
    std::vector<StepCandidate> candidates;
    std::vector<Bucket> buckets;
    std::vector<PrunedCandidate> pruned;
    std::vector<int> frozen; ///< frozen Funcs (node indices)
    /// The Funcs of freezing's N, cheapest first, from the step that ends the pre-pass on
    /// (shared by those steps); null before it and without freezing.
    std::shared_ptr<const std::vector<FreezeRank>> freezeRanking;
    /// Whether the search freezes, and why not when it does not (SearchEngine::freezingSummary).
    std::string freezing;
    SearchCounters counters;
    StepTimings timings;
    /// The names of the cost terms of the model that costed this step (CostModel::termNames()).
    std::vector<std::string> termNames;
    bool passFinished = false;
    bool finished = false; ///< the whole search is done
    /// The best complete state found so far (SearchEngine::best()); unset until a pass ends.
    std::optional<BeamEntry> best;
};

using SearchStepPtr = std::shared_ptr<const SearchStep>;

/// The entry of `beam` with the lowest predicted cost among those `keep` accepts (the first of
/// equals); null if none. The beam is in penalized order (4.5), so this need not be the first.
template <typename Keep>
const BeamEntry *cheapestEntry(const std::vector<BeamEntry> &beam, Keep keep) {
    const BeamEntry *cheapest = nullptr;
    for (const BeamEntry &e : beam) {
        if (keep(e) && (!cheapest || e.cost.total < cheapest->cost.total)) cheapest = &e;
    }
    return cheapest;
}

inline const BeamEntry *cheapestEntry(const std::vector<BeamEntry> &beam) {
    return cheapestEntry(beam, [](const BeamEntry &) { return true; });
}

/// The row of the beam's cheapest entry (the views' "best of the beam"); -1 for an empty beam.
inline int cheapestRow(const std::vector<BeamEntry> &beam) {
    const BeamEntry *cheapest = cheapestEntry(beam);
    return cheapest ? int(cheapest - beam.data()) : -1;
}

/// The cheapest complete state of `beam`; on a pass's final beam, the pass's result
/// (SearchEngine; the reference returns the first in penalized order, see docs/design-notes.md).
inline const BeamEntry *cheapestComplete(const std::vector<BeamEntry> &beam) {
    return cheapestEntry(beam, [](const BeamEntry &e) { return e.state && e.state->complete(); });
}

/// The lowest predicted cost in the step's beam; NaN for an empty beam.
inline double cheapestInBeam(const SearchStep &step) {
    const BeamEntry *e = cheapestEntry(step.beam);
    return e ? e->cost.total : std::numeric_limits<double>::quiet_NaN();
}

} // namespace beamscope
