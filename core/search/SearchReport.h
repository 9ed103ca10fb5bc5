// JSON reports of a search: the chosen schedule (beamscope-cli search --json) and one trace
// line per step (--trace). Both are deterministic except the fields named *_ms.
#pragma once

#include "search/SearchEngine.h"

#include <nlohmann/json.hpp>

namespace beamscope {

/// {"name", "decision", "consumer", "tiles": {"block", "thread", "serial"}, "cost"} per Func.
nlohmann::json funcsToJson(const ScheduleState &state, const StateCost &cost);

/// The schedule report: pipeline, cost, cost_terms, funcs, frozen, stats.
nlohmann::json searchResultToJson(const SearchEngine &engine);

/// One trace line for a step (no timings: traces compare byte for byte).
nlohmann::json stepToJson(const SearchStep &step, const FunctionDAG &dag);

/// A 64-bit hash as 16 hex digits.
std::string hashToHex(uint64_t hash);

} // namespace beamscope
