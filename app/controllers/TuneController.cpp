// TuneController: the tune run posted to the JobTracker's worker with its own database
// connection, its callbacks turned into queued signals, stale generations dropped.
#include "controllers/TuneController.h"

#include "store/MeasurementStore.h"
#include "util/Error.h"

#include <optional>
#include <utility>

namespace beamscope {

TuneController::TuneController(QObject *parent)
    : QObject(parent), m_jobs(this, QStringLiteral("beamscope-tune")) {
    qRegisterMetaType<Measurement>();
    qRegisterMetaType<TuneProgress>();
    qRegisterMetaType<TuneRound>();
    qRegisterMetaType<TuneReportPtr>();
    qRegisterMetaType<RunnerProgress>();
}

TuneController::~TuneController() = default;

void TuneController::setBusy(bool busy) {
    if (busy == m_busy) return;
    m_busy = busy;
    Q_EMIT busyChanged(busy);
}

void TuneController::cancel() {
    m_jobs.cancel();
}

void TuneController::start(TuneOptions options) {
    m_jobs.restart(); // a run still going stops; its results are dropped
    setBusy(true);
    options.origin = "gui-tune";
    m_jobs.post([this, options = std::move(options),
                 databasePath = m_databasePath](const JobTracker::Job &job) mutable {
        options.cancel = &job.cancelFlag();
        options.log = [this, job](const std::string &line) {
            const QString text = QString::fromStdString(line);
            job.deliver([this, text] { Q_EMIT logLine(text); });
        };
        options.onProgress = [this, job](const TuneProgress &p) {
            job.deliver([this, p] { Q_EMIT progress(p); });
        };
        options.onRunnerProgress = [this, job](const RunnerProgress &p) {
            job.deliver([this, p] { Q_EMIT runnerProgress(p); });
        };
        options.onMeasured = [this, job](const Measurement &m) {
            job.deliver([this, m] { Q_EMIT measured(m); });
        };
        options.onRound = [this, job](const TuneRound &r) {
            job.deliver([this, r] { Q_EMIT roundFinished(r); });
        };
        std::optional<QString> failure;
        TuneReportPtr report;
        try {
            if (databasePath.isEmpty())
                throw UsageError("tuning records into a measurement database, and none is set "
                                 "(File ▸ Measurement database…)");
            MeasurementStore store(databasePath.toStdString());
            options.store = &store;
            report = std::make_shared<const TuneReport>(runTune(options));
        } catch (const std::exception &e) {
            failure = QString::fromStdString(detail::firstLine(e.what()));
        } catch (...) {
            failure = QStringLiteral("unexpected error in the tune worker");
        }
        job.deliver([this, report, failure] {
            setBusy(false);
            if (failure) {
                Q_EMIT error(*failure);
            } else {
                m_lastReport = report;
                Q_EMIT finished(report);
            }
        });
    });
}

} // namespace beamscope
