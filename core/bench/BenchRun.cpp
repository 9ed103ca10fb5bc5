// Contents: GPU spec for a device; the candidates (given or sampled); runBenchmark (compile and
// measure in workers with progress and cancellation, filter, choose, baselines). The report as
// JSON and as a table is in BenchReport.cpp.
#include "bench/BenchRun.h"

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

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace beamscope {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string referenceCachePath() {
    const char *dir = std::getenv("TMPDIR");
    static int counter = 0;
    return std::string(dir && *dir ? dir : "/tmp") + "/beamscope-ref-" + std::to_string(getpid()) +
           "-" + std::to_string(++counter) + ".bin";
}

std::string fixed(double v, int precision = 3) {
    if (!std::isfinite(v)) return "-";
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision) << v;
    return os.str();
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

GpuSpec gpuSpecForDevice(const DeviceInfo &device) {
    if (device.kind == DeviceKind::OpenCL && device.openclType == "CPU")
        return GpuSpec::load("pocl-cpu");
    if (device.kind == DeviceKind::Cuda) {
        const std::string name = lower(device.name);
        for (const auto &[key, preset] : std::vector<std::pair<std::string, std::string>>{
                 {"h100", "h100"}, {"a100", "a100"}, {"v100", "v100"}, {"4090", "rtx4090"}}) {
            if (name.find(key) != std::string::npos) return GpuSpec::load(preset);
        }
        GpuSpec spec = GpuSpec::load("v100");
        spec.name = device.name + " (v100 model)";
        if (device.computeUnits > 0) spec.smCount = device.computeUnits;
        spec.computeCapability = device.computeCapability;
        return spec;
    }
    return GpuSpec::load("v100");
}

BenchReport runBenchmark(const BenchOptions &options) {
    const auto start = std::chrono::steady_clock::now();
    auto say = [&](const std::string &line) {
        if (options.progress) options.progress(line);
    };
    auto cancelled = [&] { return options.cancel && options.cancel->load(); };
    BenchReport report;
    report.mode = options.mode;
    report.device = detectDevice(options.device);
    if (options.device == DevicePreference::Cuda && report.device.kind != DeviceKind::Cuda)
        throw Error("no CUDA device: " + report.device.describe());
    if (options.device == DevicePreference::OpenCL && report.device.kind != DeviceKind::OpenCL)
        throw Error("no OpenCL device: " + report.device.describe());
    report.target = report.device.halideTarget();
    say("device: " + report.device.describe());

    SearchOptions search = options.search;
    if (options.candidates && search.gpu.name.empty())
        throw UsageError("benchmark: given candidates need the GPU spec they were searched for");
    if (search.gpu.name.empty()) search.gpu = gpuSpecForDevice(report.device);
    if (search.costModel == kDefaultModelSpec) search.costModel = defaultCostModelSpec(search.gpu);
    report.gpu = search.gpu;
    report.costModel = search.costModel;
    if (options.ptxCapability >= 0) {
        report.ptxCapability = options.ptxCapability;
    } else if (report.device.kind == DeviceKind::Cuda) {
        report.ptxCapability = report.device.computeCapability;
    } else {
        report.ptxCapability = search.gpu.computeCapability;
    }
    if (report.ptxCapability > 0 && ptxasPath().empty()) {
        say("ptxas not found: no register/spill report");
        report.ptxCapability = 0;
    }

    std::shared_ptr<const FunctionDAG> dag = options.dag;
    const bool needDag =
        !options.candidates || options.extraGreedySamples > 0 || options.store != nullptr;
    if (!dag && needDag) dag = std::make_shared<const FunctionDAG>(loadPipeline(options.source));
    const CandidateSet set = candidateSet(options, search, dag, report.pipeline);
    report.beamSearchMs = set.beamSearchMs;
    report.greedySearchMs = set.greedySearchMs;
    report.duplicates = set.duplicates;
    if (!options.candidates) {
        say("sampled " + std::to_string(set.candidates.size()) + " candidates (beam search " +
            fixed(set.beamSearchMs, 0) + " ms, greedy " + fixed(set.greedySearchMs, 0) + " ms)");
    }

    const std::string referenceCache = referenceCachePath();
    BenchJob base;
    base.source = options.source;
    base.gpu = search.gpu;
    base.ptxCapability = report.ptxCapability;
    base.stageProducers = options.stageProducers;
    base.warmup = options.warmup;
    base.repeats = options.repeats;
    base.timeoutS = options.timeoutS;
    base.referenceCache = referenceCache;
    WorkerOptions worker;
    worker.workerPath = options.workerPath;
    worker.cancel = options.cancel;
    const bool canRun = !report.target.empty();
    const bool measureAll = options.mode == BenchMode::TopK && canRun;
    const bool compileAll = measureAll || report.ptxCapability > 0;
    const bool measureBaselines = canRun && (measureAll || options.measureOneShot);
    const bool measureChosen =
        options.mode == BenchMode::OneShot && options.measureOneShot && canRun;

    RecordContext context;
    if (options.store && dag) {
        context.pipeline = PipelineIdentity::of(options.source, *dag);
        context.device = DeviceIdentity::of(report.device);
        context.gpu = search.gpu.toJson();
        context.costModel = search.costModel;
        context.repeats = options.repeats;
        context.origin = options.origin;
        context.runId = options.runId;
        context.round = options.round;
    }
    BenchRecorder recorder(options.store, context, say);

    BenchProgress progress;
    progress.total = int(options.baselines.size()) + (compileAll ? int(set.candidates.size()) : 0) +
                     (measureChosen && !set.candidates.empty() ? 1 : 0);
    // Runs a batch of jobs (candidate `index`, or a baseline with index -1) with the runner:
    // a row that runs on the device is recorded as it arrives; a candidate the store already
    // has on this device is reused instead. nullopt for a job the cancel flag stopped.
    struct Item {
        BenchJob job;
        bool baseline = false;
        int index = -1;
    };
    RunnerOptions runnerOptions;
    runnerOptions.kind = options.runner;
    runnerOptions.jobs = options.jobs;
    runnerOptions.worker = worker;
    runnerOptions.slurm = options.slurm;
    std::unique_ptr<MeasurementRunner> measuring, compiling;
    auto runBatch = [&](std::vector<Item> items, bool measure) {
        std::vector<std::optional<Measurement>> out(items.size());
        std::vector<size_t> toRun;
        std::vector<BenchJob> jobs;
        for (size_t k = 0; k < items.size(); ++k) {
            if (cancelled()) return out;
            BenchJob &job = items[k].job;
            job.target = measure ? report.target : "";
            const bool storable = measure && (items[k].baseline || options.stageProducers);
            if (storable && !items[k].baseline && !options.fresh) {
                if (std::optional<Measurement> stored = recorder.reusable(job.schedule)) {
                    stored->label = job.label;
                    stored->predicted = job.predicted;
                    progress.label = "reusing " + job.label;
                    say(job.label + ": reused from the measurement database");
                    if (options.onProgress) options.onProgress(progress);
                    ++progress.done;
                    ++report.reused;
                    if (options.onMeasured) options.onMeasured(*stored, false);
                    out[k] = stored;
                    continue;
                }
            }
            toRun.push_back(k);
            jobs.push_back(job);
        }
        if (jobs.empty()) return out;
        std::unique_ptr<MeasurementRunner> &runner = measure ? measuring : compiling;
        if (!runner) {
            RunnerOptions o = runnerOptions;
            if (!measure) o.kind = RunnerKind::Local; // compile-only work stays here
            runner = makeRunner(o, report.device);
        }
        RunnerCallbacks callbacks;
        callbacks.log = say;
        callbacks.onStart = [&](size_t j) {
            progress.label = std::string(measure ? "measuring " : "compiling ") + jobs[j].label;
            say(progress.label);
            if (options.onProgress) options.onProgress(progress);
        };
        callbacks.onDone = [&](size_t j, const Measurement &m) {
            if (m.failure == kCancelledFailure) return; // not a measurement
            const Item &item = items[toRun[j]];
            if (m.failed()) say(item.job.label + ": " + m.failure);
            const bool storable = measure && (item.baseline || options.stageProducers);
            if (storable && recorder.active()) {
                const nlohmann::json terms = item.index >= 0
                                                 ? costOf(*set.candidates[size_t(item.index)].state,
                                                          search.costModel, search.gpu)
                                                       .termsByName()
                                                 : nlohmann::json();
                recorder.record(m, item.job.schedule, terms, item.job.baseline);
            }
            ++progress.done;
            if (options.onMeasured) options.onMeasured(m, item.baseline);
        };
        callbacks.onProgress = options.onRunnerProgress;
        const std::vector<Measurement> rows = runner->run(jobs, callbacks);
        for (size_t j = 0; j < rows.size(); ++j)
            if (rows[j].failure != kCancelledFailure) out[toRun[j]] = rows[j];
        return out;
    };

    std::vector<BenchJob> jobs;
    for (const BenchCandidate &c : set.candidates) {
        BenchJob job = base;
        job.label = c.label;
        job.predicted = c.predicted;
        job.schedule = scheduleToJson(*c.state);
        jobs.push_back(job);
    }
    std::vector<std::optional<Measurement>> rows(jobs.size());
    if (compileAll) {
        std::vector<Item> items;
        for (size_t i = 0; i < jobs.size(); ++i)
            items.push_back(Item{jobs[i], false, int(i)});
        rows = runBatch(items, measureAll);
    }
    for (size_t i = 0; i < jobs.size(); ++i) {
        std::optional<Measurement> m = rows[i];
        if (compileAll) {
            if (!m) break; // cancelled: the rows before it are kept
        } else {           // nothing to compile: prediction only
            m = Measurement();
            m->label = jobs[i].label;
            m->predicted = jobs[i].predicted;
        }
        m->searchMs = set.candidates[i].searchMs;
        report.candidates.push_back(*m);
        report.schedules.push_back(jobs[i].schedule);
    }
    report.survivors = postCompileFilter(report.candidates);

    if (options.mode == BenchMode::TopK && canRun) {
        double best = INFINITY;
        for (size_t i : report.survivors) {
            const Measurement &m = report.candidates[i];
            if (m.correct.value_or(false) && m.measuredMs && m.measuredMs->median < best) {
                best = m.measuredMs->median;
                report.chosen = int(i);
            }
        }
        report.chosenWhy = "fastest correct candidate after the post-compile filter";
    } else if (!report.survivors.empty()) {
        report.chosen = int(report.survivors.front());
        report.chosenWhy = "best predicted candidate after the post-compile filter";
        if (measureChosen) {
            if (std::optional<Measurement> measured =
                    runBatch({Item{jobs[size_t(report.chosen)], false, report.chosen}}, true)
                        .front()) {
                measured->searchMs = set.candidates[size_t(report.chosen)].searchMs;
                report.candidates[size_t(report.chosen)] = *measured;
            }
        }
    }
    if (report.chosen < 0 && report.chosenWhy.empty()) report.chosenWhy = "no candidate survived";

    std::vector<Item> baselineItems;
    for (Baseline b : options.baselines) {
        BenchJob job = base;
        job.label = std::string("baseline:") + baselineName(b);
        job.baseline = baselineName(b);
        baselineItems.push_back(Item{job, true, -1});
    }
    // Baselines run at once and stand alone: a stop keeps each one that finished, also behind
    // one that did not (candidates keep their prefix, since their indices name schedules).
    for (const std::optional<Measurement> &m : runBatch(baselineItems, measureBaselines))
        if (m) report.baselines.push_back(*m);
    removeReferenceCaches(referenceCache);
    report.recorded = recorder.recorded();
    if (options.store) {
        say("measurement database: " + std::to_string(report.recorded) + " row(s) recorded, " +
            std::to_string(report.reused) + " reused");
    }
    report.cancelled = cancelled();
    if (report.cancelled) {
        say("cancelled");
        progress.label = "cancelled";
    } else {
        progress.label = "done";
    }
    if (options.onProgress) options.onProgress(progress);
    report.benchMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return report;
}

} // namespace beamscope
