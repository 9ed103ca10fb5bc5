// SearchController: drives one SearchEngine on a worker QThread for the GUI. Requests are queued
// to the worker; results come back to the GUI thread as immutable snapshots by queued calls.
// Every load/reconfigure/reset starts a new generation of its JobTracker: results of an older
// generation that arrive late are dropped. pause() sets the cancel token of every
// request posted so far. While a run goes on, the worker puts every step in a StepMailbox and the
// GUI thread takes them on a timer, so that however fast the search steps the views get a batch at
// a time and the event loop stays free: historyAppended() and bestCostRecorded() come for every
// step, progress() and countersChanged() once a batch, stepped() at most every
// snapshotIntervalMs and always for the last step of a request.
// Every step is also kept in a StepHistory (compact records made on the worker); showStep(k)
// shows an older step again without touching the search: its record at once, then the whole step
// (candidates, buckets, pruned) replayed from the seed on a second worker thread. A new step
// brings the views back to the newest. A trace's compact steps can fill the history read-only
// (replayed on demand with the trace's options).
#pragma once

#include "controllers/JobTracker.h"
#include "controllers/MetaTypes.h"
#include "controllers/StepHistory.h"
#include "controllers/StepMailbox.h"
#include "pipeline/PipelineSource.h"
#include "search/SearchEngine.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace beamscope {

class SearchReplayer;
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

    /// Every step of the current search so far, as delivered (compact records unless read-only).
    const StepHistory &history() const { return m_history; }
    /// The history step the views show; -1 while they follow the newest step.
    int shownStep() const { return m_shown; }
    /// True while the history came from a trace (setReadOnlyHistory): there is nothing to step.
    bool isReadOnly() const { return m_readOnly; }
    /// Whole steps replayed for showStep() (for tests: a step shown again is not replayed twice).
    int replaysDone() const { return m_replays; }

public Q_SLOTS:
    /// Builds the pipeline and a fresh engine with `options`; emits loaded() then searchReset().
    /// The running search stops at once; a pipeline that fails to build (error()) leaves the
    /// loaded one, its search and its history as they were.
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
    /// Shows history step `k` (0-based): stepShown() with its record now and, when the record
    /// is compact, again with the whole step once replayed. Never changes the search. The
    /// newest step (or k = -1) goes back to following the search.
    void showStep(int k);
    /// Back to the newest step (what Step and Run continue from).
    void showNewest() { showStep(-1); }
    /// Replaces the search by an opened trace's steps over `dag` (read-only: steps are shown, not
    /// taken). `records` are compact (StepHistory::record of each checked step, 0, 1, ...),
    /// `newest` the last step whole; an older step is shown as a live history's is, replayed from
    /// the trace's search `options` and checked against its record (a mismatch is one error
    /// naming `origin`'s line). Emits loaded(), searchReset(), historyAppended() and
    /// bestCostRecorded() per step, then stepped() with `newest`. Throws Error when the records
    /// are not 0, 1, ... or `newest` is not the last of them.
    void setReadOnlyHistory(beamscope::DagPtr dag, const beamscope::SearchOptions &options,
                            std::vector<beamscope::HistoryRecord> records,
                            beamscope::SearchStepPtr newest, const QString &origin);

Q_SIGNALS:
    /// A pipeline was loaded and analyzed.
    void loaded(beamscope::DagPtr dag);
    /// A fresh engine is ready: no steps taken yet.
    void searchReset(int estimatedSteps);
    /// A new snapshot (always the latest step when a request ends).
    void stepped(beamscope::SearchStepPtr step);
    /// After every step: the best cost in the beam (ms), for a cost-per-step history.
    void bestCostRecorded(int stepIndex, int pass, double bestCost);
    /// After every batch of steps: steps done and the estimated total.
    void progress(int done, int estimated);
    /// After every batch of steps: the cumulative counters.
    void countersChanged(const beamscope::SearchCounters &counters);
    /// The search reached its end.
    void finished();
    /// Step `k` was added to history() (k = history().size() - 1).
    void historyAppended(int k);
    /// The views should show `step`, history step `k`; `newest` when it is the newest step
    /// (they follow the search again). For an older step this comes once with its compact
    /// record (`whole` false) and again with the replayed step (`whole` true).
    void stepShown(beamscope::SearchStepPtr step, int k, bool newest, bool whole);
    /// A request failed; `message` is one line fit for a user.
    void error(const QString &message);
    void busyChanged(bool busy);

private:
    void advance(StopRule rule, int target);
    /// Takes the running search's steps from the mailbox (the pull timer; `requestEnded`: the
    /// request's last delivery, which always shows its newest step).
    void pullSteps(bool requestEnded);
    /// The history records and per-step signals of a batch, then progress and counters.
    void applySteps(StepMailbox::Batch &batch);
    /// A whole step to the views: stepped(), and finished() at the search's end.
    void showSnapshot(SearchStepPtr step);
    /// A new mailbox for a new generation (what an older request still puts in is never taken).
    void freshMailbox();
    void newGeneration();
    /// Forgets the search's steps (history, last step, replays); newGeneration and a load that
    /// succeeded call it.
    void clearHistory();
    void deliverError(const JobTracker::Job &job, const QString &message);
    /// The whole step `k` from the small cache of whole steps, else nullptr.
    SearchStepPtr cachedWhole(int k) const;
    void cacheWhole(SearchStepPtr step);
    void replayStep(int k);
    /// Frees the replayer's engine (on its thread) once the views are back at the newest.
    void releaseReplayer();

    std::unique_ptr<SearchWorker> m_worker;     ///< touched only from the tracker's worker thread
    std::unique_ptr<SearchReplayer> m_replayer; ///< touched only from m_replayJobs' thread
    int m_snapshotIntervalMs = 100;
    std::shared_ptr<StepMailbox> m_mailbox = std::make_shared<StepMailbox>();
    QTimer m_pullTimer;            ///< runs while a request does: takes its steps
    QElapsedTimer m_sinceSnapshot; ///< since the last stepped()

    PipelineSource m_source;
    SearchOptions m_options;
    DagPtr m_dag;
    SearchStepPtr m_lastStep;
    int m_stepsDone = 0;
    int m_estimatedSteps = 0;
    StepHistory m_history;
    int m_shown = -1;             ///< history step on screen, -1: the newest
    bool m_readOnly = false;      ///< the history is a trace's
    SearchOptions m_traceOptions; ///< the trace's search (read-only), what its steps replay with
    QString m_traceOrigin;        ///< "trace 'PATH'": who a mismatched replay names
    bool m_replayerReady = false; ///< the replayer has this generation's DAG and options
    quint64 m_showRequest = 0;    ///< the latest showStep(); older replays are not shown
    int m_replays = 0;
    std::vector<SearchStepPtr> m_wholeCache; ///< a few whole steps replayed lately, newest last
    JobTracker m_replayJobs;                 ///< replays whole steps beside the search
    JobTracker m_jobs;                       ///< last: joined before the members its jobs use go
};

} // namespace beamscope
