// Contents: scheduling a fresh instance for a job; the PTX resource report; the timed run;
// the naive schedule's run for the reference check (ReferenceCheck.h); executeJob tying them
// together, with the test-only fault injection.
#include "measure/WorkerTask.h"

#include "codegen/ScheduleApplier.h"
#include "dag/FunctionDAG.h"
#include "measure/AotArtifact.h"
#include "measure/Baselines.h"
#include "measure/BenchData.h"
#include "measure/BufferLimits.h"
#include "measure/Compiler.h"
#include "measure/DeviceLock.h"
#include "measure/KernelActivity.h"
#include "measure/ReferenceCheck.h"
#include "measure/TimedRuns.h"
#include "measure/TimingPriority.h"
#include "schedule/ScheduleIO.h"
#include "util/Error.h"
#include "util/Timing.h"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <sstream>

namespace beamscope {

namespace {

using Clock = std::chrono::steady_clock;

/// True when the test-only fault `fault` is among job.inject's comma-separated faults.
bool injected(const BenchJob &job, const std::string &fault) {
    std::stringstream faults(job.inject);
    std::string f;
    while (std::getline(faults, f, ','))
        if (f == fault) return true;
    return false;
}

/// Fills registers, spills and kernels from ptxas; returns false (failure set) when it fails.
bool ptxReport(const PipelineInstance &scheduled, int cc, Measurement &m) {
    try {
        const PtxReport report = compileForCuda(scheduled, cc);
        m.kernels = report.kernels;
        m.registers = report.maxRegisters();
        m.spillBytes = report.spillBytes();
        m.ptxArch = report.arch;
        return true;
    } catch (const Error &e) {
        m.failure = std::string("CUDA compile: ") + e.what();
        return false;
    }
}

/// Func names made by Halide's unique_name ("lambda_3", "f12") depend on how many were made
/// before in the process, so the parent's names may differ from this fresh instance's. When a
/// name of `schedule` is not in `dag`, Funcs are matched by position instead (the schedule
/// lists them in the search order, which depends on the pipeline's structure only); consumer
/// references follow. scheduleFromJson then checks stages and loops.
nlohmann::json matchFuncNames(const nlohmann::json &schedule, const FunctionDAG &dag) {
    if (!schedule.is_array()) return schedule;
    bool allFound = true;
    for (const auto &f : schedule) {
        if (!f.is_object() || !f.contains("name") || !f["name"].is_string() ||
            dag.find(f["name"].get<std::string>()) < 0) {
            allFound = false;
        }
    }
    const std::vector<int> &order = dag.outputsFirst();
    if (allFound || schedule.size() != order.size()) return schedule;
    std::map<std::string, std::string> renamed;
    for (size_t i = 0; i < order.size(); ++i) {
        if (schedule[i].contains("name") && schedule[i]["name"].is_string())
            renamed[schedule[i]["name"].get<std::string>()] = dag.node(order[i]).name;
    }
    nlohmann::json out = schedule;
    for (auto &f : out) {
        f["name"] = renamed[f["name"].get<std::string>()];
        if (f.contains("consumer") && f["consumer"].is_string()) {
            auto it = renamed.find(f["consumer"].get<std::string>());
            if (it != renamed.end()) f["consumer"] = it->second;
        }
    }
    std::fprintf(stderr,
                 "beamscope-worker: Func names differ from the job's; matched by position\n");
    return out;
}

/// Creates the device context and puts the inputs (and room for the outputs) on the device
/// before the device lock is taken. That is host and driver work (the driver's initialization,
/// the context, copies over PCIe) that runs no kernel; under the lock it serialized every worker
/// behind it. The kernels' module load stays under the lock, in the first (warm-up) run.
void prepareDevice(std::vector<Halide::Buffer<>> &inputs, std::vector<Halide::Buffer<>> &outputs,
                   const Halide::Target &target) {
    const Halide::DeviceAPI api = target.get_required_device_api();
    if (api == Halide::DeviceAPI::None) return;
    for (Halide::Buffer<> &in : inputs) {
        in.set_host_dirty(true); // makeInputs wrote the host side
        in.copy_to_device(api, target);
    }
    for (Halide::Buffer<> &out : outputs)
        out.device_malloc(api, target);
}

/// Runs the scheduled pipeline kProfiledRuns more times with CUPTI recording each kernel, after
/// the timed runs (which stay free of CUPTI's overhead), into m.kernelTimes, or says in
/// m.kernelTimesNote why not.
void profileKernels(PipelineInstance &instance, Halide::Realization &realization,
                    std::vector<Halide::Buffer<>> &outputs, const Halide::Target &target,
                    Measurement &m) {
    constexpr int kProfiledRuns = 3;
    KernelActivity activity;
    if (!activity.recording()) {
        m.kernelTimesNote = activity.unavailable();
        return;
    }
    std::vector<std::vector<KernelRecord>> runs;
    for (int i = 0; i < kProfiledRuns; ++i) {
        instance.pipeline.realize(realization, target);
        for (Halide::Buffer<> &out : outputs)
            out.device_sync();
        runs.push_back(activity.collect());
    }
    m.kernelTimes = summarizeKernelRuns(runs);
    if (m.kernelTimes.empty()) m.kernelTimesNote = "CUPTI recorded no kernel";
}

/// A progress line on stderr (the parent keeps its tail for failure messages).
void log(const char *what, Clock::time_point since) {
    std::fprintf(stderr, "beamscope-worker: %s (%.0f ms)\n", what, msSince(since));
}

} // namespace

PipelineInstance scheduledInstance(const BenchJob &job, const Halide::Target &target,
                                   double *searchMs) {
    PipelineInstance instance = loadPipeline(job.source);
    if (!job.schedule.is_null()) {
        auto dag = std::make_shared<const FunctionDAG>(instance);
        StatePtr state =
            scheduleFromJson(dag, matchFuncNames(job.schedule, *dag), job.maxUnrolledPoints);
        ScheduleCallOptions calls =
            ScheduleCallOptions::forGpu(job.gpu.name.empty() ? GpuSpec::defaultSpec() : job.gpu);
        calls.stageProducers = job.stageProducers;
        applySchedule(*state, instance, target, calls);
        return instance;
    }
    const Baseline baseline = parseBaseline(job.baseline);
    if (baseline == Baseline::Naive) {
        applyNaiveGpuSchedule(instance);
    } else {
        const GpuSpec gpu = job.gpu.name.empty() ? GpuSpec::defaultSpec() : job.gpu;
        const AutoschedulerRun run = applyHalideAutoscheduler(baseline, instance, target, gpu);
        if (searchMs) *searchMs = run.milliseconds;
    }
    return instance;
}

Measurement executeJob(const BenchJob &job) {
    Measurement m;
    m.label = job.label;
    m.predicted = job.predicted;
    m.target = job.target;
    m.maxUnrolledPoints = job.maxUnrolledPoints;
    // Fault injection, for tests of the parent's handling only.
    // The default action, so that a handler (a sanitizer's runtime) cannot turn it into an abort.
    if (injected(job, "crash")) {
        std::signal(SIGSEGV, SIG_DFL);
        std::raise(SIGSEGV);
    }
    if (injected(job, "hang"))
        for (;;)
            pause();
    if (injected(job, "error")) throw Error("injected error (test only)");

    // One scheduled instance serves both the CUDA lowering and the run: schedules use
    // DeviceAPI::Default_GPU, and lowering works on a copy of the Funcs.
    const int cc = job.ptxCapability > 0 ? job.ptxCapability
                   : job.target.empty()
                       ? (job.gpu.computeCapability > 0 ? job.gpu.computeCapability : 75)
                       : 0;
    Halide::Target target;
    try {
        target = job.target.empty() ? cudaTarget(cc) : Halide::Target(job.target);
    } catch (const std::exception &e) {
        throw Error("bad target '" + job.target + "'");
    }
    PipelineInstance instance;
    const Clock::time_point scheduleStart = Clock::now();
    try {
        if (!job.target.empty()) { // a run: large buffers where the pipeline needs them
            const Halide::Target limited = withBufferLimits(target, job.source);
            if (limited != target) m.target = job.target + "-large_buffers";
            target = limited;
        }
        instance = scheduledInstance(job, target, &m.searchMs);
        log("scheduled", scheduleStart);
    } catch (const Error &e) {
        m.failure = std::string("schedule: ") + e.what();
        return m;
    }
    const Clock::time_point ptxStart = Clock::now();
    if (cc > 0 && !ptxReport(instance, cc, m)) return m;
    if (cc > 0) log("PTX report", ptxStart);
    if (job.target.empty() && !job.aotLibrary.empty()) { // compile here, run on a Slurm node
        const Clock::time_point aotStart = Clock::now();
        try {
            m.compileMs = buildAotArtifact(job);
            log("AOT-compiled the artifact and shipped its data", aotStart);
        } catch (const Error &e) {
            m.failure = std::string("AOT compile: ") + e.what();
        }
        return m;
    }
    if (job.target.empty()) return m; // compile only

    std::vector<Halide::Buffer<>> inputs = makeInputs(instance, job.seed, job.intMax);
    bindInputs(instance, inputs);
    std::vector<Halide::Buffer<>> outputs = makeOutputs(instance);
    std::vector<double> times;
    const Clock::time_point compileStart = Clock::now();
    try {
        wrapHalideErrors("compile", [&] { instance.pipeline.compile_jit(target); });
        m.compileMs = msSince(compileStart);
        log("JIT compiled", compileStart);
        const Clock::time_point setupStart = Clock::now();
        wrapHalideErrors("device setup", [&] { prepareDevice(inputs, outputs, target); });
        m.deviceSetupMs = msSince(setupStart);
        // Compilation and setup above run in parallel with other workers; the device runs do not.
        const Clock::time_point waitStart = Clock::now();
        const DeviceLock lock(job.deviceLock);
        const Clock::time_point heldStart = Clock::now();
        m.deviceWaitMs = msSince(waitStart);
        const bool cuda = target.has_feature(Halide::Target::CUDA);
        wrapHalideErrors("run", [&] {
            Halide::Realization realization(outputs);
            {
                const TimingPriority priority(cuda);
                m.timingPriority = priority.name();
                times = timeRuns(job.warmup, job.repeats, job.minTimedMs, [&] {
                    instance.pipeline.realize(realization, target);
                    for (Halide::Buffer<> &out : outputs)
                        out.device_sync();
                });
            }
            if (cuda) profileKernels(instance, realization, outputs, target, m);
            for (Halide::Buffer<> &out : outputs)
                out.copy_to_host();
        });
        m.deviceMs = msSince(heldStart);
    } catch (const std::runtime_error &e) { // Error, or the device lock's
        m.failure = e.what();
        return m;
    }
    m.measuredMs = summarizeTimes(times);
    m.timedRuns = int(times.size());
    log("ran warm-up and repeats", compileStart);
    const bool naiveJob = job.schedule.is_null() && parseBaseline(job.baseline) == Baseline::Naive;
    std::vector<Halide::Buffer<>> naiveOutputs; // this run's own, when it is the naive schedule
    if (naiveJob)
        for (const Halide::Buffer<> &out : outputs)
            naiveOutputs.push_back(out.copy());
    if (injected(job, "wrong") && !outputs.empty()) perturbFirstElement(outputs[0], 100.0);
    if (injected(job, "wrong-tile") && !outputs.empty()) perturbFirstRow(outputs[0], 100.0);

    std::vector<Halide::Buffer<>> expected;
    const Clock::time_point referenceStart = Clock::now();
    try {
        expected = cpuReference(job, inputs);
        log("reference", referenceStart);
    } catch (const Error &e) {
        m.failure = std::string("reference: ") + e.what();
        return m;
    }
    // A CPU reference that every device run differs from (simulates a float-sensitive app).
    if (injected(job, "skew-reference") && !expected.empty())
        perturbFirstElement(expected[0], 50.0);
    const auto runNaive = [&] {
        if (naiveJob) return naiveOutputs;
        const Clock::time_point naiveStart = Clock::now();
        BenchJob naive = job;
        naive.schedule = nullptr;
        naive.baseline = "naive";
        PipelineInstance scheduled = scheduledInstance(naive, target);
        bindInputs(scheduled, inputs);
        std::vector<Halide::Buffer<>> out = makeOutputs(scheduled);
        wrapHalideErrors("naive run on the device", [&] {
            scheduled.pipeline.compile_jit(target);
            const DeviceLock lock(job.deviceLock);
            Halide::Realization realization(out);
            scheduled.pipeline.realize(realization, target);
            for (Halide::Buffer<> &b : out)
                b.copy_to_host();
        });
        log("naive schedule on the device, for the reference check", naiveStart);
        return out;
    };
    const OutputCheck check = checkOutputs(
        job, outputs, expected, outputNames(instance),
        [&] { return deviceNaiveReference(job, runNaive); },
        [&] {
            std::vector<Halide::Buffer<>> strict = cpuContractionFreeReference(job, inputs);
            // A strict_float reference that differs from the CPU reference
            // (simulates a contraction-sensitive app).
            if (injected(job, "skew-contraction") && !strict.empty())
                perturbFirstElement(strict[0], 50.0);
            return strict;
        });
    m.correct = check.correct;
    m.maxError = check.maxAbsError;
    m.maxRelError = check.maxRelError;
    m.failure = check.failure;
    m.checkNote = check.note;
    return m;
}

} // namespace beamscope
