// SessionFile: a Beamscope session as JSON — the pipeline (catalog app or generator, with its
// parameters), the search options (beam, passes, seed, strategies, GPU, pins) and the step the
// user was at, and the last benchmark's measurements. Reopening replays that many steps with
// the same seed: the engine is deterministic, so the same beam comes back; measurements are
// restored as they were (they cannot be replayed).
#pragma once

#include "bench/BenchRun.h"
#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace beamscope {

/// Everything needed to bring a search back to where the user left it.
struct Session {
    PipelineSource source;
    SearchOptions options;
    std::string gpuName; ///< preset name or JSON path the GPU spec came from (for the UI)
    int steps = 0;       ///< steps taken when saved
    /// The last benchmark (candidates, baselines, device, choice); absent in sessions saved
    /// before any benchmark ran, and in files written before measurements were saved.
    std::optional<BenchReport> benchmark;
};

/// {"format": "beamscope-session", "version": 1, "pipeline": {...}, "search": {...},
///  "gpu": {"name", "spec"}, "pins": [...], "steps": N, "benchmark": {BenchReport::toJson}}
/// ("benchmark" only when the session has one)
nlohmann::json sessionToJson(const Session &session);

/// Parses a session; throws Error naming the field for malformed input.
Session sessionFromJson(const nlohmann::json &json);

} // namespace beamscope
