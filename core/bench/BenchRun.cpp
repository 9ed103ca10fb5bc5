// BenchRun: runBenchmark's steps in order (BenchRunSteps.h): the device; the GPU spec and cost
// model; the candidates (given or sampled) and their jobs; measuring the candidates; the choice;
// the baselines; the report's totals. Running a batch of jobs is in BenchBatch.cpp, the GPU
// model of a device in GpuForDevice.cpp, the report as JSON and as a table in BenchReport.cpp.
#include "bench/BenchRunSteps.h"

#include "bench/CandidateSampler.h"
#include "cost/CostOf.h"
#include "cost/PretrainedModel.h"
#include "dag/FunctionDAG.h"
#include "measure/Compiler.h"
#include "measure/ParallelWorkers.h"
#include "measure/ReferenceCheck.h"
#include "measure/WorkerRunner.h"
#include "schedule/ScheduleIO.h"
#include "store/BenchRecorder.h"
#include "util/Error.h"
#include "util/Text.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

namespace beamscope {

namespace {

std::string referenceCachePath() {
    const char *dir = std::getenv("TMPDIR");
    static int counter = 0;
    return std::string(dir && *dir ? dir : "/tmp") + "/beamscope-ref-" + std::to_string(getpid()) +
           "-" + std::to_string(++counter) + ".bin";
}

/// The candidates of a run: the caller's (plus greedy samples) or a fresh beam search's, on
/// `dag` (null only when neither sampling nor recording needs it). Sets `pipeline` to the
/// pipeline's name. A cancelled search leaves the candidates found before it.
CandidateSet candidateSet(const BenchOptions &options, const SearchOptions &search,
                          const std::shared_ptr<const FunctionDAG> &dag, std::string &pipeline) {
    CandidateSet set;
    pipeline = dag ? dag->pipelineName() : options.source.name;
    CandidateOptions sampling;
    sampling.search = search;
    sampling.dropoutPercent = options.dropoutPercent;
    sampling.cancel = options.cancel;
    try {
        if (options.candidates) {
            set.candidates = *options.candidates;
            sampling.greedySamples = options.extraGreedySamples;
            if (sampling.greedySamples > 0) addGreedySamples(dag, sampling, set);
        } else {
            sampling.topK = options.top;
            sampling.greedySamples = options.top;
            set = sampleCandidates(dag, sampling);
        }
    } catch (const SearchCancelled &) {
        // Cancelled while sampling: nothing gets measured (runBenchmark checks the token).
    }
    return set;
}

} // namespace

void BenchRun::detectTheDevice() {
    m_report.device = detectDevice(m_options.device);
    if (m_options.device == DevicePreference::Cuda && m_report.device.kind != DeviceKind::Cuda)
        throw Error("no CUDA device: " + m_report.device.describe());
    if (m_options.device == DevicePreference::OpenCL && m_report.device.kind != DeviceKind::OpenCL)
        throw Error("no OpenCL device: " + m_report.device.describe());
    m_report.target = m_report.device.halideTarget();
    say("device: " + m_report.device.describe());
}

void BenchRun::chooseGpuAndModel() {
    m_search = m_options.search;
    if (m_options.candidates && m_search.gpu.name.empty())
        throw UsageError("benchmark: given candidates need the GPU spec they were searched for");
    if (m_search.gpu.name.empty()) m_search.gpu = gpuSpecForDevice(m_report.device);
    if (m_search.costModel == kDefaultModelSpec)
        m_search.costModel = defaultCostModelSpec(m_search.gpu);
    m_report.gpu = m_search.gpu;
    m_report.costModel = m_search.costModel;
    m_report.ptxCapability = resolvePtxCapability(
        m_options.ptxCapability,
        m_report.device.kind == DeviceKind::Cuda ? m_report.device.computeCapability : 0,
        m_search.gpu.computeCapability, [this](const std::string &line) { say(line); });
}

void BenchRun::sampleCandidates() {
    std::shared_ptr<const FunctionDAG> dag = m_options.dag;
    const bool needDag =
        !m_options.candidates || m_options.extraGreedySamples > 0 || m_options.store != nullptr;
    if (!dag && needDag) dag = std::make_shared<const FunctionDAG>(loadPipeline(m_options.source));
    m_set = candidateSet(m_options, m_search, dag, m_report.pipeline);
    m_report.beamSearchMs = m_set.beamSearchMs;
    m_report.greedySearchMs = m_set.greedySearchMs;
    m_report.freezing = m_set.freezing;
    m_report.duplicates = m_set.duplicates;
    if (!m_options.candidates) {
        say("sampled " + std::to_string(m_set.candidates.size()) + " candidates (beam search " +
            fixed(m_set.beamSearchMs, 0) + " ms, greedy " + fixed(m_set.greedySearchMs, 0) +
            " ms)");
    }

    m_referenceCache = referenceCachePath();
    m_base.source = m_options.source;
    m_base.gpu = m_search.gpu;
    m_base.ptxCapability = m_report.ptxCapability;
    m_base.stageProducers = m_options.stageProducers;
    m_base.warmup = m_options.warmup;
    m_base.repeats = m_options.repeats;
    m_base.minTimedMs = m_options.minTimedMs;
    m_base.timeoutS = m_options.timeoutS;
    m_base.referenceCache = m_referenceCache;
    m_canRun = !m_report.target.empty();
    m_measureAll = m_options.mode == BenchMode::TopK && m_canRun;
    m_compileAll = m_measureAll || m_report.ptxCapability > 0;
    m_measureBaselines = m_canRun && (m_measureAll || m_options.measureOneShot);
    m_measureChosen = m_options.mode == BenchMode::OneShot && m_options.measureOneShot && m_canRun;

    RecordContext context;
    if (m_options.store && dag) {
        context.pipeline = PipelineIdentity::of(m_options.source, *dag);
        context.device = DeviceIdentity::of(m_report.device);
        context.gpu = m_search.gpu.toJson();
        context.costModel = m_search.costModel;
        context.repeats = m_options.repeats;
        context.origin = m_options.origin;
        context.runId = m_options.runId;
        context.round = m_options.round;
    }
    m_recorder.emplace(m_options.store, context, [this](const std::string &line) { say(line); });

    m_progress.total = int(m_options.baselines.size()) +
                       (m_compileAll ? int(m_set.candidates.size()) : 0) +
                       (m_measureChosen && !m_set.candidates.empty() ? 1 : 0);
    for (const BenchCandidate &c : m_set.candidates) {
        BenchJob job = m_base;
        job.label = c.label;
        job.predicted = c.predicted;
        job.schedule = scheduleToJson(*c.state);
        m_jobs.push_back(job);
    }
}

std::vector<BenchRun::Item> BenchRun::baselineItems() const {
    std::vector<Item> items;
    for (Baseline b : m_options.baselines) {
        BenchJob job = m_base;
        job.label = std::string("baseline:") + baselineName(b);
        job.baseline = baselineName(b);
        items.push_back(Item{job, true, -1});
    }
    return items;
}

void BenchRun::keepBaselines(const std::vector<std::optional<Measurement>> &rows) {
    // Baselines stand alone: a stop keeps each one that finished, also behind one that did not
    // (candidates keep their prefix, since their indices name schedules).
    for (const std::optional<Measurement> &m : rows)
        if (m) m_report.baselines.push_back(*m);
    m_baselinesDone = true;
}

void BenchRun::measureCandidates() {
    std::vector<std::optional<Measurement>> rows(m_jobs.size());
    if (m_compileAll) {
        const bool withBaselines = m_options.baselinesFirst && m_measureAll && m_measureBaselines;
        std::vector<Item> items = withBaselines ? baselineItems() : std::vector<Item>();
        const size_t first = items.size();
        for (size_t i = 0; i < m_jobs.size(); ++i)
            items.push_back(Item{m_jobs[i], false, int(i)});
        std::vector<std::optional<Measurement>> all = runBatch(items, m_measureAll);
        if (withBaselines)
            keepBaselines(
                std::vector<std::optional<Measurement>>(all.begin(), all.begin() + long(first)));
        rows.assign(all.begin() + long(first), all.end());
    }
    for (size_t i = 0; i < m_jobs.size(); ++i) {
        std::optional<Measurement> m = rows[i];
        if (m_compileAll) {
            if (!m) break; // cancelled: the rows before it are kept
        } else {           // nothing to compile: prediction only
            m = Measurement();
            m->label = m_jobs[i].label;
            m->predicted = m_jobs[i].predicted;
        }
        m->searchMs = m_set.candidates[i].searchMs;
        m_report.candidates.push_back(*m);
        m_report.schedules.push_back(m_jobs[i].schedule);
    }
    m_report.survivors = postCompileFilter(m_report.candidates);
}

void BenchRun::chooseCandidate() {
    if (m_options.mode == BenchMode::TopK && m_canRun) {
        double best = INFINITY;
        for (size_t i : m_report.survivors) {
            const Measurement &m = m_report.candidates[i];
            if (m.correct.value_or(false) && m.measuredMs && m.measuredMs->median < best) {
                best = m.measuredMs->median;
                m_report.chosen = int(i);
            }
        }
        m_report.chosenWhy = "fastest correct candidate after the post-compile filter";
    } else if (!m_report.survivors.empty()) {
        const int chosen = int(m_report.survivors.front());
        m_report.chosen = chosen;
        m_report.chosenWhy = "best predicted candidate after the post-compile filter";
        if (m_measureChosen) {
            if (std::optional<Measurement> measured =
                    runBatch({Item{m_jobs[size_t(chosen)], false, chosen}}, true).front()) {
                measured->searchMs = m_set.candidates[size_t(chosen)].searchMs;
                m_report.candidates[size_t(chosen)] = *measured;
            }
        }
    }
    if (m_report.chosen < 0 && m_report.chosenWhy.empty())
        m_report.chosenWhy = "no candidate survived";
}

void BenchRun::measureBaselines() {
    if (m_baselinesDone) return; // measured beside the candidates
    keepBaselines(runBatch(baselineItems(), m_measureBaselines));
}

BenchReport BenchRun::finish() {
    removeReferenceCaches(m_referenceCache);
    m_report.recorded = m_recorder->recorded();
    if (m_options.store) {
        say("measurement database: " + std::to_string(m_report.recorded) + " row(s) recorded, " +
            std::to_string(m_report.reused) + " reused");
    }
    m_report.cancelled = cancelled();
    if (m_report.cancelled) {
        say("cancelled");
        m_progress.label = "cancelled";
    } else {
        m_progress.label = "done";
    }
    if (m_options.onProgress) m_options.onProgress(m_progress);
    m_report.benchMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start)
            .count();
    return std::move(m_report);
}

BenchReport runBenchmark(const BenchOptions &options) {
    BenchRun run(options);
    run.detectTheDevice();
    run.chooseGpuAndModel();
    run.sampleCandidates();
    run.measureCandidates();
    run.chooseCandidate();
    run.measureBaselines();
    return run.finish();
}

} // namespace beamscope
