// SearchWorker: what SearchController keeps on its worker thread — the pipeline's DAG, the
// SearchEngine and its options — and the blocking operations on them. Qt-free, and only ever
// touched from that one thread, so it needs no locking.
#pragma once

#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"

#include <functional>
#include <memory>

namespace beamscope {

/// When a run of steps stops (besides the end of the search and cancellation).
enum class StopRule { OneStep, PassEnd, SearchEnd, StepCount };

class SearchWorker {
public:
    /// Builds the pipeline, its DAG and a fresh engine. Throws Error.
    std::shared_ptr<const FunctionDAG> load(const PipelineSource &source,
                                            const SearchOptions &options);
    /// Replaces the engine by a fresh one over the loaded DAG. Throws Error (e.g. bad pins).
    void configure(const SearchOptions &options);

    /// Steps until `rule` holds (StepCount: until `target` steps are done), the search ends, or
    /// `cancel` is set; calls `onStep` after every step. Throws SearchCancelled, Error.
    void advance(StopRule rule, int target, const CancelToken &cancel,
                 const std::function<void(const SearchStepPtr &)> &onStep);

    bool hasEngine() const { return m_engine != nullptr; }
    /// Steps taken by the current engine.
    int stepsDone() const { return m_stepsDone; }
    int estimatedSteps() const { return m_engine ? m_engine->estimatedSteps() : 0; }

private:
    std::shared_ptr<const FunctionDAG> m_dag;
    std::unique_ptr<SearchEngine> m_engine;
    int m_stepsDone = 0;
};

} // namespace beamscope
