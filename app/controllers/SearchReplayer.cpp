// SearchReplayer: a private engine stepped to the asked step.
#include "controllers/SearchReplayer.h"

#include "util/Error.h"

#include <string>

namespace beamscope {

void SearchReplayer::reset(std::shared_ptr<const FunctionDAG> dag, SearchOptions options) {
    m_engine.reset();
    m_dag = std::move(dag);
    m_options = std::move(options);
}

int SearchReplayer::stepsDone() const {
    return m_engine && m_engine->lastStep() ? m_engine->lastStep()->index + 1 : 0;
}

SearchStepPtr SearchReplayer::stepAt(int k, const CancelToken *cancel) {
    if (!m_dag) throw UsageError("no search to replay");
    if (k < 0) throw UsageError("no step " + std::to_string(k) + " to replay");
    if (!m_engine || stepsDone() > k + 1) // past step k: start again from the seed
        m_engine = std::make_unique<SearchEngine>(m_dag, m_options);
    while (stepsDone() <= k) {
        if (m_engine->finished())
            throw Error("the search ends after " + std::to_string(stepsDone()) +
                        " steps: there is no step " + std::to_string(k + 1));
        m_engine->step(cancel);
    }
    return m_engine->lastStep();
}

} // namespace beamscope
