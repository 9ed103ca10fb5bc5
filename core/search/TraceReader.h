// TraceReader: a search trace (`beamscope-cli search --trace FILE`, one JSON line per step) read
// back and replayed. The lines hold what the trace compares, not loop nests, so the first line
// also carries the search itself ("search": pipeline source and options, GPU spec and pins
// inline); replay() runs that search again (it is deterministic) and checks every step against
// its line, so the views get whole steps that are exactly the ones the trace recorded.
#pragma once

#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace beamscope {

/// The search a trace was written by.
struct TraceSearch {
    PipelineSource source;
    SearchOptions options;
};

/// The "search" field of a trace's first line.
nlohmann::json traceSearchToJson(const PipelineSource &source, const SearchOptions &options);
/// Its inverse; throws Error naming the field that is missing or wrong.
TraceSearch traceSearchFromJson(const nlohmann::json &j);

/// A trace replayed: the pipeline's DAG and every step, whole (unless a sink took them).
struct TraceReplay {
    TraceSearch search;
    std::shared_ptr<const FunctionDAG> dag;
    std::vector<SearchStepPtr> steps;
};

/// Takes each replayed and checked step instead of TraceReplay::steps (e.g. to keep it compactly).
using TraceStepSink = std::function<void(const SearchStepPtr &)>;

class TraceReader {
public:
    /// Reads and parses every line; throws Error "trace 'PATH' line N: ..." for an unreadable
    /// file, an empty one, a line that is not a JSON object or a first line with no search.
    explicit TraceReader(std::string path);

    const TraceSearch &search() const { return m_search; }
    /// Number of step lines.
    size_t lines() const { return m_lines.size(); }

    /// Builds the pipeline, runs the search and compares each step with its line (the first
    /// differing field is named); throws Error "trace 'PATH' line N: ..." on a mismatch or a
    /// trace longer than the search. `progress(done, total)` is called after each step. With a
    /// `sink`, each checked step goes to it and TraceReplay::steps stays empty, so a long trace
    /// is never held whole.
    TraceReplay replay(const CancelToken *cancel = nullptr,
                       const std::function<void(int, int)> &progress = {},
                       const TraceStepSink &sink = {}) const;

private:
    std::string m_path;
    std::vector<std::string> m_lines; ///< each step line, dumped (first line less its search)
    TraceSearch m_search;
};

} // namespace beamscope
