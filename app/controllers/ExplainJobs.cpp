// ExplainJobs: WhyNot and trace replays on worker threads, results delivered to the GUI thread.
#include "controllers/ExplainJobs.h"

#include "search/SearchEngine.h"

#include <exception>

namespace beamscope {

namespace {

QString firstLine(const char *what) {
    return QString::fromStdString(what).section(QLatin1Char('\n'), 0, 0);
}

} // namespace

ExplainJobs::ExplainJobs(QObject *parent)
    : QObject(parent), m_why(this, QStringLiteral("beamscope-why")),
      m_trace(this, QStringLiteral("beamscope-trace")) {}

ExplainJobs::~ExplainJobs() = default;

void ExplainJobs::askWhy(std::shared_ptr<const FunctionDAG> dag, const SearchOptions &options,
                         const Pin &decision) {
    m_why.restart();
    m_why.post([this, dag, options, decision](const JobTracker::Job &job) {
        if (job.isCancelled()) return;
        std::shared_ptr<const WhyResult> result;
        QString message;
        try {
            result = std::make_shared<const WhyResult>(
                whyNot(dag, options, decision, &job.cancelFlag()));
        } catch (const SearchCancelled &) {
            return;
        } catch (const std::exception &e) {
            message = firstLine(e.what());
        }
        job.finish([this, result, message] {
            if (result)
                Q_EMIT answered(result);
            else
                Q_EMIT failed(message);
        });
    });
}

void ExplainJobs::openTrace(const QString &path, TraceStepSink sink) {
    m_trace.restart();
    m_trace.post([this, path, sink = std::move(sink)](const JobTracker::Job &job) {
        if (job.isCancelled()) return;
        std::shared_ptr<const TraceReplay> replay;
        QString message;
        try {
            const TraceReader reader(path.toStdString());
            replay = std::make_shared<const TraceReplay>(reader.replay(
                &job.cancelFlag(),
                [this, &job](int done, int total) {
                    if (done % 16 == 0 || done == total)
                        job.deliver([this, done, total] { Q_EMIT traceProgress(done, total); });
                },
                sink));
        } catch (const SearchCancelled &) {
            return;
        } catch (const std::exception &e) {
            message = firstLine(e.what());
        }
        job.finish([this, path, replay, message] {
            if (replay) {
                Q_EMIT traceReplayed(path, replay);
            } else {
                Q_EMIT traceFailed();
                Q_EMIT failed(message);
            }
        });
    });
}

} // namespace beamscope
