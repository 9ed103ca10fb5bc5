// BenchmarkController: runs one benchmark (core runBenchmark: compile and measure candidate
// schedules and baselines in worker processes) on its own worker QThread for the GUI, so the GUI
// thread never waits on a compiler or a device. Rows come back one by one as they finish, with
// structured progress; cancel() kills the running worker and the run ends with what it measured.
// A newer start() cancels the older run and its late results are dropped (the JobTracker's
// generations). A failing candidate is a row with a failure, never an error. The busy state, the
// worker and the delivery of the outcome are MeasureController's (shared with TuneController).
#pragma once

#include "bench/BenchRun.h"
#include "controllers/MeasureController.h"

#include <QMetaType>
#include <QString>
#include <memory>

namespace beamscope {
using BenchReportPtr = std::shared_ptr<const BenchReport>;
} // namespace beamscope

Q_DECLARE_METATYPE(beamscope::Measurement)
Q_DECLARE_METATYPE(beamscope::BenchReportPtr)
Q_DECLARE_METATYPE(beamscope::RunnerProgress)

namespace beamscope {

class BenchmarkController : public MeasureController {
    Q_OBJECT
public:
    explicit BenchmarkController(QObject *parent = nullptr);
    /// Cancels the running benchmark (its worker process is killed) and joins the thread.
    ~BenchmarkController() override;

    /// The report of the last run that finished (cancelled ones included); nullptr before.
    BenchReportPtr lastReport() const { return m_lastReport; }
    /// The DAG that run was given (BenchOptions::dag; nullptr when it loaded its own): what its
    /// schedules are schedules of, to the size.
    std::shared_ptr<const FunctionDAG> lastReportDag() const { return m_lastReportDag; }
    quint64 generation() const { return m_jobs.generation(); }
    // setDatabasePath(): the database the next runs record into (origin "gui-bench"); "": none.

public Q_SLOTS:
    /// Runs a benchmark with `options` (its progress/onProgress/onMeasured/cancel are the
    /// controller's own and are replaced). A run still going is cancelled first.
    void start(beamscope::BenchOptions options);
    // cancel(): the worker process is killed, nothing further is measured, and finished() comes
    // with what was measured so far (report->cancelled set).

Q_SIGNALS:
    /// Before each compile/measure job: `done` of `total` jobs finished, `label` the next one.
    void progress(int done, int total, const QString &label);
    /// A row finished (candidate or baseline), failed ones included.
    void measured(const beamscope::Measurement &measurement, bool baseline);
    /// The runner's jobs per node (pending/running/done), each time its counts change.
    void runnerProgress(const beamscope::RunnerProgress &progress);
    /// The run ended (completely or cancelled).
    void finished(beamscope::BenchReportPtr report);
    // error(): bad options, no such device, pipeline not loadable.
    /// The measurement database could not be opened (one line); the run goes on without it.
    void storeUnavailable(const QString &message);

private:
    BenchReportPtr m_lastReport;
    std::shared_ptr<const FunctionDAG> m_lastReportDag;
};

} // namespace beamscope
