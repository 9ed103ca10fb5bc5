// BenchmarkController: the benchmark posted to the JobTracker's worker, its callbacks turned into
// queued signals on the GUI thread, stale generations dropped.
#include "controllers/BenchmarkController.h"

#include "store/MeasurementStore.h"
#include "util/Error.h"

#include <optional>
#include <utility>

namespace beamscope {

BenchmarkController::BenchmarkController(QObject *parent)
    : QObject(parent), m_jobs(this, QStringLiteral("beamscope-bench")) {
    qRegisterMetaType<Measurement>();
    qRegisterMetaType<BenchReportPtr>();
    qRegisterMetaType<RunnerProgress>();
}

BenchmarkController::~BenchmarkController() = default;

void BenchmarkController::setBusy(bool busy) {
    if (busy == m_busy) return;
    m_busy = busy;
    Q_EMIT busyChanged(busy);
}

void BenchmarkController::cancel() {
    m_jobs.cancel();
}

void BenchmarkController::start(BenchOptions options) {
    m_jobs.restart(); // a run still going ends at once; its results are dropped
    setBusy(true);
    options.origin = "gui-bench";
    m_jobs.post([this, options = std::move(options),
                 databasePath = m_databasePath](const JobTracker::Job &job) mutable {
        // The database lives as long as the run; one that cannot be opened is one line and the
        // run goes on without recording.
        std::unique_ptr<MeasurementStore> store;
        if (!databasePath.isEmpty()) {
            try {
                store = std::make_unique<MeasurementStore>(databasePath.toStdString());
            } catch (const std::exception &e) {
                const QString message = QString::fromStdString(detail::firstLine(e.what()));
                job.deliver([this, message] { Q_EMIT storeUnavailable(message); });
            }
        }
        options.store = store.get();
        // A database that fails during the run says so once, in a line the status bar shows.
        options.progress = [this, job](const std::string &line) {
            if (line.rfind("measurement database", 0) != 0) return;
            const QString message = QString::fromStdString(line);
            job.deliver([this, message] { Q_EMIT storeUnavailable(message); });
        };
        options.cancel = &job.cancelFlag();
        options.onProgress = [this, job](const BenchProgress &p) {
            const QString label = QString::fromStdString(p.label);
            job.deliver([this, p, label] { Q_EMIT progress(p.done, p.total, label); });
        };
        options.onRunnerProgress = [this, job](const RunnerProgress &p) {
            job.deliver([this, p] { Q_EMIT runnerProgress(p); });
        };
        options.onMeasured = [this, job](const Measurement &m, bool baseline) {
            job.deliver([this, m, baseline] { Q_EMIT measured(m, baseline); });
        };
        std::optional<QString> failure;
        BenchReportPtr report;
        try {
            report = std::make_shared<const BenchReport>(runBenchmark(options));
        } catch (const std::exception &e) {
            failure = QString::fromStdString(detail::firstLine(e.what()));
        } catch (...) {
            failure = QStringLiteral("unexpected error in the benchmark worker");
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
