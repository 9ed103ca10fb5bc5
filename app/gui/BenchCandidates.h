// BenchCandidates: the schedules a Benchmark dock run measures, taken from the step on screen as
// the dock's Measure box asks — by default the search's result alone (what Export saves and
// beamscope-cli bench measures first) — and labelled as the Beam dock names them.
#pragma once

#include "bench/CandidateSampler.h"
#include "search/SearchStep.h"
#include "views/benchmark/BenchPanel.h"

#include <vector>

namespace beamscope {

/// The candidates `settings` pick from `step`: "result" for the search's result (★ in the Beam
/// dock), "beam#i" for the Beam dock's row i + 1 (read "beam #r" in the Benchmark dock, as
/// beamscope-cli bench names them). Top k puts the result first and takes the beam's cheapest
/// complete states after it; a schedule is taken once.
std::vector<BenchCandidate> benchCandidates(const SearchStep &step, const BenchSettings &settings);

} // namespace beamscope
