// BenchmarkController: the benchmark posted to the JobTracker's worker, its callbacks turned into
// queued signals on the GUI thread, stale generations dropped.
#include "controllers/BenchmarkController.h"

#include "store/MeasurementStore.h"
#include "util/Error.h"

#include <utility>

namespace beamscope {

BenchmarkController::BenchmarkController(QObject *parent)
    : MeasureController(QStringLiteral("beamscope-bench"), parent) {
    qRegisterMetaType<Measurement>();
    qRegisterMetaType<BenchReportPtr>();
    qRegisterMetaType<RunnerProgress>();
}

BenchmarkController::~BenchmarkController() = default;

void BenchmarkController::start(BenchOptions options) {
    options.origin = "gui-bench";
    post([this, options = std::move(options),
          databasePath = databasePath()](const JobTracker::Job &job) mutable {
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
        runAndDeliver<BenchReport>(
            job, QStringLiteral("unexpected error in the benchmark worker"),
            [&] { return std::make_shared<const BenchReport>(runBenchmark(options)); },
            [this, dag = options.dag](BenchReportPtr report) {
                m_lastReport = report;
                m_lastReportDag = dag;
                Q_EMIT finished(report);
            });
    });
}

} // namespace beamscope
