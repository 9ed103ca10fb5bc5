// Contents: moving GPU loops to the host (Halide's internal schedules); the worker side of the
// triage (host run with assertions, then the kernel source); the parent side (the triage worker,
// the kernel build alone, the verdict).
#include "measure/CrashTriage.h"

#include "measure/BenchData.h"
#include "measure/BufferLimits.h"
#include "measure/Compiler.h"
#include "measure/ReferenceCheck.h"
#include "util/Subprocess.h"
#include "measure/WorkerTask.h"
#include "util/Error.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace beamscope {

namespace {

namespace hi = Halide::Internal;

void loopsToHost(hi::StageSchedule schedule) {
    for (hi::Dim &dim : schedule.dims()) {
        if (dim.for_type == hi::ForType::GPUBlock || dim.for_type == hi::ForType::GPUThread ||
            dim.for_type == hi::ForType::GPULane) {
            dim.for_type = hi::ForType::Serial;
        }
        dim.device_api = Halide::DeviceAPI::None;
    }
}

void functionToHost(hi::Function function, std::set<std::string> &done) {
    if (!done.insert(function.name()).second) return;
    loopsToHost(function.definition().schedule());
    for (size_t i = 0; i < function.updates().size(); ++i)
        loopsToHost(function.update(int(i)).schedule());
    Halide::MemoryType &memory = function.schedule().memory_type();
    if (memory == Halide::MemoryType::GPUShared || memory == Halide::MemoryType::GPUTexture ||
        memory == Halide::MemoryType::Register) {
        memory = Halide::MemoryType::Auto;
    }
    for (const auto &wrapper : function.schedule().wrappers())
        functionToHost(hi::Function(wrapper.second), done);
    for (const auto &called : hi::find_transitive_calls(function))
        functionToHost(called.second, done);
}

Halide::Target deviceTarget(const BenchJob &job) {
    Halide::Target target;
    try {
        target = job.target.empty() ? cudaTarget(job.ptxCapability > 0 ? job.ptxCapability : 75)
                                    : Halide::Target(job.target);
    } catch (const std::exception &) {
        throw Error("bad target '" + job.target + "'");
    }
    return withBufferLimits(target, job.source); // as the worker's run had it
}

/// Halide's host target with its assertions on (they check every buffer's bounds), with the
/// device target's LargeBuffers (BufferLimits.h).
Halide::Target hostTarget(const Halide::Target &device) {
    Halide::Target host = Halide::get_host_target().without_feature(Halide::Target::NoAsserts);
    if (device.has_feature(Halide::Target::LargeBuffers))
        host = host.with_feature(Halide::Target::LargeBuffers);
    return host;
}

/// Runs `instance` on the host into fresh outputs; throws Error (Halide's message).
std::vector<Halide::Buffer<>> runOnHost(
    PipelineInstance instance, const std::vector<Halide::Buffer<>> &inputs,
    const Halide::Target &device, const std::function<void()> &compiled = [] {}) {
    const Halide::Target host = hostTarget(device);
    moveGpuLoopsToHost(instance);
    bindInputs(instance, inputs);
    std::vector<Halide::Buffer<>> outputs = makeOutputs(instance);
    wrapHalideErrors("host compile", [&] { instance.pipeline.compile_jit(host); });
    compiled();
    wrapHalideErrors("host run", [&] {
        Halide::Realization realization(outputs);
        instance.pipeline.realize(realization, host);
    });
    return outputs;
}

nlohmann::json hostFinding(const BenchJob &job, const Halide::Target &device,
                           const std::function<void(const nlohmann::json &)> &report) {
    PipelineInstance instance;
    std::vector<Halide::Buffer<>> inputs;
    std::vector<Halide::Buffer<>> outputs;
    try {
        instance = scheduledInstance(job, device);
        inputs = makeInputs(instance, job.seed, job.intMax);
        outputs = runOnHost(instance, inputs, device, [&] { report({{"host_compiled", true}}); });
        report({{"host_ran", true}});
    } catch (const Error &e) {
        return {{"host", "error"}, {"host_detail", e.what()}};
    }
    const auto naiveOnHost = [&] {
        BenchJob naive = job;
        naive.schedule = nullptr;
        naive.baseline = "naive";
        return runOnHost(scheduledInstance(naive, device), inputs, device);
    };
    try {
        const OutputCheck check =
            checkOutputs(job, outputs, cpuReference(job, inputs), outputNames(instance),
                         naiveOnHost, [&] { return cpuContractionFreeReference(job, inputs); });
        if (check.correct) return {{"host", "correct"}, {"host_detail", check.note}};
        return {{"host", "wrong"}, {"host_detail", check.failure}};
    } catch (const Error &e) {
        return {{"host", "error"}, {"host_detail", std::string("reference: ") + e.what()}};
    }
}

/// Writes `text` to a new file named after `pattern` (mkstemps, `suffix` characters kept).
std::string writeTemp(const std::string &pattern, int suffix, const std::string &text) {
    std::vector<char> path(pattern.begin(), pattern.end());
    path.push_back('\0');
    const int fd = mkstemps(path.data(), suffix);
    if (fd < 0) throw Error("cannot create a file like " + pattern);
    close(fd);
    std::ofstream out(path.data());
    out << text;
    if (!out) throw Error(std::string("cannot write ") + path.data());
    return path.data();
}

std::string tempDir() {
    const char *dir = std::getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

/// Every line of `out` that parses as a JSON object, merged (later keys win).
nlohmann::json jsonLines(const std::string &out) {
    nlohmann::json merged = nlohmann::json::object();
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] != '{') continue;
        const nlohmann::json parsed = nlohmann::json::parse(line, nullptr, false);
        if (parsed.is_object()) merged.update(parsed);
    }
    return merged;
}

std::string text(const nlohmann::json &j, const char *key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

/// True when a failed host run's message is one of Halide's bounds assertions.
bool isBoundsAssertion(const std::string &message) {
    for (const char *pattern :
         {"is accessed at", "out of bounds", "which is beyond", "before the min"})
        if (message.find(pattern) != std::string::npos) return true;
    return false;
}

} // namespace

CrashVerdict crashVerdictOf(const nlohmann::json &found, const ProcessResult &triage,
                            const std::function<ProcessResult()> &buildAlone, double timeoutS) {
    const std::string host = text(found, "host");
    const std::string hostDetail = text(found, "host_detail");
    if (host.empty() && found.value("host_compiled", false) && !found.value("host_ran", false) &&
        triage.signal != 0) {
        // Compiled for the host with its assertions, the same loop nest crashed there too: the
        // fault is in the schedule as Halide compiles it, not in the device toolchain.
        const std::string tail = lastLine(triage.err);
        return {kVerdictHostCrash,
                "the host run " + triage.describeEnd(timeoutS) + (tail.empty() ? "" : ": " + tail)};
    }
    if (host.empty()) {
        const std::string tail = lastLine(triage.err);
        return {kVerdictUnknown, "the host triage run " + triage.describeEnd(timeoutS) +
                                     (tail.empty() ? "" : ": " + tail)};
    }
    if (host == "error") {
        if (isBoundsAssertion(hostDetail))
            return {kVerdictOutOfBounds, "on the host: " + hostDetail};
        return {kVerdictUnknown, "the host triage run failed: " + hostDetail};
    }
    if (host == "wrong") return {kVerdictWrongValues, "on the host: " + hostDetail};
    const std::string kernel = text(found, "kernel");
    const std::string correct = "correct on the host with bounds checks";
    if (kernel != "written") {
        const std::string why = text(found, "kernel_detail");
        return {kVerdictToolchainCrash,
                correct + "; kernels not built alone (" +
                    (why.empty() ? "the triage run " + triage.describeEnd(timeoutS) : why) + ")"};
    }
    const ProcessResult build = buildAlone();
    if (build.signal != 0)
        return {kVerdictCompilerCrash, correct +
                                           "; its OpenCL kernels alone crashed clBuildProgram (" +
                                           build.describeEnd(timeoutS) + ")"};
    if (build.succeeded())
        return {kVerdictToolchainCrash,
                correct + "; its OpenCL kernels build alone, so the device run crashed"};
    const nlohmann::json result = jsonLines(build.out);
    const std::string why = text(result, "failure");
    return {kVerdictUnknown, correct + "; building its kernels alone " +
                                 (why.empty() ? build.describeEnd(timeoutS) : "failed: " + why)};
}

void moveGpuLoopsToHost(const PipelineInstance &instance) {
    std::set<std::string> done;
    for (const Halide::Func &output : instance.pipeline.outputs())
        functionToHost(output.function(), done);
}

void triageOnHost(const BenchJob &job, const std::string &kernelFile,
                  const std::function<void(const nlohmann::json &)> &report) {
    const Halide::Target device = deviceTarget(job);
    report(hostFinding(job, device, report));
    if (!device.has_feature(Halide::Target::OpenCL)) {
        report(
            {{"kernel", "none"}, {"kernel_detail", "no OpenCL kernels on " + device.to_string()}});
        return;
    }
    try {
        const std::string source = compileForTarget(scheduledInstance(job, device), device);
        std::ofstream out(kernelFile);
        out << source;
        if (!out) throw Error("cannot write " + kernelFile);
        report({{"kernel", source.empty() ? "none" : "written"}, {"kernel_detail", ""}});
    } catch (const Error &e) {
        report({{"kernel", "error"}, {"kernel_detail", e.what()}});
    }
}

CrashVerdict triageCrash(const BenchJob &job, const std::string &worker,
                         const std::vector<std::string> &environment,
                         const std::atomic<bool> *cancel) {
    std::string jobFile, kernelFile;
    try {
        jobFile = writeTemp(tempDir() + "/beamscope-triage-XXXXXX.json", 5, job.toJson().dump());
        kernelFile = writeTemp(tempDir() + "/beamscope-kernel-XXXXXX.cl", 3, "");
    } catch (const Error &e) {
        if (!jobFile.empty()) unlink(jobFile.c_str());
        return {kVerdictUnknown, e.what()};
    }
    ProcessOptions process;
    process.timeoutS = std::max(job.timeoutS, 60.0);
    process.cancel = cancel;
    process.environment = environment;
    const ProcessResult triage = runProcess({worker, "--triage", jobFile, kernelFile}, process);
    const auto buildAlone = [&] {
        return runProcess({worker, "--build-opencl", kernelFile}, process);
    };
    const CrashVerdict verdict =
        triage.cancelled
            ? CrashVerdict{kVerdictUnknown, "triage cancelled"}
            : crashVerdictOf(jsonLines(triage.out), triage, buildAlone, process.timeoutS);
    unlink(jobFile.c_str());
    unlink(kernelFile.c_str());
    return verdict;
}

} // namespace beamscope
