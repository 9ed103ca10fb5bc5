// MeasureController: the busy state, the worker and cancel the measuring controllers share.
#include "controllers/MeasureController.h"

#include <utility>

namespace beamscope {

MeasureController::MeasureController(const QString &threadName, QObject *parent)
    : QObject(parent), m_jobs(this, threadName) {}

void MeasureController::setBusy(bool busy) {
    if (busy == m_busy) return;
    m_busy = busy;
    Q_EMIT busyChanged(busy);
}

void MeasureController::cancel() {
    m_jobs.cancel();
}

void MeasureController::post(std::function<void(const JobTracker::Job &)> work) {
    m_jobs.restart(); // a run still going ends at once; its results are dropped
    setBusy(true);
    m_jobs.post(std::move(work));
}

} // namespace beamscope
