// CandidateLabel: a measured candidate's label as people read it. Labels are identifiers that
// JSON reports, the measurement database and the tuner keep 0-based ("result" for the search's
// result, "beam#0" for the final beam's first row, "greedy#2", "r1:beam#0": round index 1); what
// the CLI's prose and the GUI say counts from 1, as the Beam dock's rows, the Timeline's steps
// and the Tune dock's rounds do ("beam #1", "greedy #3", "round 2, beam #1").
#pragma once

#include <string>

namespace beamscope {

/// "beam#0" -> "beam #1", "greedy#2" -> "greedy #3", "r1:beam#0" -> "round 2, beam #1"; any
/// other label ("result", "beam #3", "baseline:naive") unchanged.
std::string candidateLabelInWords(const std::string &label);

} // namespace beamscope
