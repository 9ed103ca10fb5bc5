// SearchWorker: pipeline loading, engine (re)creation and the stepping loop.
#include "controllers/SearchWorker.h"

#include "util/Error.h"

namespace beamscope {

std::shared_ptr<const FunctionDAG> SearchWorker::load(const PipelineSource &source,
                                                      const SearchOptions &options) {
    // Built before anything is dropped: a pipeline that fails leaves the loaded one searchable.
    auto dag = wrapHalideErrors("cannot analyze '" + source.name + "'", [&] {
        return std::make_shared<const FunctionDAG>(loadPipeline(source));
    });
    auto engine = std::make_unique<SearchEngine>(dag, options);
    m_dag = dag;
    m_engine = std::move(engine);
    m_stepsDone = 0;
    return dag;
}

void SearchWorker::configure(const SearchOptions &options) {
    m_engine.reset();
    m_stepsDone = 0;
    if (!m_dag) throw UsageError("no pipeline is loaded");
    m_engine = std::make_unique<SearchEngine>(m_dag, options);
}

void SearchWorker::advance(StopRule rule, int target, const CancelToken &cancel,
                           const std::function<void(const SearchStepPtr &)> &onStep) {
    if (!m_engine) throw UsageError("no pipeline is loaded");
    // A cancelled step leaves the engine where it was (SearchEngine rolls it back), so the
    // search simply goes on from there on the next request.
    while (!m_engine->finished()) {
        if (cancel.load(std::memory_order_relaxed)) throw SearchCancelled();
        if (rule == StopRule::StepCount && m_stepsDone >= target) return;
        const SearchStepPtr step = m_engine->step(&cancel);
        ++m_stepsDone;
        onStep(step);
        if (rule == StopRule::OneStep) return;
        if (rule == StopRule::PassEnd && step->passFinished) return;
    }
}

} // namespace beamscope
