// JobTracker: the one worker-thread helper of the Qt side (after KDAB/hotspot's job tracker).
// Work posted to it runs in order on its own worker QThread; whatever the work hands back goes
// to the GUI thread by a queued call and runs there only if, by then, (a) no newer generation
// has started (restart(): a stale result is dropped) and (b) the context object still lives (a
// dead receiver gets nothing). cancel() raises the cancel flag of every job posted so far
// without dropping their results (a paused search still shows its last step); restart() does
// both. SearchController, BenchmarkController, TuneController, ExplainJobs, the GUI's
// GeneratorLibraryLoader and CompareCoordinator, and the views' DagLayouter all use it. QtCore
// only, so the controllers (QtCore) and the views (Widgets) can both link it; it lives in its own
// library, beamscope_jobs.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

namespace beamscope {

class JobTracker {
    struct State;

public:
    /// What a posted job knows of itself: its generation, its cancel flag, and the way back to
    /// the GUI thread. Cheap to copy; valid on any thread.
    class Job {
    public:
        /// The generation the job was posted in.
        quint64 generation() const { return m_generation; }
        /// The flag to hand to core code (a CancelToken); it lives as long as this Job.
        const std::atomic<bool> &cancelFlag() const { return *m_cancel; }
        /// True once cancel() or restart() came after the job was posted.
        bool isCancelled() const;
        /// Queues `fn` to the GUI thread; it runs there unless the job's generation is stale or
        /// the context object is gone by then: then it is counted as dropped and `onDropped`
        /// (if any) runs on the GUI thread instead, e.g. to free the result elsewhere.
        void deliver(std::function<void()> fn, std::function<void()> onDropped = {}) const;
        /// As deliver(), for the job's last result: the job counts as finished (isBusy() and the
        /// busy callback) before `fn` runs, so a receiver of the result sees the tracker idle.
        void finish(std::function<void()> fn, std::function<void()> onDropped = {}) const;

    private:
        friend class JobTracker;
        void queue(std::function<void()> fn, std::function<void()> onDropped, bool last) const;
        std::shared_ptr<State> m_state;
        std::shared_ptr<std::atomic<bool>> m_cancel;
        std::shared_ptr<std::atomic<bool>> m_finished = std::make_shared<std::atomic<bool>>(false);
        quint64 m_generation = 0;
    };

    /// How the worker thread competes with the GUI thread for a core.
    enum class Priority {
        Normal,
        /// A few nice levels below the GUI thread (Linux: the thread's own nice value), for
        /// work that would otherwise hold the cores the GUI thread needs to paint, as a search
        /// does on a two-core machine. Not for work that spawns timed processes (they would
        /// inherit it): the benchmark's and tune's workers stay Normal.
        BelowGui,
    };
    /// Results are delivered while `context` lives (it must live on the GUI thread, as the
    /// tracker itself); `threadName` names the worker thread.
    JobTracker(QObject *context, const QString &threadName, Priority priority = Priority::Normal);
    /// Cancels every job, drops their pending results and joins the worker thread.
    ~JobTracker();
    JobTracker(const JobTracker &) = delete;
    JobTracker &operator=(const JobTracker &) = delete;

    /// Posts `work(const Job &)` to the worker thread, after every job posted before.
    void post(std::function<void(const Job &)> work);
    /// Runs `fn` on the worker thread, in order with the jobs, with no tracking (e.g. to free a
    /// big snapshot off the GUI thread).
    void runOnWorker(std::function<void()> fn);
    /// Starts a new generation: cancels every job posted so far and drops their results.
    quint64 restart();
    /// Raises the cancel flag of every job posted so far; their results still arrive.
    void cancel();

    /// The current generation (0 before the first restart()).
    quint64 generation() const;
    /// True while a posted job has not finished (as seen from the GUI thread).
    bool isBusy() const;
    /// Results dropped because they were stale or their context had gone.
    int droppedResults() const;
    /// Called on the GUI thread when isBusy() changes.
    void setBusyCallback(std::function<void(bool)> callback);

private:
    void jobFinished();

    std::shared_ptr<State> m_state;
    QThread m_thread;
    QObject *m_workerContext = nullptr;  ///< lives in m_thread; runs the posted work
    std::unique_ptr<QObject> m_receiver; ///< lives on the GUI thread; receives deliveries
    int m_pending = 0;
    std::function<void(bool)> m_busyCallback;
};

} // namespace beamscope
