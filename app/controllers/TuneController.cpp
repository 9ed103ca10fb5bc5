// TuneController: the tune run posted to the JobTracker's worker with its own database
// connection, its callbacks turned into queued signals, stale generations dropped.
#include "controllers/TuneController.h"

#include "store/MeasurementStore.h"
#include "util/Error.h"

#include <utility>

namespace beamscope {

TuneController::TuneController(QObject *parent)
    : MeasureController(QStringLiteral("beamscope-tune"), parent) {
    qRegisterMetaType<Measurement>();
    qRegisterMetaType<TuneProgress>();
    qRegisterMetaType<TuneRound>();
    qRegisterMetaType<TuneReportPtr>();
    qRegisterMetaType<RunnerProgress>();
}

TuneController::~TuneController() = default;

void TuneController::start(TuneOptions options) {
    options.origin = "gui-tune";
    post([this, options = std::move(options),
          databasePath = databasePath()](const JobTracker::Job &job) mutable {
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
        runAndDeliver<TuneReport>(
            job, QStringLiteral("unexpected error in the tune worker"),
            [&] {
                if (databasePath.isEmpty())
                    throw UsageError("tuning records into a measurement database, and none is "
                                     "set (File ▸ Measurement database…)");
                MeasurementStore store(databasePath.toStdString());
                options.store = &store;
                return std::make_shared<const TuneReport>(runTune(options));
            },
            [this](TuneReportPtr report) {
                m_lastReport = report;
                Q_EMIT finished(report);
            });
    });
}

} // namespace beamscope
