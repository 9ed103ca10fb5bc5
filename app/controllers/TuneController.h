// TuneController: runs one autotuning loop (core runTune: rounds of search, measure, record,
// retrain) on a worker thread for the GUI's Tune dock, through the JobTracker, as
// BenchmarkController runs a benchmark. Progress, each measured row and each finished round come
// back as queued signals; cancel() stops the run after the row in flight (nothing measured is
// lost: every row is committed as soon as it is measured) and finished() brings what was done.
// A resumed run continues the same run id. The measurement database is opened on the worker from
// the path set here; one that cannot be opened is an error (a tune run needs it). The busy
// state, the worker and the delivery of the outcome are MeasureController's.
#pragma once

#include "controllers/BenchmarkController.h" // the Measurement metatype
#include "controllers/MeasureController.h"
#include "tune/Tuner.h"

#include <QMetaType>
#include <QString>

#include <memory>

namespace beamscope {
using TuneReportPtr = std::shared_ptr<const TuneReport>;
} // namespace beamscope

Q_DECLARE_METATYPE(beamscope::TuneProgress)
Q_DECLARE_METATYPE(beamscope::TuneRound)
Q_DECLARE_METATYPE(beamscope::TuneReportPtr)

namespace beamscope {

class TuneController : public MeasureController {
    Q_OBJECT
public:
    explicit TuneController(QObject *parent = nullptr);
    /// Cancels the running run (its worker process is killed) and joins the thread.
    ~TuneController() override;

    /// The report of the last run that ended (cancelled ones included); nullptr before.
    TuneReportPtr lastReport() const { return m_lastReport; }
    // setDatabasePath(): the database the runs record into and resume from (origin "gui-tune").

public Q_SLOTS:
    /// Runs `options` (its store, origin, cancel and callbacks are the controller's own and are
    /// replaced). A run still going is cancelled first and its late results are dropped.
    void start(beamscope::TuneOptions options);
    // cancel(): stops the run after the row in flight; finished() follows with what was done.

Q_SIGNALS:
    /// Where the run is (round, phase, jobs of the round done).
    void progress(const beamscope::TuneProgress &progress);
    /// A row was measured (failed ones included).
    void measured(const beamscope::Measurement &measurement);
    /// The runner's jobs per node (pending/running/done) in the batch being measured.
    void runnerProgress(const beamscope::RunnerProgress &progress);
    /// A round finished: its counts, best so far, the model's tau on its rows.
    void roundFinished(const beamscope::TuneRound &round);
    /// One human-readable line of the run (device, resume, database trouble).
    void logLine(const QString &line);
    /// The run ended, completely or cancelled.
    void finished(beamscope::TuneReportPtr report);

private:
    TuneReportPtr m_lastReport;
};

} // namespace beamscope
