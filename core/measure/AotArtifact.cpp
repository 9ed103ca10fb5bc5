// Contents: finding the linker; compiling a scheduled pipeline into a shared object with its
// argument list; writing a batch's shipped data once (inputs, CPU reference, naive artifact);
// the compile-pass entry point buildAotArtifact.
#include "measure/AotArtifact.h"

#include "measure/AotData.h"
#include "measure/BenchData.h"
#include "measure/BufferLimits.h"
#include "measure/DeviceLock.h"
#include "measure/ReferenceCheck.h"
#include "util/Subprocess.h"
#include "measure/WorkerTask.h"
#include "pipeline/PipelineSource.h"
#include "util/Error.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#ifndef BEAMSCOPE_CXX
#define BEAMSCOPE_CXX ""
#endif

namespace beamscope {

namespace fs = std::filesystem;

namespace {

void writeText(const std::string &path, const std::string &text) {
    const std::string temp = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(temp);
        out << text;
        if (!out) throw Error("cannot write " + temp);
    }
    fs::rename(temp, path);
}

/// The raw value of a bound scalar input (Halide's halide_scalar_value_t bit pattern).
std::uint64_t scalarBits(const Halide::Parameter &p) {
    if (!p.has_scalar_value()) throw Error("scalar input '" + p.name() + "' has no value to ship");
    const Halide::Type t = p.type();
    std::uint64_t bits = 0;
    const auto take = [&](auto tag) {
        const decltype(tag) v = p.scalar<decltype(tag)>();
        std::memcpy(&bits, &v, sizeof v);
    };
    if (t.is_float() && t.bits() == 64)
        take(double());
    else if (t.is_float() && t.bits() == 32)
        take(float());
    else if (t.is_bool())
        take(bool());
    else if (t.is_uint() && t.bits() == 8)
        take(std::uint8_t());
    else if (t.is_uint() && t.bits() == 16)
        take(std::uint16_t());
    else if (t.is_uint() && t.bits() == 32)
        take(std::uint32_t());
    else if (t.is_uint() && t.bits() == 64)
        take(std::uint64_t());
    else if (t.is_int() && t.bits() == 8)
        take(std::int8_t());
    else if (t.is_int() && t.bits() == 16)
        take(std::int16_t());
    else if (t.is_int() && t.bits() == 32)
        take(std::int32_t());
    else if (t.is_int() && t.bits() == 64)
        take(std::int64_t());
    else
        throw Error("scalar input '" + p.name() + "' has a type Beamscope cannot ship");
    return bits;
}

/// Links `object` into the shared object `path` (via path.part, then renamed); removes `object`.
void linkSharedObject(const std::string &object, const std::string &path) {
    const std::string linker = aotLinker();
    ProcessOptions options;
    options.timeoutS = 300;
    const ProcessResult link =
        runProcess({linker, "-shared", "-o", path + ".part", object, "-ldl", "-lpthread"}, options);
    fs::remove(object);
    if (!link.succeeded()) {
        throw Error("linking the artifact with " + linker + ": " + link.describeEnd(300) +
                    (lastLine(link.err).empty() ? "" : ": " + lastLine(link.err)));
    }
    fs::rename(path + ".part", path);
}

} // namespace

std::string aotLinker() {
    if (const char *env = std::getenv("BEAMSCOPE_AOT_CXX"); env && *env) {
        if (!isExecutableFile(env))
            throw Error(std::string("BEAMSCOPE_AOT_CXX=") + env + " is not an executable file");
        return env;
    }
    if (isExecutableFile(BEAMSCOPE_CXX)) return BEAMSCOPE_CXX;
    if (const char *path = std::getenv("PATH")) {
        std::stringstream dirs(path);
        std::string dir;
        while (std::getline(dirs, dir, ':'))
            if (!dir.empty() && isExecutableFile(dir + "/c++")) return dir + "/c++";
    }
    throw Error("no C++ compiler to link artifacts with (set BEAMSCOPE_AOT_CXX)");
}

double compileSharedObject(const PipelineInstance &instance, const Halide::Target &target,
                           const std::string &path) {
    const auto start = std::chrono::steady_clock::now();
    // NAME_argv takes the buffer inputs, then the scalar inputs, in PipelineInstance's order
    // (names differ between instances; positions do not), then one buffer per output value.
    std::vector<Halide::Argument> args;
    nlohmann::json kinds = nlohmann::json::array();
    for (const Halide::Parameter &p : instance.inputs) {
        args.emplace_back(p.name(), Halide::Argument::InputBuffer, p.type(), p.dimensions(),
                          Halide::ArgumentEstimates{});
        kinds.push_back("input");
    }
    for (const Halide::Parameter &p : instance.scalars) {
        args.emplace_back(p.name(), Halide::Argument::InputScalar, p.type(), 0,
                          Halide::ArgumentEstimates{});
        kinds.push_back("scalar");
    }
    Halide::Pipeline pipeline = instance.pipeline; // a handle: the same pipeline
    for (const Halide::Argument &a : pipeline.infer_arguments()) {
        bool known = false;
        for (const Halide::Argument &b : args)
            known = known || a.name == b.name;
        if (!known)
            throw Error("the pipeline reads '" + a.name + "', which is no input Beamscope fills");
    }
    for (const Halide::Func &output : instance.pipeline.outputs())
        for (size_t i = 0; i < output.function().output_types().size(); ++i)
            kinds.push_back("output");

    // Without Halide's runtime (about 2 s of codegen per object): the batch's one runtime.so
    // (shipBatchData) provides it on the node.
    const std::string object = path + ".o";
    wrapHalideErrors("AOT compile", [&] {
        pipeline.compile_to_object(object, args, kAotEntry,
                                   target.with_feature(Halide::Target::NoRuntime));
    });
    linkSharedObject(object, path);
    writeText(path + ".json",
              nlohmann::json{{"entry", kAotEntry}, {"arguments", kinds}}.dump() + "\n");
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

void shipBatchData(const BenchJob &job, const std::string &dir) {
    fs::create_directories(dir);
    std::unique_ptr<DeviceLock> lock;
    try {
        lock = std::make_unique<DeviceLock>(dir + "/.lock");
    } catch (const std::runtime_error &e) {
        throw Error(e.what());
    }
    std::ifstream existing(dir + "/data.json");
    if (existing) {
        const nlohmann::json data = nlohmann::json::parse(existing, nullptr, false);
        if (data.is_object() && data.value("format", "") == std::string(kAotDataFormat) &&
            data.value("key", "") == referenceKey(job) && data.value("target", "") == job.aotTarget)
            return;
    }
    PipelineInstance instance = loadPipeline(job.source);
    const Halide::Target target = withBufferLimits(Halide::Target(job.aotTarget), job.source);
    const std::vector<Halide::Buffer<>> inputs = makeInputs(instance, job.seed, job.intMax);
    BenchJob reference = job;
    reference.referenceCache.clear();
    const std::vector<Halide::Buffer<>> expected = cpuReference(reference, inputs);
    const std::vector<std::string> names = outputNames(instance);

    nlohmann::json data = {{"format", kAotDataFormat},
                           {"key", referenceKey(job)},
                           {"target", job.aotTarget},
                           {"inputs", nlohmann::json::array()},
                           {"scalars", nlohmann::json::array()},
                           {"outputs", nlohmann::json::array()},
                           {"naive_library", "naive.so"},
                           {"runtime_library", "runtime.so"}};
    try {
        for (size_t i = 0; i < inputs.size(); ++i) {
            const std::string file = "input-" + std::to_string(i) + ".raw";
            writeRawBuffer(dir + "/" + file, inputs[i].raw_buffer());
            data["inputs"].push_back(
                describeBuffer(instance.inputs[i].name(), inputs[i].raw_buffer(), file));
        }
        for (size_t i = 0; i < expected.size(); ++i) {
            const std::string file = "reference-" + std::to_string(i) + ".raw";
            writeRawBuffer(dir + "/" + file, expected[i].raw_buffer());
            data["outputs"].push_back(
                describeBuffer(i < names.size() ? names[i] : "?", expected[i].raw_buffer(), file));
        }
    } catch (const std::runtime_error &e) {
        throw Error(e.what());
    }
    for (const Halide::Parameter &p : instance.scalars) {
        const halide_type_t t = p.type();
        data["scalars"].push_back({{"name", p.name()},
                                   {"type", {int(t.code), int(t.bits), int(t.lanes)}},
                                   {"bits", scalarBits(p)}});
    }
    // Halide's runtime for the target, once for every artifact of the batch.
    wrapHalideErrors("AOT compile of Halide's runtime",
                     [&] { Halide::compile_standalone_runtime(dir + "/runtime.o", target); });
    linkSharedObject(dir + "/runtime.o", dir + "/runtime.so");
    // The naive schedule on the device decides where a candidate differs from the CPU.
    BenchJob naive = job;
    naive.schedule = nullptr;
    naive.baseline = "naive";
    compileSharedObject(scheduledInstance(naive, target), target, dir + "/naive.so");
    writeText(dir + "/data.json", data.dump(1) + "\n"); // last: the data is complete
}

double buildAotArtifact(const BenchJob &job) {
    Halide::Target target;
    try {
        target = Halide::Target(job.aotTarget);
    } catch (const std::exception &) {
        throw Error("bad target '" + job.aotTarget + "'");
    }
    target = withBufferLimits(target, job.source); // as the naive library and the reference
    const double ms = compileSharedObject(scheduledInstance(job, target), target, job.aotLibrary);
    shipBatchData(job, job.aotData);
    return ms;
}

} // namespace beamscope
