// SearchController: requests posted to the JobTracker, throttled delivery of snapshots.
//   releaseOnWorker()                 big snapshots are freed off the GUI thread
//   load() / reconfigure() / reset()  a new generation: a fresh engine
//   advance()                         the stepping requests (one, pass, end, to a count)
#include "controllers/SearchController.h"

#include "controllers/SearchWorker.h"
#include "util/Error.h"

#include <QElapsedTimer>

#include <utility>

namespace beamscope {

namespace {

/// The message of the exception in flight, as one line; rethrows SearchCancelled.
QString currentErrorMessage() {
    try {
        throw;
    } catch (const SearchCancelled &) {
        throw;
    } catch (const std::exception &e) {
        return QString::fromStdString(detail::firstLine(e.what()));
    } catch (...) {
        return QStringLiteral("unexpected error in the search worker");
    }
}

} // namespace

SearchController::SearchController(QObject *parent)
    : QObject(parent), m_worker(std::make_unique<SearchWorker>()),
      m_jobs(this, QStringLiteral("beamscope-search")) {
    registerControllerMetaTypes();
    m_jobs.setBusyCallback([this](bool busy) { Q_EMIT busyChanged(busy); });
}

SearchController::~SearchController() = default;

void SearchController::deliverError(const JobTracker::Job &job, const QString &message) {
    job.deliver([this, message] { Q_EMIT error(message); });
}

void SearchController::releaseOnWorker(SearchStepPtr snapshot) {
    if (!snapshot) return;
    m_jobs.runOnWorker([snapshot = std::move(snapshot)]() mutable { snapshot.reset(); });
}

void SearchController::newGeneration() {
    m_jobs.restart();
    releaseOnWorker(std::move(m_lastStep));
    m_stepsDone = 0;
}

void SearchController::load(const PipelineSource &source, const SearchOptions &options) {
    newGeneration();
    m_source = source;
    m_options = options;
    m_dag.reset();
    SearchWorker *worker = m_worker.get();
    m_jobs.post([this, worker, source, options](const JobTracker::Job &job) {
        try {
            DagPtr dag = worker->load(source, options);
            const int estimated = worker->estimatedSteps();
            job.deliver([this, dag, estimated] {
                m_dag = dag;
                m_estimatedSteps = estimated;
                Q_EMIT loaded(dag);
                Q_EMIT searchReset(estimated);
                Q_EMIT progress(0, estimated);
            });
        } catch (...) {
            deliverError(job, currentErrorMessage());
        }
    });
}

void SearchController::reconfigure(const SearchOptions &options) {
    newGeneration();
    m_options = options;
    SearchWorker *worker = m_worker.get();
    m_jobs.post([this, worker, options](const JobTracker::Job &job) {
        try {
            worker->configure(options);
            const int estimated = worker->estimatedSteps();
            job.deliver([this, estimated] {
                m_estimatedSteps = estimated;
                Q_EMIT searchReset(estimated);
                Q_EMIT progress(0, estimated);
            });
        } catch (...) {
            deliverError(job, currentErrorMessage());
        }
    });
}

void SearchController::reset() {
    reconfigure(m_options);
}

void SearchController::stepOne() {
    advance(StopRule::OneStep, 0);
}
void SearchController::stepPass() {
    advance(StopRule::PassEnd, 0);
}
void SearchController::runToEnd() {
    advance(StopRule::SearchEnd, 0);
}
void SearchController::stepTo(int count) {
    advance(StopRule::StepCount, count);
}

void SearchController::pause() {
    m_jobs.cancel();
}

void SearchController::advance(StopRule rule, int target) {
    const int interval = m_snapshotIntervalMs;
    SearchWorker *worker = m_worker.get();
    m_jobs.post([this, worker, rule, target, interval](const JobTracker::Job &job) {
        SearchStepPtr lastSent, latest;
        QElapsedTimer sinceSent;
        sinceSent.start();
        auto sendSnapshot = [&](const SearchStepPtr &step) {
            lastSent = step;
            sinceSent.restart();
            // The GUI thread never holds the last reference to a snapshot (see releaseOnWorker):
            // delivered or dropped, the delivery's own reference goes back to the worker.
            auto held = std::make_shared<SearchStepPtr>(step);
            job.deliver(
                [this, held] {
                    SearchStepPtr previous = std::exchange(m_lastStep, *held);
                    Q_EMIT stepped(*held);
                    if ((*held)->finished) Q_EMIT finished();
                    releaseOnWorker(std::move(previous));
                    releaseOnWorker(std::move(*held));
                },
                [this, held] { releaseOnWorker(std::move(*held)); });
        };
        auto onStep = [&](const SearchStepPtr &step) {
            latest = step;
            const int done = worker->stepsDone(), estimated = worker->estimatedSteps();
            const int index = step->index, pass = step->pass;
            const double best = step->beam.empty() ? 0.0 : step->beam.front().cost.total;
            const SearchCounters counters = step->counters;
            job.deliver([this, index, pass, done, estimated, best, counters] {
                m_stepsDone = done;
                m_estimatedSteps = estimated;
                Q_EMIT bestCostRecorded(index, pass, best);
                Q_EMIT progress(done, estimated);
                Q_EMIT countersChanged(counters);
            });
            if (sinceSent.elapsed() >= interval) sendSnapshot(step);
        };
        try {
            worker->advance(rule, target, job.cancelFlag(), onStep);
        } catch (const SearchCancelled &) {
            // Paused: the engine stays at its last completed step.
        } catch (...) {
            deliverError(job, currentErrorMessage());
        }
        if (latest && latest != lastSent) sendSnapshot(latest);
    });
}

} // namespace beamscope
