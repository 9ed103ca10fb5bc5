// Contents: GPU spec for a device; job construction; runBenchmark (sample, compile/measure in
// workers, filter, choose, baselines); the report as JSON and as a table.
#include "bench/BenchRun.h"

#include "bench/CandidateSampler.h"
#include "bench/Compiler.h"
#include "bench/WorkerRunner.h"
#include "dag/FunctionDAG.h"
#include "schedule/ScheduleIO.h"
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
    if (search.gpu.name.empty()) search.gpu = gpuSpecForDevice(report.device);
    report.gpu = search.gpu;
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

    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(options.source));
    report.pipeline = dag->pipelineName();
    CandidateOptions sampling;
    sampling.search = search;
    sampling.topK = options.top;
    sampling.greedySamples = options.top;
    sampling.dropoutPercent = options.dropoutPercent;
    const CandidateSet set = sampleCandidates(dag, sampling);
    report.beamSearchMs = set.beamSearchMs;
    report.greedySearchMs = set.greedySearchMs;
    report.duplicates = set.duplicates;
    say("sampled " + std::to_string(set.candidates.size()) + " candidates (beam search " +
        fixed(set.beamSearchMs, 0) + " ms, greedy " + fixed(set.greedySearchMs, 0) + " ms)");

    const std::string referenceCache = referenceCachePath();
    BenchJob base;
    base.source = options.source;
    base.gpu = search.gpu;
    base.ptxCapability = report.ptxCapability;
    base.warmup = options.warmup;
    base.repeats = options.repeats;
    base.timeoutS = options.timeoutS;
    base.referenceCache = referenceCache;
    WorkerOptions worker;
    worker.workerPath = options.workerPath;
    const bool canRun = !report.target.empty();
    const bool measureAll = options.mode == BenchMode::TopK && canRun;

    auto run = [&](BenchJob job, bool measure) {
        job.target = measure ? report.target : "";
        say(std::string(measure ? "measuring " : "compiling ") + job.label);
        Measurement m = runWorker(job, worker);
        if (m.failed()) say(job.label + ": " + m.failure);
        return m;
    };

    std::vector<BenchJob> jobs;
    for (const BenchCandidate &c : set.candidates) {
        BenchJob job = base;
        job.label = c.label;
        job.predicted = c.predicted;
        job.schedule = scheduleToJson(*c.state);
        report.schedules.push_back(job.schedule);
        jobs.push_back(job);
    }
    if (measureAll || report.ptxCapability > 0) {
        for (const BenchJob &job : jobs)
            report.candidates.push_back(run(job, measureAll));
    } else {
        for (const BenchJob &job : jobs) { // nothing to compile: prediction only
            Measurement m;
            m.label = job.label;
            m.predicted = job.predicted;
            report.candidates.push_back(m);
        }
    }
    for (size_t i = 0; i < report.candidates.size(); ++i)
        report.candidates[i].searchMs = set.candidates[i].searchMs;
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
        if (options.mode == BenchMode::OneShot && options.measureOneShot && canRun) {
            Measurement measured = run(jobs[size_t(report.chosen)], true);
            measured.searchMs = set.candidates[size_t(report.chosen)].searchMs;
            report.candidates[size_t(report.chosen)] = measured;
        }
    }
    if (report.chosen < 0 && report.chosenWhy.empty()) report.chosenWhy = "no candidate survived";

    const bool measureBaselines = canRun && (measureAll || options.measureOneShot);
    for (Baseline b : options.baselines) {
        BenchJob job = base;
        job.label = std::string("baseline:") + baselineName(b);
        job.baseline = baselineName(b);
        report.baselines.push_back(run(job, measureBaselines));
    }
    std::remove(referenceCache.c_str());
    report.benchMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return report;
}

nlohmann::json BenchReport::toJson() const {
    nlohmann::json j;
    j["pipeline"] = pipeline;
    j["device"] = device.toJson();
    j["target"] = target;
    j["gpu"] = gpu.name;
    j["mode"] = mode == BenchMode::TopK ? "topk" : "oneshot";
    j["ptx_capability"] = ptxCapability;
    j["candidates"] = nlohmann::json::array();
    for (size_t i = 0; i < candidates.size(); ++i) {
        nlohmann::json c = candidates[i].toJson();
        if (i < schedules.size()) c["schedule"] = schedules[i];
        j["candidates"].push_back(c);
    }
    j["baselines"] = nlohmann::json::array();
    for (const Measurement &m : baselines)
        j["baselines"].push_back(m.toJson());
    j["survivors"] = survivors;
    j["chosen"] = chosen >= 0 ? nlohmann::json(candidates[size_t(chosen)].label) : nlohmann::json();
    j["chosen_why"] = chosenWhy;
    j["beam_search_ms"] = beamSearchMs;
    j["greedy_search_ms"] = greedySearchMs;
    j["bench_ms"] = benchMs;
    j["duplicates"] = duplicates;
    return j;
}

void BenchReport::printTable(std::ostream &os) const {
    os << "pipeline " << pipeline << ", device " << device.describe() << "\n";
    os << "target " << (target.empty() ? "none (compile only)" : target) << ", GPU model "
       << gpu.name << ", PTX report "
       << (ptxCapability > 0 ? "sm_" + std::to_string(ptxCapability) : std::string("off"))
       << ", mode " << (mode == BenchMode::TopK ? "topk" : "oneshot") << "\n";
    os << "search: beam " << fixed(beamSearchMs, 1) << " ms, greedy samples "
       << fixed(greedySearchMs, 1) << " ms"
       << (duplicates ? ", " + std::to_string(duplicates) + " duplicate(s) dropped" : "") << "\n\n";
    os << std::left << std::setw(24) << "label" << std::right << std::setw(13) << "predicted_ms"
       << std::setw(11) << "median_ms" << std::setw(6) << "regs" << std::setw(8) << "spills"
       << std::setw(9) << "correct" << std::setw(11) << "search_ms"
       << "  failure\n";
    auto row = [&](const Measurement &m, bool chosenRow) {
        os << std::left << std::setw(24) << ((chosenRow ? "* " : "  ") + m.label) << std::right
           << std::setw(13) << fixed(m.predicted, 4) << std::setw(11)
           << (m.measuredMs ? fixed(m.measuredMs->median, 3) : "-") << std::setw(6)
           << (m.registers >= 0 ? std::to_string(m.registers) : "-") << std::setw(8)
           << (m.spillBytes >= 0 ? std::to_string(m.spillBytes) : "-") << std::setw(9)
           << (m.correct ? (*m.correct ? "true" : "false") : "-") << std::setw(11)
           << fixed(m.searchMs, 1) << "  " << (m.failure.empty() ? "" : m.failure) << "\n";
    };
    for (size_t i = 0; i < candidates.size(); ++i)
        row(candidates[i], int(i) == chosen);
    if (!baselines.empty()) {
        os << "\n";
        for (const Measurement &m : baselines)
            row(m, false);
    }
    os << "\nchosen: "
       << (chosen >= 0 ? candidates[size_t(chosen)].label + " (" + chosenWhy + ")" : chosenWhy);
    if (chosen >= 0 && candidates[size_t(chosen)].measuredMs) {
        const double ours = candidates[size_t(chosen)].measuredMs->median;
        os << ", median " << fixed(ours) << " ms";
        for (const Measurement &b : baselines) {
            if (b.measuredMs && b.correct.value_or(false) && ours > 0)
                os << "; speedup over " << b.label.substr(9) << " "
                   << fixed(b.measuredMs->median / ours, 2) << "x";
        }
    }
    os << "\nbench time " << fixed(benchMs / 1000, 1) << " s\n";
}

} // namespace beamscope
