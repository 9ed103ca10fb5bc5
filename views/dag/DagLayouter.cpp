// DagLayouter: a layout posted to the JobTracker, its result delivered unless stale.
#include "views/dag/DagLayouter.h"

#include "views/dag/GraphvizLayout.h"

#include <exception>

namespace beamscope {

DagLayouter::DagLayouter(QObject *parent)
    : QObject(parent), m_jobs(this, QStringLiteral("beamscope-layout")) {}

DagLayouter::~DagLayouter() = default;

void DagLayouter::layout(DagLayoutRequest request, std::shared_ptr<const void> keepAlive) {
    m_jobs.restart();
    m_jobs.post([this, request = std::move(request),
                 keepAlive = std::move(keepAlive)](const JobTracker::Job &job) {
        if (job.isCancelled()) return; // a newer layout is queued behind this one
        std::shared_ptr<const DagLayout> result;
        QString message;
        try {
            result = std::make_shared<const DagLayout>(computeDagLayout(request));
        } catch (const std::exception &e) {
            message = QString::fromUtf8(e.what());
        }
        job.finish([this, result, message] {
            if (result)
                Q_EMIT layoutReady(result);
            else
                Q_EMIT layoutFailed(message);
        });
    });
}

} // namespace beamscope
