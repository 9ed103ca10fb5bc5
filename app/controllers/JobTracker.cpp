// JobTracker: the worker thread, the shared state a Job sees, queued delivery with the
// generation and context checks done on the GUI thread (where both change).
#include "controllers/JobTracker.h"

#include "controllers/QueuedCall.h"

#include <QMetaObject>
#include <QtGlobal>

#include <algorithm>
#include <cerrno>
#include <exception>

#include <sys/resource.h>
#include <unistd.h>

namespace beamscope {

namespace {
constexpr int kBelowGuiNice = 4; ///< nice levels a Priority::BelowGui worker adds to its own
} // namespace

/// What the tracker and its Jobs share. `generation` is read on the worker thread (isCancelled);
/// everything else is touched on the GUI thread only.
struct JobTracker::State {
    std::atomic<quint64> generation{0};
    std::atomic<QObject *> receiver{nullptr};
    std::atomic<bool> closing{false}; ///< the tracker is being destroyed: start nothing more
    QPointer<QObject> context;
    std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
    int dropped = 0;
    std::function<void()> jobFinished; ///< the tracker's count of running jobs, one down
};

bool JobTracker::Job::isCancelled() const {
    return m_cancel->load(std::memory_order_relaxed) ||
           m_generation != m_state->generation.load(std::memory_order_relaxed);
}

void JobTracker::Job::deliver(std::function<void()> fn, std::function<void()> onDropped) const {
    queue(std::move(fn), std::move(onDropped), false);
}

void JobTracker::Job::finish(std::function<void()> fn, std::function<void()> onDropped) const {
    queue(std::move(fn), std::move(onDropped), true);
}

void JobTracker::Job::queue(std::function<void()> fn, std::function<void()> onDropped,
                            bool last) const {
    QObject *receiver = m_state->receiver.load();
    if (!receiver) return; // the tracker is gone (only possible from the GUI thread)
    if (last) m_finished->store(true);
    queuedCall(receiver, [state = m_state, generation = m_generation, fn = std::move(fn),
                          onDropped = std::move(onDropped), last] {
        // Runs only while the receiver, and so the tracker, lives.
        if (last && state->jobFinished) state->jobFinished();
        if (generation != state->generation.load() || !state->context) {
            ++state->dropped;
            if (onDropped) onDropped();
            return;
        }
        fn();
    });
}

JobTracker::JobTracker(QObject *context, const QString &threadName, Priority priority)
    : m_state(std::make_shared<State>()), m_receiver(std::make_unique<QObject>()) {
    m_state->context = context;
    m_state->receiver = m_receiver.get();
    m_state->jobFinished = [this] { jobFinished(); };
    // A dead receiver's work is told to stop too, not only denied its results.
    if (context) {
        QObject::connect(context, &QObject::destroyed, m_receiver.get(),
                         [state = m_state] { state->cancel->store(true); });
    }
    m_thread.setObjectName(threadName);
    m_workerContext = new QObject;
    m_workerContext->moveToThread(&m_thread);
    m_thread.start();
    if (priority == Priority::BelowGui) {
        // Linux gives each thread its own nice value; 4 levels weigh it 2.4x below the GUI
        // thread when both want a core (docs/performance.md, "GUI latency").
        QMetaObject::invokeMethod(m_workerContext, [] {
            errno = 0;
            const int nice = getpriority(PRIO_PROCESS, gettid());
            if (errno == 0) setpriority(PRIO_PROCESS, gettid(), std::min(nice + kBelowGuiNice, 19));
        });
    }
}

JobTracker::~JobTracker() {
    m_state->closing = true;
    m_state->cancel->store(true);
    ++m_state->generation;
    m_thread.quit();
    m_thread.wait();
    delete m_workerContext; // drops the jobs still queued
    m_state->receiver = nullptr;
    m_receiver.reset(); // drops the results not delivered yet
}

void JobTracker::post(std::function<void(const Job &)> work) {
    Job job;
    job.m_state = m_state;
    job.m_cancel = m_state->cancel;
    job.m_generation = m_state->generation.load();
    if (m_pending++ == 0 && m_busyCallback) m_busyCallback(true);
    queuedCall(m_workerContext, [this, job = std::move(job), work = std::move(work)] {
        if (job.m_state->closing.load()) return;
        try {
            work(job);
        } catch (const std::exception &e) {
            // Work reports its errors through deliver(); an escaped one must not end the
            // program from inside the event loop.
            qWarning("beamscope: uncaught error in a worker job: %s", e.what());
        }
        // Queued after the job's deliveries, so they arrive before it counts as finished
        // (unless its last delivery, finish(), counted it already).
        if (!job.m_finished->load()) queuedCall(m_receiver.get(), [this] { jobFinished(); });
    });
}

void JobTracker::runOnWorker(std::function<void()> fn) {
    queuedCall(m_workerContext, std::move(fn));
}

quint64 JobTracker::restart() {
    cancel();
    return ++m_state->generation;
}

void JobTracker::cancel() {
    m_state->cancel->store(true);
    m_state->cancel = std::make_shared<std::atomic<bool>>(false);
}

quint64 JobTracker::generation() const {
    return m_state->generation.load();
}

bool JobTracker::isBusy() const {
    return m_pending > 0;
}

int JobTracker::droppedResults() const {
    return m_state->dropped;
}

void JobTracker::setBusyCallback(std::function<void(bool)> callback) {
    m_busyCallback = std::move(callback);
}

void JobTracker::jobFinished() {
    if (--m_pending == 0 && m_busyCallback) m_busyCallback(false);
}

} // namespace beamscope
