// ReferenceCheck: the CPU reference and its cache, the device-naive reference and its cache,
// and the verdict (checkOutputs) that picks between them.
#include "bench/ReferenceCheck.h"

#include "bench/Baselines.h"
#include "pipeline/PipelineSource.h"
#include "util/Error.h"

#include <sstream>

namespace beamscope {

namespace {

/// "N of M values beyond tolerance, max error E (first: output 'x' at (..): a vs b)".
std::string describe(const Comparison &c) {
    std::ostringstream os;
    os << c.mismatches << " of " << c.elements << " values beyond tolerance, max error "
       << c.maxAbsError << " (first: " << c.firstMismatch << ")";
    return os.str();
}

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
    applyReferenceCpuSchedule(reference);
    bindInputs(reference, inputs);
    expected = makeOutputs(reference);
    wrapHalideErrors("reference run on the CPU", [&] {
        Halide::Realization realization(expected);
        reference.pipeline.realize(realization, Halide::get_host_target());
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
    OutputCheck check;
    Comparison c = compareOutputs(outputs, cpu, job.rtol, job.atol, names);
    std::string against;
    if (!c.ok()) {
        std::vector<Halide::Buffer<>> naive;
        try {
            naive = deviceNaive();
        } catch (const Error &e) {
            check.note = std::string("the naive schedule could not run on the device to check "
                                     "the CPU reference: ") +
                         e.what();
        }
        if (!naive.empty()) {
            const Comparison naiveVsCpu = compareOutputs(naive, cpu, job.rtol, job.atol, names);
            if (!naiveVsCpu.ok()) {
                check.note = "float-sensitive on this device: the naive schedule differs from "
                             "the CPU reference in " +
                             describe(naiveVsCpu) + "; checked against the device's naive output";
                c = compareOutputs(outputs, naive, job.rtol, job.atol, names);
                against = " against the device's naive output";
                // Other schedules round differently from the naive one at about as many
                // float-sensitive values: a few such differences are within the budget.
                const std::int64_t budget = kFloatSensitiveBudget * naiveVsCpu.mismatches;
                if (!c.ok() && c.mismatches <= budget) {
                    check.note += "; " + describe(c) + " against it, within the budget of " +
                                  std::to_string(budget) + " (" +
                                  std::to_string(kFloatSensitiveBudget) +
                                  " x the naive schedule's differences)";
                    c.mismatches = 0;
                }
            }
        }
    }
    check.correct = c.ok();
    check.maxAbsError = c.maxAbsError;
    check.maxRelError = c.maxRelError;
    if (!c.ok()) check.failure = "wrong output: " + describe(c) + against;
    return check;
}

} // namespace beamscope
