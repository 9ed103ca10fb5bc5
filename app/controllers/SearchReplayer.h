// SearchReplayer: recomputes a whole step of a search the history keeps only compactly, by
// replaying the search from its seed on a private engine (the engine is deterministic: the same
// DAG, options and seed give the same steps). Moving forward continues the private engine;
// moving back starts it again. mismatch() checks a replayed step against the record the history
// kept of it. Qt-free; used from one thread only.
#pragma once

#include "controllers/StepHistory.h"
#include "search/SearchEngine.h"

#include <memory>
#include <string>

namespace beamscope {

class SearchReplayer {
public:
    /// The search to replay from now on (drops the private engine).
    void reset(std::shared_ptr<const FunctionDAG> dag, SearchOptions options);
    /// Step `k` (0-based) as the search produced it. Throws Error when the search ends before
    /// step k, SearchCancelled when `cancel` is set (the private engine stays consistent).
    SearchStepPtr stepAt(int k, const CancelToken *cancel = nullptr);
    /// Frees the private engine (its beam and featurization memo); the next stepAt() starts again.
    void release() { m_engine.reset(); }
    /// Steps the private engine has taken (for tests: a forward move does not start again).
    int stepsDone() const;

    /// Empty when `whole` is the step `record` was made of (header, beam hashes, decisions and
    /// costs, best, frozen Funcs, counters, the step's counts); else the first field that differs.
    static std::string mismatch(const HistoryRecord &record, const SearchStep &whole);

private:
    std::shared_ptr<const FunctionDAG> m_dag;
    SearchOptions m_options;
    std::unique_ptr<SearchEngine> m_engine;
};

} // namespace beamscope
