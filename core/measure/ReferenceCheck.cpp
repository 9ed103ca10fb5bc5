// ReferenceCheck: the CPU reference and its cache, the device-naive reference and its cache,
// and the verdict (checkOutputs) that picks between them.
#include "measure/ReferenceCheck.h"

#include "measure/Baselines.h"
#include "measure/BufferLimits.h"
#include "pipeline/PipelineSource.h"
#include "util/Error.h"

#include <cstdio>
#include <sstream>

namespace beamscope {

namespace {

// The caches kept beside job.referenceCache (removeReferenceCaches removes them all).
constexpr const char *kDeviceNaiveSuffix = ".device-naive";
constexpr const char *kStrictFloatSuffix = ".strict-float";

/// job.referenceCache + `suffix`, or "" when the job has no cache.
std::string companionCache(const BenchJob &job, const char *suffix) {
    return job.referenceCache.empty() ? "" : job.referenceCache + suffix;
}

std::string deviceKey(const BenchJob &job) {
    return referenceKey(job) + "|naive on " + job.target;
}

} // namespace

std::string referenceKey(const BenchJob &job) {
    std::ostringstream os;
    os << userFile(job.source) << "|" << job.source.name;
    for (const std::string &p : job.source.params)
        os << "|" << p;
    for (const std::string &e : job.source.estimates) // output sizes, hence input sizes
        os << "|estimate " << e;
    for (const std::string &i : job.source.inputs) // scalar inputs the user set
        os << "|input " << i;
    os << "|seed=" << job.seed << "|int_max=" << job.intMax;
    return os.str();
}

namespace {

/// The reference schedule's outputs on the host, with strict_float when `strict`, cached in
/// `cache` under `key` ("" cache: not cached).
std::vector<Halide::Buffer<>> hostReference(const BenchJob &job,
                                            const std::vector<Halide::Buffer<>> &inputs,
                                            bool strict, const std::string &cache,
                                            const std::string &key) {
    std::vector<Halide::Buffer<>> expected;
    if (!cache.empty() && loadBuffers(cache, key, expected)) return expected;
    PipelineInstance reference = loadPipeline(job.source);
    // Every Func at root: a large one may need 64-bit buffer indexing (BufferLimits.h).
    Halide::Target host = withBufferLimits(Halide::get_host_target(), FunctionDAG(reference));
    if (strict) host = host.with_feature(Halide::Target::StrictFloat);
    applyReferenceCpuSchedule(reference);
    bindInputs(reference, inputs);
    expected = makeOutputs(reference);
    wrapHalideErrors(
        strict ? "reference run on the CPU with strict_float" : "reference run on the CPU", [&] {
            Halide::Realization realization(expected);
            reference.pipeline.realize(realization, host);
        });
    if (!cache.empty()) saveBuffers(cache, key, expected);
    return expected;
}

} // namespace

void removeReferenceCaches(const std::string &path) {
    if (path.empty()) return;
    for (const char *suffix : {"", kDeviceNaiveSuffix, kStrictFloatSuffix})
        std::remove((path + suffix).c_str());
}

std::vector<Halide::Buffer<>> cpuReference(const BenchJob &job,
                                           const std::vector<Halide::Buffer<>> &inputs) {
    return hostReference(job, inputs, false, job.referenceCache, referenceKey(job));
}

std::vector<Halide::Buffer<>>
cpuContractionFreeReference(const BenchJob &job, const std::vector<Halide::Buffer<>> &inputs) {
    return hostReference(job, inputs, true, companionCache(job, kStrictFloatSuffix),
                         referenceKey(job) + "|strict_float");
}

std::vector<Halide::Buffer<>>
deviceNaiveReference(const BenchJob &job,
                     const std::function<std::vector<Halide::Buffer<>>()> &run) {
    const std::string path = companionCache(job, kDeviceNaiveSuffix);
    std::vector<Halide::Buffer<>> outputs;
    if (!path.empty() && loadBuffers(path, deviceKey(job), outputs)) return outputs;
    outputs = run();
    if (!path.empty()) saveBuffers(path, deviceKey(job), outputs);
    return outputs;
}

OutputCheck checkOutputs(const BenchJob &job, const std::vector<Halide::Buffer<>> &outputs,
                         const std::vector<Halide::Buffer<>> &cpu,
                         const std::vector<std::string> &names,
                         const std::function<std::vector<Halide::Buffer<>>()> &deviceNaive,
                         const std::function<std::vector<Halide::Buffer<>>()> &contractionFree) {
    // Kept alive while judgeOutputs compares with them.
    std::vector<Halide::Buffer<>> naive, strict;
    std::function<std::vector<const halide_buffer_t *>()> strictRaw;
    if (contractionFree) {
        strictRaw = [&] {
            strict = contractionFree();
            return rawBuffers(strict);
        };
    }
    try {
        return judgeOutputs(
            job.rtol, job.atol, rawBuffers(outputs), rawBuffers(cpu), names,
            [&] {
                naive = deviceNaive();
                return rawBuffers(naive);
            },
            strictRaw);
    } catch (const std::runtime_error &e) {
        throw Error(e.what());
    }
}

} // namespace beamscope
