// ReferenceCheck: the CPU reference and its cache, the device-naive reference and its cache,
// and the verdict (checkOutputs) that picks between them.
#include "bench/ReferenceCheck.h"

#include "bench/Baselines.h"
#include "bench/BufferLimits.h"
#include "pipeline/PipelineSource.h"
#include "util/Error.h"

#include <sstream>

namespace beamscope {

namespace {

std::string deviceCachePath(const BenchJob &job) {
    return job.referenceCache.empty() ? "" : job.referenceCache + ".device-naive";
}

std::string deviceKey(const BenchJob &job) {
    return referenceKey(job) + "|naive on " + job.target;
}

} // namespace

std::string referenceKey(const BenchJob &job) {
    std::ostringstream os;
    os << job.source.generatorLibrary << "|" << job.source.name;
    for (const std::string &p : job.source.params)
        os << "|" << p;
    for (const std::string &e : job.source.estimates) // output sizes, hence input sizes
        os << "|estimate " << e;
    for (const std::string &i : job.source.inputs) // scalar inputs the user set
        os << "|input " << i;
    os << "|seed=" << job.seed << "|int_max=" << job.intMax;
    return os.str();
}

std::vector<Halide::Buffer<>> cpuReference(const BenchJob &job,
                                           const std::vector<Halide::Buffer<>> &inputs) {
    std::vector<Halide::Buffer<>> expected;
    if (!job.referenceCache.empty() && loadBuffers(job.referenceCache, referenceKey(job), expected))
        return expected;
    PipelineInstance reference = loadPipeline(job.source);
    // Every Func at root: a large one may need 64-bit buffer indexing (BufferLimits.h).
    const Halide::Target host = withBufferLimits(Halide::get_host_target(), FunctionDAG(reference));
    applyReferenceCpuSchedule(reference);
    bindInputs(reference, inputs);
    expected = makeOutputs(reference);
    wrapHalideErrors("reference run on the CPU", [&] {
        Halide::Realization realization(expected);
        reference.pipeline.realize(realization, host);
    });
    if (!job.referenceCache.empty()) saveBuffers(job.referenceCache, referenceKey(job), expected);
    return expected;
}

std::vector<Halide::Buffer<>>
deviceNaiveReference(const BenchJob &job,
                     const std::function<std::vector<Halide::Buffer<>>()> &run) {
    const std::string path = deviceCachePath(job);
    std::vector<Halide::Buffer<>> outputs;
    if (!path.empty() && loadBuffers(path, deviceKey(job), outputs)) return outputs;
    outputs = run();
    if (!path.empty()) saveBuffers(path, deviceKey(job), outputs);
    return outputs;
}

OutputCheck checkOutputs(const BenchJob &job, const std::vector<Halide::Buffer<>> &outputs,
                         const std::vector<Halide::Buffer<>> &cpu,
                         const std::vector<std::string> &names,
                         const std::function<std::vector<Halide::Buffer<>>()> &deviceNaive) {
    std::vector<Halide::Buffer<>> naive; // kept alive while judgeOutputs compares with it
    try {
        return judgeOutputs(job.rtol, job.atol, rawBuffers(outputs), rawBuffers(cpu), names, [&] {
            naive = deviceNaive();
            return rawBuffers(naive);
        });
    } catch (const std::runtime_error &e) {
        throw Error(e.what());
    }
}

} // namespace beamscope
