// SearchController: requests posted to the JobTracker, throttled delivery of snapshots.
//   releaseOnWorker()                 big snapshots are freed off the GUI thread
//   load() / reconfigure() / reset()  a new generation: a fresh engine
//   advance()                         the stepping requests (one, pass, end, to a count)
//   showStep() / replayStep()         history: a record at once, the whole step replayed
//   setReadOnlyHistory()              a trace's steps in place of a search
#include "controllers/SearchController.h"

#include "controllers/SearchReplayer.h"
#include "controllers/SearchWorker.h"
#include "util/Error.h"

#include <algorithm>
#include <string>
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

/// Whole steps kept for going back and forth between a few (besides the newest).
constexpr size_t kWholeCacheSize = 4;

/// How often the GUI thread takes a running search's steps from the mailbox (the progress bar,
/// timeline and cost chart move at this rate; whole snapshots at most every snapshotIntervalMs).
constexpr int kPullIntervalMs = 40;

} // namespace

SearchController::SearchController(QObject *parent)
    : QObject(parent), m_worker(std::make_unique<SearchWorker>()),
      m_replayer(std::make_unique<SearchReplayer>()),
      m_replayJobs(this, QStringLiteral("beamscope-replay"), JobTracker::Priority::BelowGui),
      m_jobs(this, QStringLiteral("beamscope-search"), JobTracker::Priority::BelowGui) {
    registerControllerMetaTypes();
    m_jobs.setBusyCallback([this](bool busy) {
        if (!busy) m_pullTimer.stop();
        Q_EMIT busyChanged(busy);
    });
    m_pullTimer.setInterval(kPullIntervalMs);
    connect(&m_pullTimer, &QTimer::timeout, this, [this] { pullSteps(false); });
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
    m_replayJobs.restart();
    freshMailbox();
    clearHistory();
}

void SearchController::clearHistory() {
    releaseOnWorker(std::move(m_lastStep));
    for (SearchStepPtr &step : m_wholeCache)
        releaseOnWorker(std::move(step));
    m_wholeCache.clear();
    m_history.clear();
    m_shown = -1;
    m_readOnly = false;
    m_replayerReady = false;
    m_stepsDone = 0;
}

void SearchController::load(const PipelineSource &source, const SearchOptions &options) {
    // The running search stops now, but what it found stays until the new pipeline is built: a
    // pipeline that fails to build (user code that crashes or hangs, say) leaves the search and
    // the session as they were.
    m_jobs.restart();
    m_replayJobs.restart();
    freshMailbox();
    SearchWorker *worker = m_worker.get();
    m_jobs.post([this, worker, source, options](const JobTracker::Job &job) {
        try {
            DagPtr dag = worker->load(source, options);
            const int estimated = worker->estimatedSteps();
            job.deliver([this, dag, estimated, source, options] {
                clearHistory();
                m_source = source;
                m_options = options;
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
    if (m_readOnly) {
        Q_EMIT error(tr("a trace is shown read-only: load the pipeline to search it"));
        return;
    }
    SearchWorker *worker = m_worker.get();
    m_jobs.post([this, worker, rule, target, mailbox = m_mailbox](const JobTracker::Job &job) {
        auto onStep = [&](const SearchStepPtr &step) {
            StepMailbox::StepResult result{step->index, step->pass, cheapestInBeam(*step),
                                           StepHistory::record(step, false)};
            mailbox->put(std::move(result), worker->stepsDone(), worker->estimatedSteps(),
                         step->counters, step);
        };
        try {
            worker->advance(rule, target, job.cancelFlag(), onStep);
        } catch (const SearchCancelled &) {
            // Paused: the engine stays at its last completed step.
        } catch (...) {
            deliverError(job, currentErrorMessage());
        }
        // The request's last step is always shown, with whatever the timer has not taken yet.
        job.deliver([this] { pullSteps(true); },
                    [this, mailbox] { releaseOnWorker(mailbox->take(true).snapshot); });
    });
    if (!m_pullTimer.isActive()) m_pullTimer.start();
}

void SearchController::pullSteps(bool requestEnded) {
    const bool snapshotDue = requestEnded || !m_sinceSnapshot.isValid() ||
                             m_sinceSnapshot.elapsed() >= m_snapshotIntervalMs;
    StepMailbox::Batch batch = m_mailbox->take(snapshotDue);
    if (!batch.steps.empty()) applySteps(batch);
    if (batch.snapshot) showSnapshot(std::move(batch.snapshot));
}

void SearchController::applySteps(StepMailbox::Batch &batch) {
    m_stepsDone = batch.done;
    m_estimatedSteps = batch.estimated;
    for (StepMailbox::StepResult &step : batch.steps) {
        if (step.index == m_history.size()) {
            m_history.append(std::move(step.record));
            Q_EMIT historyAppended(step.index);
        }
        Q_EMIT bestCostRecorded(step.index, step.pass, step.bestCost);
    }
    Q_EMIT progress(batch.done, batch.estimated);
    Q_EMIT countersChanged(batch.counters);
}

void SearchController::showSnapshot(SearchStepPtr step) {
    m_sinceSnapshot.start();
    SearchStepPtr previous = std::exchange(m_lastStep, step);
    if (m_shown >= 0) releaseReplayer();
    m_shown = -1; // a new step brings the views back to the newest
    ++m_showRequest;
    Q_EMIT stepped(step);
    if (step->finished) Q_EMIT finished();
    // The GUI thread never holds the last reference to a snapshot (see releaseOnWorker).
    releaseOnWorker(std::move(previous));
    releaseOnWorker(std::move(step));
}

void SearchController::freshMailbox() {
    m_pullTimer.stop();
    releaseOnWorker(m_mailbox->take(true).snapshot);
    m_mailbox = std::make_shared<StepMailbox>();
}

SearchStepPtr SearchController::cachedWhole(int k) const {
    if (m_lastStep && m_lastStep->index == k) return m_lastStep;
    for (const SearchStepPtr &step : m_wholeCache)
        if (step->index == k) return step;
    return nullptr;
}

void SearchController::cacheWhole(SearchStepPtr step) {
    if (m_wholeCache.size() >= kWholeCacheSize) {
        releaseOnWorker(std::move(m_wholeCache.front()));
        m_wholeCache.erase(m_wholeCache.begin());
    }
    m_wholeCache.push_back(std::move(step));
}

void SearchController::showStep(int k) {
    if (m_history.empty()) return;
    const int newest = m_history.size() - 1;
    if (k < 0 || k > newest) k = newest;
    const quint64 request = ++m_showRequest;
    m_replayJobs.cancel(); // an older replay in flight is not wanted any more
    const HistoryRecord &record = m_history.at(k);
    // The newest step as the search delivered it (during a run the record may be newer than
    // the last throttled snapshot: then the record, and the whole step with the next snapshot).
    if (k == newest) {
        m_shown = -1;
        releaseReplayer();
        const bool whole = m_lastStep && m_lastStep->index == k;
        Q_EMIT stepShown(whole ? m_lastStep : record.step, k, true, whole);
        return;
    }
    m_shown = k == newest ? -1 : k;
    if (record.complete) {
        Q_EMIT stepShown(record.step, k, k == newest, true);
        return;
    }
    if (SearchStepPtr whole = cachedWhole(k)) {
        Q_EMIT stepShown(whole, k, false, true);
        return;
    }
    Q_EMIT stepShown(record.step, k, false, false);
    if (request == m_showRequest) replayStep(k);
}

void SearchController::releaseReplayer() {
    // Back at the newest: the replayer's engine (as big as the search's own) is not kept.
    SearchReplayer *replayer = m_replayer.get();
    m_replayJobs.cancel();
    m_replayJobs.runOnWorker([replayer] { replayer->release(); });
}

void SearchController::replayStep(int k) {
    SearchReplayer *replayer = m_replayer.get();
    if (!m_replayerReady) {
        m_replayerReady = true;
        m_replayJobs.runOnWorker(
            [replayer, dag = m_dag, options = m_readOnly ? m_traceOptions : m_options] {
                replayer->reset(dag, options);
            });
    }
    const quint64 request = m_showRequest;
    m_replayJobs.post([this, replayer, k, request](const JobTracker::Job &job) {
        try {
            SearchStepPtr step = replayer->stepAt(k, &job.cancelFlag());
            auto held = std::make_shared<SearchStepPtr>(std::move(step));
            job.deliver(
                [this, held, k, request] {
                    ++m_replays;
                    if (k < m_history.size()) {
                        const std::string differs =
                            SearchReplayer::mismatch(m_history.at(k), **held);
                        if (!differs.empty()) {
                            const QString where = m_readOnly
                                                      ? m_traceOrigin + tr(" line %1").arg(k + 1)
                                                      : tr("the search");
                            Q_EMIT error(tr("%1: step %2 replayed on demand does not match its "
                                            "record ('%3' differs)")
                                             .arg(where)
                                             .arg(k)
                                             .arg(QString::fromStdString(differs)));
                            releaseOnWorker(std::move(*held));
                            return;
                        }
                    }
                    cacheWhole(*held);
                    if (request == m_showRequest && m_shown == k)
                        Q_EMIT stepShown(*held, k, false, true);
                    releaseOnWorker(std::move(*held));
                },
                [this, held] { releaseOnWorker(std::move(*held)); });
        } catch (const SearchCancelled &) {
            // A newer showStep() came: the replayer stays where it got and goes on from there.
        } catch (...) {
            deliverError(job, currentErrorMessage());
        }
    });
}

void SearchController::setReadOnlyHistory(DagPtr dag, const SearchOptions &options,
                                          std::vector<HistoryRecord> records, SearchStepPtr newest,
                                          const QString &origin) {
    for (size_t i = 0; i < records.size(); ++i) {
        if (!records[i].step || records[i].step->index != int(i))
            throw Error("trace: step " + std::to_string(i) + " is missing or out of order");
    }
    if (!records.empty() && (!newest || newest->index != records.back().step->index))
        throw Error("trace: the newest step is not the last record");
    newGeneration();
    m_readOnly = true;
    m_traceOptions = options;
    m_traceOrigin = origin;
    m_dag = std::move(dag);
    m_estimatedSteps = int(records.size());
    Q_EMIT loaded(m_dag);
    Q_EMIT searchReset(m_estimatedSteps);
    for (HistoryRecord &record : records) {
        const int index = record.step->index, pass = record.step->pass;
        const double best = cheapestInBeam(*record.step);
        m_history.append(std::move(record));
        Q_EMIT historyAppended(index);
        Q_EMIT bestCostRecorded(index, pass, best);
    }
    m_stepsDone = m_history.size();
    Q_EMIT progress(m_stepsDone, m_estimatedSteps);
    if (m_history.empty()) return;
    m_lastStep = std::move(newest);
    Q_EMIT countersChanged(m_lastStep->counters);
    Q_EMIT stepped(m_lastStep);
    if (m_lastStep->finished) Q_EMIT finished();
}

} // namespace beamscope
