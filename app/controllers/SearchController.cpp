// SearchController: request posting, generation checks, throttled delivery of snapshots.
//   post() / deliver() / complete()   work to the worker thread, results back to the GUI thread
//   releaseOnWorker()                 big snapshots are freed off the GUI thread
//   load() / reconfigure() / reset()  a new generation: a fresh engine
//   advance()                         the stepping requests (one, pass, end, to a count)
#include "controllers/SearchController.h"

#include "controllers/SearchWorker.h"
#include "util/Error.h"

#include <QElapsedTimer>
#include <QMetaObject>

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
      m_cancel(std::make_shared<CancelToken>(false)) {
    registerControllerMetaTypes();
    m_thread.setObjectName(QStringLiteral("beamscope-search"));
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    m_thread.start();
}

SearchController::~SearchController() {
    m_cancel->store(true);
    m_thread.quit();
    m_thread.wait();
    delete m_context;
}

template <typename Work> void SearchController::post(Work &&work) {
    ++m_outstanding;
    if (!m_busy) {
        m_busy = true;
        Q_EMIT busyChanged(true);
    }
    QMetaObject::invokeMethod(m_context, std::forward<Work>(work), Qt::QueuedConnection);
}

template <typename Result> void SearchController::deliver(quint64 generation, Result &&result) {
    QMetaObject::invokeMethod(
        this,
        [this, generation, result = std::forward<Result>(result)]() mutable {
            if (generation != m_generation) {
                ++m_dropped;
                return;
            }
            result();
        },
        Qt::QueuedConnection);
}

void SearchController::complete(quint64 generation) {
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (--m_outstanding == 0 && m_busy) {
                m_busy = false;
                Q_EMIT busyChanged(false);
            }
        },
        Qt::QueuedConnection);
}

void SearchController::deliverError(quint64 generation, const QString &message) {
    deliver(generation, [this, message] { Q_EMIT error(message); });
}

void SearchController::releaseOnWorker(SearchStepPtr snapshot) {
    if (!snapshot) return;
    QMetaObject::invokeMethod(
        m_context, [snapshot = std::move(snapshot)]() mutable { snapshot.reset(); },
        Qt::QueuedConnection);
}

quint64 SearchController::newGeneration() {
    pause();
    releaseOnWorker(std::move(m_lastStep));
    m_stepsDone = 0;
    return ++m_generation;
}

void SearchController::load(const PipelineSource &source, const SearchOptions &options) {
    const quint64 generation = newGeneration();
    m_source = source;
    m_options = options;
    m_dag.reset();
    SearchWorker *worker = m_worker.get();
    post([this, worker, generation, source, options] {
        try {
            DagPtr dag = worker->load(source, options);
            const int estimated = worker->estimatedSteps();
            deliver(generation, [this, dag, estimated] {
                m_dag = dag;
                m_estimatedSteps = estimated;
                Q_EMIT loaded(dag);
                Q_EMIT searchReset(estimated);
                Q_EMIT progress(0, estimated);
            });
        } catch (...) {
            deliverError(generation, currentErrorMessage());
        }
        complete(generation);
    });
}

void SearchController::reconfigure(const SearchOptions &options) {
    const quint64 generation = newGeneration();
    m_options = options;
    SearchWorker *worker = m_worker.get();
    post([this, worker, generation, options] {
        try {
            worker->configure(options);
            const int estimated = worker->estimatedSteps();
            deliver(generation, [this, estimated] {
                m_estimatedSteps = estimated;
                Q_EMIT searchReset(estimated);
                Q_EMIT progress(0, estimated);
            });
        } catch (...) {
            deliverError(generation, currentErrorMessage());
        }
        complete(generation);
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
    m_cancel->store(true);
    m_cancel = std::make_shared<CancelToken>(false);
}

void SearchController::advance(StopRule rule, int target) {
    const quint64 generation = m_generation;
    const int interval = m_snapshotIntervalMs;
    SearchWorker *worker = m_worker.get();
    post([this, worker, generation, rule, target, interval, cancel = m_cancel] {
        SearchStepPtr lastSent, latest;
        QElapsedTimer sinceSent;
        sinceSent.start();
        auto sendSnapshot = [&](const SearchStepPtr &step) {
            lastSent = step;
            sinceSent.restart();
            // The GUI thread never holds the last reference to a snapshot (see releaseOnWorker).
            QMetaObject::invokeMethod(
                this,
                [this, generation, step]() mutable {
                    if (generation != m_generation) {
                        ++m_dropped;
                    } else {
                        SearchStepPtr previous = std::exchange(m_lastStep, step);
                        Q_EMIT stepped(step);
                        if (step->finished) Q_EMIT finished();
                        releaseOnWorker(std::move(previous));
                    }
                    releaseOnWorker(std::move(step));
                },
                Qt::QueuedConnection);
        };
        auto onStep = [&](const SearchStepPtr &step) {
            latest = step;
            const int done = worker->stepsDone(), estimated = worker->estimatedSteps();
            const int index = step->index, pass = step->pass;
            const double best = step->beam.empty() ? 0.0 : step->beam.front().cost.total;
            const SearchCounters counters = step->counters;
            deliver(generation, [this, index, pass, done, estimated, best, counters] {
                m_stepsDone = done;
                m_estimatedSteps = estimated;
                Q_EMIT bestCostRecorded(index, pass, best);
                Q_EMIT progress(done, estimated);
                Q_EMIT countersChanged(counters);
            });
            if (sinceSent.elapsed() >= interval) sendSnapshot(step);
        };
        try {
            worker->advance(rule, target, *cancel, onStep);
        } catch (const SearchCancelled &) {
            // Paused: the engine stays at its last completed step.
        } catch (...) {
            deliverError(generation, currentErrorMessage());
        }
        if (latest && latest != lastSent) sendSnapshot(latest);
        complete(generation);
    });
}

} // namespace beamscope
