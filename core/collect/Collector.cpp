// Contents: the shared state of a run (queue of planned jobs, device slots, counters); the
// search threads that plan each pipeline's jobs; the worker threads that compile, measure and
// commit rows; the watchdog that stops everything at the deadline or on a cancel.
#include "collect/Collector.h"

#include "bench/BenchRun.h"
#include "collect/CollectCandidates.h"
#include "cost/CostOf.h"
#include "dag/FunctionDAG.h"
#include "measure/BenchJob.h"
#include "measure/Compiler.h"
#include "measure/DeviceList.h"
#include "measure/ReferenceCheck.h"
#include "measure/WorkerRunner.h"
#include "schedule/ScheduleIO.h"
#include "store/BenchRecorder.h"
#include "store/MeasurementStore.h"
#include "util/Error.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

namespace beamscope {

namespace {

using Clock = std::chrono::steady_clock;

/// One planned measurement.
struct Item {
    BenchJob job;
    size_t pipeline = 0; ///< index into CollectRun::m_pipelines
    nlohmann::json schedule;
    nlohmann::json terms;
};

/// What every row of one pipeline shares.
struct PipelineContext {
    std::string name;
    RecordContext record;
    std::string referenceCache;
    int running = 0, finished = 0; // jobs of this pipeline in flight / done
};

class CollectRun {
public:
    CollectRun(const CollectOptions &options, CollectReport &report)
        : m_options(options), m_report(report) {}

    void run();

private:
    void plan();
    void work();
    bool enoughTimeLeft() const;         // with m_mutex held
    void addTimes(const Measurement &m); // with m_mutex held
    Item takeNext();                     // with m_mutex held, the queue not empty
    void say(const std::string &line) const {
        if (m_options.log) m_options.log(line);
    }

    const CollectOptions &m_options;
    CollectReport &m_report;
    SearchOptions m_search;
    BenchJob m_base;
    DeviceIdentity m_deviceIdentity;
    std::vector<DeviceSlot> m_slots;
    Clock::time_point m_start, m_deadline;

    std::mutex m_mutex; // guards everything below, the report and the store
    std::condition_variable m_changed;
    std::deque<Item> m_queue;
    std::deque<PipelineContext> m_pipelines; // stable addresses
    std::vector<int> m_inFlight;             // per slot
    std::vector<double> m_jobSeconds;        // finished jobs' wall times
    int m_planners = 0, m_workers = 0;
    bool m_outOfTime = false;
    std::atomic<size_t> m_next{0};
    CancelToken m_stop{false}; // no new work; searches stop; running workers are killed
};

void CollectRun::plan() {
    for (size_t i = m_next++; i < m_options.pipelines.size() && !m_stop; i = m_next++) {
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            // Plan ahead of the workers by two jobs each at most: the rest waits for time left.
            m_changed.wait(lock, [&] {
                return m_stop || m_queue.size() < size_t(2 * std::max(1, m_report.jobs));
            });
            if (m_stop) break;
        }
        const PipelineSource &source = m_options.pipelines[i];
        const Clock::time_point planStart = Clock::now();
        try {
            auto dag = std::make_shared<const FunctionDAG>(loadPipeline(source));
            const std::vector<BenchCandidate> candidates = collectCandidates(
                dag, m_search, m_options.perPipeline, m_options.dropoutPercent, &m_stop);
            PipelineContext context;
            context.name = source.name;
            context.record.pipeline = PipelineIdentity::of(source, *dag);
            context.record.device = m_deviceIdentity;
            context.record.gpu = m_search.gpu.toJson();
            context.record.costModel = m_search.costModel;
            context.record.repeats = m_options.repeats;
            context.record.origin = "collect";
            context.record.runId = "collect";
            const char *tmp = std::getenv("TMPDIR");
            context.referenceCache = std::string(tmp && *tmp ? tmp : "/tmp") +
                                     "/beamscope-collect-ref-" + std::to_string(getpid()) + "-" +
                                     std::to_string(i) + ".bin";
            std::vector<Item> items;
            for (const BenchCandidate &c : candidates) {
                Item item;
                item.schedule = scheduleToJson(*c.state);
                item.terms = costOf(*c.state, m_search.costModel, m_search.gpu).termsByName();
                item.job = m_base;
                item.job.source = source;
                item.job.label = source.name + ":" + c.label;
                item.job.schedule = item.schedule;
                item.job.predicted = c.predicted;
                item.job.referenceCache = context.referenceCache;
                items.push_back(std::move(item));
            }
            std::lock_guard<std::mutex> lock(m_mutex);
            m_report.planS += std::chrono::duration<double>(Clock::now() - planStart).count();
            const size_t index = m_pipelines.size();
            m_pipelines.push_back(std::move(context));
            ++m_report.pipelinesStarted;
            for (Item &item : items) {
                // A row of an earlier build that lowered it otherwise does not count.
                if (m_options.resume && m_options.store->findReusable(
                                            m_pipelines[index].record.pipeline.key(),
                                            scheduleHash(item.schedule), m_deviceIdentity.key())) {
                    ++m_report.skipped;
                    continue;
                }
                item.pipeline = index;
                m_queue.push_back(std::move(item));
            }
            m_changed.notify_all();
        } catch (const SearchCancelled &) {
            break;
        } catch (const std::exception &e) {
            std::lock_guard<std::mutex> lock(m_mutex);
            ++m_report.pipelinesFailed;
            m_report.errors.push_back(source.name + ": " + e.what());
            say(source.name + ": " + e.what());
        }
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    --m_planners;
    m_changed.notify_all();
}

void CollectRun::addTimes(const Measurement &m) {
    const auto seconds = [](double ms) { return std::isfinite(ms) ? ms / 1000.0 : 0.0; };
    m_report.compileS += seconds(m.compileMs);
    m_report.deviceSetupS += seconds(m.deviceSetupMs);
    m_report.deviceWaitS += seconds(m.deviceWaitMs);
    m_report.deviceS += seconds(m.deviceMs);
}

bool CollectRun::enoughTimeLeft() const {
    if (m_jobSeconds.size() < 3) return Clock::now() < m_deadline;
    std::vector<double> seconds = m_jobSeconds;
    std::nth_element(seconds.begin(), seconds.begin() + long(seconds.size() / 2), seconds.end());
    const double typical = seconds[seconds.size() / 2];
    // A job that cannot finish before the deadline would only be killed there.
    return Clock::now() + std::chrono::duration<double>(typical) < m_deadline;
}

Item CollectRun::takeNext() {
    // The first job of a pipeline computes the CPU reference and caches it for the others: start
    // a pipeline's other jobs once one has finished, and other pipelines' jobs meanwhile.
    auto it = std::find_if(m_queue.begin(), m_queue.end(), [&](const Item &i) {
        const PipelineContext &p = m_pipelines[i.pipeline];
        return p.finished > 0 || p.running == 0;
    });
    if (it == m_queue.end()) it = m_queue.begin();
    Item item = std::move(*it);
    m_queue.erase(it);
    return item;
}

void CollectRun::work() {
    const int sharing = (m_report.jobs + int(m_slots.size()) - 1) / int(m_slots.size());
    for (;;) {
        Item item;
        size_t slot = 0;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_changed.wait(lock, [&] { return m_stop || !m_queue.empty() || m_planners == 0; });
            if (m_stop || m_queue.empty()) break;
            if (!enoughTimeLeft()) {
                m_outOfTime = true;
                break;
            }
            item = takeNext();
            ++m_pipelines[item.pipeline].running;
            slot =
                size_t(std::min_element(m_inFlight.begin(), m_inFlight.end()) - m_inFlight.begin());
            ++m_inFlight[slot];
            m_changed.notify_all(); // room in the queue: a planner may go on
        }
        BenchJob job = std::move(item.job);
        job.deviceLock = m_slots[slot].lockPath;
        job.timeoutS *= sharing; // the time spent waiting for the device lock
        WorkerOptions worker;
        worker.workerPath = m_options.workerPath;
        worker.cancel = &m_stop;
        worker.environment = m_slots[slot].environment;
        const Clock::time_point started = Clock::now();
        Measurement m = runWorker(job, worker);
        m.label = job.label;
        std::lock_guard<std::mutex> lock(m_mutex);
        --m_inFlight[slot];
        --m_pipelines[item.pipeline].running;
        ++m_pipelines[item.pipeline].finished;
        if (m.failure == kCancelledFailure) {
            ++m_report.killed;
            continue;
        }
        m_jobSeconds.push_back(std::chrono::duration<double>(Clock::now() - started).count());
        addTimes(m);
        const PipelineContext &context = m_pipelines[item.pipeline];
        try {
            m_options.store->add(makeRecord(context.record, m, item.schedule, item.terms));
        } catch (const std::exception &e) {
            if (m_report.recordErrors++ == 0)
                say(std::string("measurement database: ") + e.what() + "; the row is lost");
            continue;
        }
        ++m_report.rows;
        const bool ok = !m.failed() && m.correct.value_or(false) && m.measuredMs.has_value();
        (ok ? m_report.correct : m_report.failed)++;
        if (m_options.onRow) m_options.onRow(context.name, m);
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    --m_workers;
    m_changed.notify_all();
}

void CollectRun::run() {
    m_start = Clock::now();
    m_deadline = m_start + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(m_options.minutes * 60.0));
    m_report.device = detectDevice(m_options.device);
    if (m_options.device == DevicePreference::Cuda && m_report.device.kind != DeviceKind::Cuda)
        throw Error("no CUDA device: " + m_report.device.describe());
    if (m_options.device == DevicePreference::OpenCL && m_report.device.kind != DeviceKind::OpenCL)
        throw Error("no OpenCL device: " + m_report.device.describe());
    const std::string target = m_report.device.halideTarget();
    if (target.empty())
        throw Error("collect measures on a device, and none was found: " +
                    m_report.device.describe());
    m_slots = listDevices(m_report.device);
    if (m_slots.empty()) throw Error("no device to measure on: " + m_report.device.describe());
    m_deviceIdentity = DeviceIdentity::of(m_report.device);
    m_search = m_options.search;
    if (m_search.gpu.name.empty()) m_search.gpu = gpuSpecForDevice(m_report.device);
    m_report.gpu = m_search.gpu.name;
    m_report.cores = std::max(1, int(std::thread::hardware_concurrency()));
    m_report.jobs =
        std::max(m_options.jobs > 0 ? m_options.jobs : m_report.cores, int(m_slots.size()));
    m_report.minutes = m_options.minutes;
    m_inFlight.assign(m_slots.size(), 0);
    m_base.gpu = m_search.gpu;
    m_base.target = target;
    m_base.stageProducers = m_options.stageProducers;
    m_base.warmup = m_options.warmup;
    m_base.repeats = m_options.repeats;
    m_base.minTimedMs = m_options.minTimedMs;
    m_base.timeoutS = m_options.timeoutS;
    m_base.ptxCapability = resolvePtxCapability(
        m_options.ptxCapability,
        m_report.device.kind == DeviceKind::Cuda ? m_report.device.computeCapability : 0,
        m_search.gpu.computeCapability, [this](const std::string &line) { say(line); });
    if (m_base.ptxCapability > 0)
        say("ptxas report for sm_" + std::to_string(m_base.ptxCapability) + " in every row");
    say("device: " + m_report.device.describe() + "; GPU model " + m_search.gpu.name + "; " +
        std::to_string(m_options.pipelines.size()) + " pipelines, " +
        std::to_string(m_report.jobs) + " workers");

    // Searching is single-threaded: a second planner keeps many workers fed.
    const int planners = m_report.cores >= 8 ? 2 : 1;
    m_planners = planners;
    m_report.planners = planners;
    m_report.devices = int(m_slots.size());
    m_workers = m_report.jobs;
    std::vector<std::thread> threads;
    for (int p = 0; p < planners; ++p)
        threads.emplace_back([this] { plan(); });
    for (int w = 0; w < m_report.jobs; ++w)
        threads.emplace_back([this] { work(); });
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        while (m_workers > 0) {
            m_changed.wait_for(lock, std::chrono::milliseconds(100));
            if (m_stop) continue;
            const bool interrupted = m_options.cancel && m_options.cancel->load();
            if (interrupted || Clock::now() >= m_deadline) {
                m_report.stop = interrupted ? "interrupted" : "deadline";
                m_stop = true;
                m_changed.notify_all();
            }
        }
        if (m_report.stop.empty()) m_report.stop = m_outOfTime ? "deadline" : "done";
        m_stop = true; // planners still searching stop too
        m_changed.notify_all();
    }
    for (std::thread &t : threads)
        t.join();
    for (const PipelineContext &p : m_pipelines)
        removeReferenceCaches(p.referenceCache);
    m_report.elapsedS = std::chrono::duration<double>(Clock::now() - m_start).count();
}

} // namespace

CollectReport runCollect(const CollectOptions &options) {
    if (!options.store) throw UsageError("collect needs a measurement database");
    if (options.pipelines.empty()) throw UsageError("collect: no pipelines (--random, --app, ...)");
    if (options.perPipeline < 1) throw UsageError("collect: --per-pipeline must be >= 1");
    if (!(options.minutes > 0)) throw UsageError("collect: --minutes must be > 0");
    CollectReport report;
    CollectRun run(options, report);
    run.run();
    return report;
}

} // namespace beamscope
