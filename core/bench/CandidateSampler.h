// CandidateSampler: the schedules a benchmark run considers (paper section 6): the top k of
// the final beam of one beam search, plus k greedy searches (beam 1, one pass) with random
// dropout, each with its own seed (dropout: cost/DropoutCostModel).
#pragma once

#include "search/SearchEngine.h"

#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// One schedule to benchmark.
struct BenchCandidate {
    std::string label; ///< "result", "beam#<row>", "greedy#0".."greedy#k-1"
    StatePtr state;
    double predicted = 0; ///< the (undropped) cost model's total (ms, or a score for polymage)
    double searchMs = 0;  ///< time of the search that produced it
};

struct CandidateOptions {
    SearchOptions search;       ///< the beam search (its seed s; greedy run i uses s + 1 + i)
    int topK = 5;               ///< entries taken from the final beam
    int greedySamples = 5;      ///< greedy searches with dropout
    double dropoutPercent = 10; ///< see DropoutCostModel (cost/DropoutCostModel.h)
    const CancelToken *cancel = nullptr; ///< stops the searches (SearchCancelled) when set
};

struct CandidateSet {
    std::vector<BenchCandidate> candidates; ///< beam first (by predicted cost), then greedy
    double beamSearchMs = 0;
    double greedySearchMs = 0; ///< all greedy searches together
    std::string freezing;      ///< the beam search's SearchEngine::freezingSummary()
    int duplicates = 0;        ///< greedy results equal to an earlier candidate
};

/// Runs the beam search and the greedy searches; duplicates (same schedule JSON) are dropped.
/// Throws SearchCancelled when options.cancel is set.
CandidateSet sampleCandidates(std::shared_ptr<const FunctionDAG> dag,
                              const CandidateOptions &options);

/// The `k` best complete states of `best` (the search's result; may be null) and `beam`, by
/// predicted cost, labelled "result" and "beam#<index in beam>" (the GUI's Beam dock rows, read
/// from 1: "beam #<index + 1>"); a state that appears twice (same schedule JSON) is taken once,
/// as the result when it is.
std::vector<BenchCandidate> topOfBeam(const BeamEntry *best, const std::vector<BeamEntry> &beam,
                                      int k, double searchMs);

/// Appends options.greedySamples greedy searches with dropout (labelled "greedy#i") to `set`,
/// dropping (and counting in set.duplicates) schedules already in it. Throws SearchCancelled.
void addGreedySamples(const std::shared_ptr<const FunctionDAG> &dag,
                      const CandidateOptions &options, CandidateSet &set);

} // namespace beamscope
