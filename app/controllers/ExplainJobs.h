// ExplainJobs: the two long core calls of the "explain" features, each on its own JobTracker
// worker so the GUI thread never waits: "why not?" (WhyNot: a whole search followed for one
// described decision) and opening a search trace (TraceReader: the search replayed and checked
// line by line; the caller's sink may keep the steps compactly). A newer request drops an older
// one's result.
#pragma once

#include "controllers/JobTracker.h"
#include "search/TraceReader.h"
#include "search/WhyNot.h"

#include <QObject>
#include <QString>

#include <memory>

namespace beamscope {

class ExplainJobs : public QObject {
    Q_OBJECT
public:
    explicit ExplainJobs(QObject *parent = nullptr);
    ~ExplainJobs() override;

    /// Runs the search of `options` over `dag` and answers for `decision`: answered() or failed().
    void askWhy(std::shared_ptr<const FunctionDAG> dag, const SearchOptions &options,
                const Pin &decision);
    /// Reads and replays the trace at `path`: traceReplayed() or failed(). Each checked step goes
    /// to `sink` on the worker thread when one is given (the replay's steps then stay empty).
    void openTrace(const QString &path, beamscope::TraceStepSink sink = {});
    /// True while a request runs.
    bool isBusy() const { return m_why.isBusy() || m_trace.isBusy(); }

Q_SIGNALS:
    void answered(std::shared_ptr<const beamscope::WhyResult> result);
    void traceReplayed(QString path, std::shared_ptr<const beamscope::TraceReplay> replay);
    /// One line fit for a user.
    void failed(QString message);
    /// An openTrace() failed (before failed()): what its sink kept can go.
    void traceFailed();
    /// A trace replay's progress (steps replayed of the lines).
    void traceProgress(int done, int total);

private:
    JobTracker m_why;
    JobTracker m_trace;
};

} // namespace beamscope
