// Contents: ptxas discovery; CUDA / generic lowering through compile_to_module; running ptxas on
// a temporary .ptx file and parsing its -v report; the post-compile filter (paper 6.1).
#include "measure/Compiler.h"

#include "measure/DeviceDetect.h"
#include "util/Error.h"
#include "util/Subprocess.h"
#include "util/Timing.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <numeric>
#include <regex>

namespace beamscope {

namespace {

using Clock = std::chrono::steady_clock;

/// Writes `text` into a new temporary file with `suffix`; returns its path.
std::string writeTempFile(const std::string &text, const std::string &suffix) {
    const char *dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/beamscope-XXXXXX" + suffix;
    std::vector<char> path(pattern.begin(), pattern.end());
    path.push_back('\0');
    const int fd = mkstemps(path.data(), int(suffix.size()));
    if (fd < 0) throw Error("cannot create a temporary file in " + pattern);
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n <= 0) {
            close(fd);
            unlink(path.data());
            throw Error("cannot write a temporary file");
        }
        done += size_t(n);
    }
    close(fd);
    return path.data();
}

Halide::Module lower(const PipelineInstance &scheduled, const Halide::Target &target) {
    Halide::Pipeline pipeline = scheduled.pipeline;
    const char *api = target.has_feature(Halide::Target::CUDA)     ? "CUDA"
                      : target.has_feature(Halide::Target::OpenCL) ? "OpenCL"
                                                                   : "the host";
    return wrapHalideErrors("compiling " + scheduled.name + " for " + api, [&] {
        return pipeline.compile_to_module(pipeline.infer_arguments(), scheduled.name + "_bench",
                                          target);
    });
}

std::string bufferText(const Halide::Module &module, const std::string &name) {
    for (const Halide::Buffer<> &buffer : module.buffers()) {
        if (buffer.name() != name) continue;
        const char *data = reinterpret_cast<const char *>(buffer.data());
        std::string text(data, buffer.size_in_bytes());
        while (!text.empty() && text.back() == '\0')
            text.pop_back();
        return text;
    }
    return "";
}

} // namespace

int PtxReport::maxRegisters() const {
    if (!ptxasRan()) return -1;
    int most = 0;
    for (const KernelResources &k : kernels)
        most = std::max(most, k.registers);
    return most;
}

std::int64_t PtxReport::spillBytes() const {
    if (!ptxasRan()) return -1;
    std::int64_t total = 0;
    for (const KernelResources &k : kernels)
        total += k.spillStoreBytes + k.spillLoadBytes;
    return total;
}

std::string ptxasPath() {
#ifdef BEAMSCOPE_PTXAS
    if (isExecutableFile(BEAMSCOPE_PTXAS)) return BEAMSCOPE_PTXAS;
#endif
    if (isExecutableFile("/usr/local/cuda/bin/ptxas")) return "/usr/local/cuda/bin/ptxas";
    return "";
}

int resolvePtxCapability(int requested, int cudaDeviceCc, int gpuModelCc,
                         const std::function<void(const std::string &)> &say) {
    const int cc = requested >= 0 ? requested : cudaDeviceCc > 0 ? cudaDeviceCc : gpuModelCc;
    if (cc > 0 && ptxasPath().empty()) {
        say("ptxas not found: no register/spill report");
        return 0;
    }
    return std::max(0, cc);
}

Halide::Target cudaTarget(int cc) {
    return Halide::Target("host-cuda-cuda_capability_" + std::to_string(halideCudaCapability(cc)));
}

std::vector<KernelResources> parsePtxasLog(const std::string &log) {
    static const std::regex entry(R"(Compiling entry function '([^']+)')");
    static const std::regex properties(R"(Function properties for (\S+))");
    static const std::regex spills(
        R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
    static const std::regex registers(R"(Used (\d+) registers)");
    std::vector<KernelResources> kernels;
    auto find = [&](const std::string &name) -> KernelResources * {
        for (KernelResources &k : kernels)
            if (k.name == name) return &k;
        return nullptr;
    };
    std::string current, described;
    size_t start = 0;
    while (start <= log.size()) {
        size_t end = log.find('\n', start);
        if (end == std::string::npos) end = log.size();
        const std::string line = log.substr(start, end - start);
        start = end + 1;
        std::smatch m;
        if (std::regex_search(line, m, entry)) {
            current = m[1];
            if (!find(current)) kernels.push_back(KernelResources{current});
        } else if (std::regex_search(line, m, properties)) {
            described = m[1];
        } else if (std::regex_search(line, m, spills)) {
            if (KernelResources *k = find(described.empty() ? current : described)) {
                k->stackBytes = std::stoll(m[1]);
                k->spillStoreBytes = std::stoll(m[2]);
                k->spillLoadBytes = std::stoll(m[3]);
            }
        } else if (std::regex_search(line, m, registers)) {
            if (KernelResources *k = find(current)) k->registers = std::stoi(m[1]);
        }
        if (end == log.size()) break;
    }
    return kernels;
}

std::string compileToPtx(const PipelineInstance &scheduled, int cc, double *lowerMs) {
    const Clock::time_point start = Clock::now();
    const Halide::Module module = lower(scheduled, cudaTarget(cc));
    std::string ptx = bufferText(module, "cuda_gpu_source_kernels");
    if (lowerMs) *lowerMs = msSince(start);
    return ptx;
}

PtxReport runPtxas(const std::string &ptx, int cc, const std::string &ptxas) {
    PtxReport report;
    report.ptx = ptx;
    if (ptxas.empty()) throw Error("ptxas not found");
    if (ptx.empty()) { // no GPU kernel at all: nothing to report, nothing spills
        report.arch = "sm_" + std::to_string(cc);
        return report;
    }
    const std::string file = writeTempFile(ptx, ".ptx");
    const Clock::time_point start = Clock::now();
    ProcessResult run;
    for (int arch : {cc, 75}) {
        report.arch = "sm_" + std::to_string(arch);
        run = runProcess({ptxas, "-v", "--gpu-name", report.arch, "-o", "/dev/null", file},
                         ProcessOptions{120});
        const std::string all = run.out + run.err;
        const bool unsupported = all.find("gpu-name") != std::string::npos ||
                                 all.find("Unsupported") != std::string::npos ||
                                 all.find("not defined") != std::string::npos;
        if (run.succeeded() || !unsupported || arch >= 75) break;
    }
    unlink(file.c_str());
    report.ptxasMs = msSince(start);
    report.log = run.out + run.err;
    if (!run.succeeded()) {
        const std::string why = lastLine(run.err.empty() ? run.out : run.err);
        report.arch.clear();
        throw Error("ptxas failed (" + run.describeEnd(120) + "): " + why);
    }
    report.kernels = parsePtxasLog(report.log);
    return report;
}

PtxReport compileForCuda(const PipelineInstance &scheduled, int cc, const std::string &ptxas) {
    double lowerMs = 0;
    const std::string ptx = compileToPtx(scheduled, cc, &lowerMs);
    PtxReport report;
    if (ptxas.empty()) {
        report.ptx = ptx;
    } else {
        report = runPtxas(ptx, cc, ptxas);
    }
    report.lowerMs = lowerMs;
    return report;
}

std::string compileForTarget(const PipelineInstance &scheduled, const Halide::Target &target,
                             double *lowerMs) {
    const Clock::time_point start = Clock::now();
    const Halide::Module module = lower(scheduled, target);
    if (lowerMs) *lowerMs = msSince(start);
    for (const char *name : {"opencl_gpu_source_kernels", "cuda_gpu_source_kernels"}) {
        std::string text = bufferText(module, name);
        if (!text.empty()) return text;
    }
    return "";
}

std::vector<size_t> postCompileFilter(const std::vector<Measurement> &candidates) {
    std::vector<size_t> alive;
    for (size_t i = 0; i < candidates.size(); ++i)
        if (!candidates[i].failed()) alive.push_back(i);
    auto byPredicted = [&](size_t a, size_t b) {
        const double pa = candidates[a].predicted, pb = candidates[b].predicted;
        const double ka = std::isnan(pa) ? std::numeric_limits<double>::infinity() : pa;
        const double kb = std::isnan(pb) ? std::numeric_limits<double>::infinity() : pb;
        return ka != kb ? ka < kb : a < b;
    };
    std::vector<size_t> clean;
    for (size_t i : alive)
        if (!candidates[i].spills()) clean.push_back(i);
    if (!clean.empty() || alive.empty()) {
        std::sort(clean.begin(), clean.end(), byPredicted);
        return clean;
    }
    // Every candidate spills: the best predicted within 50% of the least spilling.
    std::int64_t least = std::numeric_limits<std::int64_t>::max();
    for (size_t i : alive)
        least = std::min(least, candidates[i].spillBytes);
    std::vector<size_t> near;
    for (size_t i : alive)
        if (double(candidates[i].spillBytes) <= 1.5 * double(least)) near.push_back(i);
    std::sort(near.begin(), near.end(), byPredicted);
    return {near.front()};
}

} // namespace beamscope
