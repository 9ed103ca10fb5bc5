// SearchController: drives one SearchEngine on a worker QThread for the GUI. Requests are queued
// to the worker; results come back to the GUI thread as immutable snapshots by queued calls.
// Every load/reconfigure/reset starts a new generation of its JobTracker: results of an older
// generation that arrive late are dropped. pause() sets the cancel token of every
// request posted so far. While a run goes on, snapshots are throttled (stepped() at most every
// snapshotIntervalMs); progress() and bestCostRecorded() come for every step.
#pragma once

#include "controllers/MetaTypes.h"
#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"
#include "views/jobs/JobTracker.h"

#include <QObject>
#include <QString>

#include <memory>

namespace beamscope {

class SearchWorker;
enum class StopRule;

class SearchController : public QObject {
    Q_OBJECT
public:
    explicit SearchController(QObject *parent = nullptr);
    /// Cancels the running request and joins the worker thread.
    ~SearchController() override;

    /// True while a request is queued or running on the worker.
    bool isBusy() const { return m_jobs.isBusy(); }
    /// The loaded pipeline's DAG (nullptr before the first successful load).
    DagPtr dag() const { return m_dag; }
    /// The latest snapshot delivered (nullptr right after a load or reset).
    SearchStepPtr lastStep() const { return m_lastStep; }
    /// Steps the current engine has taken, as last reported.
    int stepsDone() const { return m_stepsDone; }
    int estimatedSteps() const { return m_estimatedSteps; }
    bool searchFinished() const { return m_lastStep && m_lastStep->finished; }
    const PipelineSource &source() const { return m_source; }
    const SearchOptions &options() const { return m_options; }
    /// Current generation; results of older ones are dropped.
    quint64 generation() const { return m_jobs.generation(); }
    /// Number of results dropped because their generation was stale (for tests and the log).
    int droppedResults() const { return m_jobs.droppedResults(); }
    /// Least time between two stepped() snapshots during a multi-step run (default 100 ms).
    void setSnapshotIntervalMs(int ms) { m_snapshotIntervalMs = ms; }
    /// Drops a reference to `snapshot` on the worker thread. Freeing a big step (tens of
    /// thousands of candidates) takes longer than the GUI thread may be blocked, so whoever may
    /// hold the last reference on the GUI thread hands it over here.
    void releaseOnWorker(SearchStepPtr snapshot);

public Q_SLOTS:
    /// Builds the pipeline and a fresh engine with `options`; emits loaded() then searchReset().
    void load(const beamscope::PipelineSource &source, const beamscope::SearchOptions &options);
    /// A fresh engine over the loaded DAG with new options (pins, beam, seed...).
    void reconfigure(const beamscope::SearchOptions &options);
    /// One decision for the whole beam.
    void stepOne();
    /// Steps until the current pass finishes.
    void stepPass();
    /// Steps until the search finishes.
    void runToEnd();
    /// Steps until the engine has taken `count` steps in all (replaying a session).
    void stepTo(int count);
    /// Cancels the running step and every request queued so far; the engine keeps its state.
    void pause();
    /// A fresh engine with the current options (same DAG, same seed): back to step 0.
    void reset();

Q_SIGNALS:
    /// A pipeline was loaded and analyzed.
    void loaded(beamscope::DagPtr dag);
    /// A fresh engine is ready: no steps taken yet.
    void searchReset(int estimatedSteps);
    /// A new snapshot (always the latest step when a request ends).
    void stepped(beamscope::SearchStepPtr step);
    /// After every step: the best cost in the beam (ms), for a cost-per-step history.
    void bestCostRecorded(int stepIndex, int pass, double bestCost);
    /// After every step: steps done and the estimated total.
    void progress(int done, int estimated);
    /// After every step: the cumulative counters.
    void countersChanged(const beamscope::SearchCounters &counters);
    /// The search reached its end.
    void finished();
    /// A request failed; `message` is one line fit for a user.
    void error(const QString &message);
    void busyChanged(bool busy);

private:
    void advance(StopRule rule, int target);
    void newGeneration();
    void deliverError(const JobTracker::Job &job, const QString &message);

    std::unique_ptr<SearchWorker> m_worker; ///< touched only from the tracker's worker thread
    int m_snapshotIntervalMs = 100;

    PipelineSource m_source;
    SearchOptions m_options;
    DagPtr m_dag;
    SearchStepPtr m_lastStep;
    int m_stepsDone = 0;
    int m_estimatedSteps = 0;
    JobTracker m_jobs; ///< last: joined before the members its jobs use go
};

} // namespace beamscope
