// Contents: loading the batch's Halide runtime (RTLD_GLOBAL, error capture) and an artifact
// (dlopen, dlsym of its entry points); binding arguments from its metadata; the timed run;
// runShippedJob tying them together with the verdict. No libHalide: compiled into
// beamscope-aot-runner.
#include "measure/AotNodeRun.h"

#include "measure/AotData.h"
#include "measure/BufferCompare.h"
#include "measure/DeviceLock.h"
#include "measure/TimedRuns.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace beamscope {

namespace {

/// The last message Halide's runtime reported (its error handler is set to keep it).
std::string &lastHalideError() {
    static std::string message;
    return message;
}

extern "C" void keepHalideError(void *, const char *message) {
    std::string text = message ? message : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    const size_t newline = text.find('\n');
    lastHalideError() = newline == std::string::npos ? text : text.substr(0, newline);
}

/// A thrown failure of the candidate (not of the job): becomes Measurement::failure.
struct CandidateFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The address of `name` in the library `handle` (or its dependencies); throws CandidateFailure.
void *symbol(void *handle, const std::string &path, const std::string &name) {
    void *p = ::dlsym(handle, name.c_str());
    if (!p) throw CandidateFailure("shipped artifact: " + path + " has no " + name);
    return p;
}

void *load(const std::string &path, int mode, const std::string &what) {
    void *handle = ::dlopen(path.c_str(), mode);
    if (!handle) {
        const char *why = ::dlerror();
        throw CandidateFailure(what + ": cannot load " + path + ": " +
                               (why ? why : "dlopen failed"));
    }
    return handle;
}

/// The batch's Halide runtime (runtime.so), loaded RTLD_GLOBAL so that the artifacts, built
/// without one, find its functions; the calls the runner makes itself.
struct Runtime {
    using BufferCall = int (*)(void *, halide_buffer_t *);
    BufferCall deviceSync = nullptr, copyToHost = nullptr, deviceFree = nullptr;

    static Runtime open(const std::string &path) {
        Runtime r;
        void *handle = load(path, RTLD_NOW | RTLD_GLOBAL, "shipped runtime");
        r.deviceSync = reinterpret_cast<BufferCall>(symbol(handle, path, "halide_device_sync"));
        r.copyToHost = reinterpret_cast<BufferCall>(symbol(handle, path, "halide_copy_to_host"));
        r.deviceFree = reinterpret_cast<BufferCall>(symbol(handle, path, "halide_device_free"));
        using SetHandler = halide_error_handler_t (*)(halide_error_handler_t);
        reinterpret_cast<SetHandler>(symbol(handle, path, "halide_set_error_handler"))(
            keepHalideError);
        return r;
    }

    /// Throws CandidateFailure "WHAT: Halide's message" when a runtime call failed.
    static void check(int status, const std::string &what) {
        if (status == 0) return;
        throw CandidateFailure(what + ": " +
                               (lastHalideError().empty() ? "Halide error " + std::to_string(status)
                                                          : lastHalideError()));
    }
};

/// One dlopened artifact: its entry points and its argument kinds.
struct Artifact {
    std::string path;
    int (*argv)(void **) = nullptr;
    const halide_filter_metadata_t *(*metadata)() = nullptr;
    std::vector<std::string> kinds; ///< "input", "scalar", "output", from PATH.json

    static Artifact open(const std::string &path) {
        Artifact a;
        a.path = path;
        void *handle = load(path, RTLD_NOW | RTLD_LOCAL, "shipped artifact");
        a.argv = reinterpret_cast<int (*)(void **)>(
            symbol(handle, path, std::string(kAotEntry) + "_argv"));
        a.metadata = reinterpret_cast<const halide_filter_metadata_t *(*)()>(
            symbol(handle, path, std::string(kAotEntry) + "_metadata"));
        std::ifstream sidecar(path + ".json");
        const nlohmann::json args = nlohmann::json::parse(sidecar, nullptr, false);
        if (!args.is_object() || !args.contains("arguments") || !args["arguments"].is_array())
            throw CandidateFailure("shipped artifact: cannot read " + path + ".json");
        for (const nlohmann::json &k : args["arguments"])
            a.kinds.push_back(k.is_string() ? k.get<std::string>() : "?");
        return a;
    }
};

/// The batch's shipped data: inputs, scalar values and the CPU reference outputs.
struct ShippedData {
    std::string dir;
    std::vector<AotBuffer> inputs;
    std::vector<halide_scalar_value_t> scalars;
    std::vector<AotBuffer> reference;
    std::vector<std::string> names;
    nlohmann::json outputDescs;
    std::string naiveLibrary;
    std::string runtimeLibrary;
};

ShippedData readData(const std::string &dir, const std::string &target) {
    ShippedData d;
    d.dir = dir;
    std::ifstream in(dir + "/data.json");
    const nlohmann::json data = nlohmann::json::parse(in, nullptr, false);
    if (!in || !data.is_object() || data.value("format", "") != std::string(kAotDataFormat))
        throw CandidateFailure("shipped data: cannot read " + dir + "/data.json");
    if (data.value("target", "") != target)
        throw CandidateFailure("shipped data: built for target '" + data.value("target", "") +
                               "', the job runs on '" + target + "'");
    try {
        for (const nlohmann::json &desc : data.at("inputs"))
            d.inputs.push_back(bufferFrom(desc, dir, true));
        for (const nlohmann::json &s : data.at("scalars")) {
            halide_scalar_value_t v{};
            v.u.u64 = s.at("bits").get<std::uint64_t>();
            d.scalars.push_back(v);
        }
        d.outputDescs = data.at("outputs");
        for (const nlohmann::json &desc : d.outputDescs) {
            d.reference.push_back(bufferFrom(desc, dir, true));
            d.names.push_back(desc.value("name", std::string("?")));
        }
        d.naiveLibrary = dir + "/" + data.at("naive_library").get<std::string>();
        d.runtimeLibrary = dir + "/" + data.at("runtime_library").get<std::string>();
    } catch (const nlohmann::json::exception &e) {
        throw CandidateFailure("shipped data: bad " + dir + "/data.json: " + e.what());
    } catch (const std::runtime_error &e) {
        throw CandidateFailure(e.what());
    }
    for (AotBuffer &b : d.inputs)
        b.raw.flags |= halide_buffer_flag_host_dirty; // the device copies it on the first run
    return d;
}

/// One run of `artifact` on the shipped inputs into fresh outputs: warm-up + repeats timed as
/// the worker times them (times of the repeats into *times, more while they add up to less than
/// minTimedMs: TimedRuns.h), outputs copied back, device memory freed. Throws CandidateFailure.
std::vector<AotBuffer> runArtifact(const Artifact &artifact, const Runtime &runtime,
                                   ShippedData &data, int warmup, int repeats, double minTimedMs,
                                   const std::string &deviceLock, std::vector<double> *times) {
    const halide_filter_metadata_t *md = artifact.metadata();
    if (!md || md->num_arguments != int(artifact.kinds.size()))
        throw CandidateFailure("shipped artifact: " + artifact.path +
                               ": its metadata and argument list disagree");
    std::vector<AotBuffer> outputs;
    std::vector<void *> args;
    size_t input = 0, scalar = 0;
    for (int i = 0; i < md->num_arguments; ++i) {
        const halide_filter_argument_t &arg = md->arguments[i];
        const std::string &kind = artifact.kinds[size_t(i)];
        const auto mismatch = [&](const std::string &what, halide_type_t shipped, int dims) {
            if (arg.type == shipped && arg.dimensions == dims) return;
            throw CandidateFailure("shipped artifact: argument '" + std::string(arg.name) +
                                   "' is " + typeText(arg.type) + " in " +
                                   std::to_string(arg.dimensions) + "-D, the shipped " + what +
                                   " " + typeText(shipped) + " in " + std::to_string(dims) + "-D");
        };
        if (kind == "input" && arg.kind == halide_argument_kind_input_buffer &&
            input < data.inputs.size()) {
            halide_buffer_t &b = data.inputs[input++].raw;
            mismatch("input", b.type, b.dimensions);
            args.push_back(&b);
        } else if (kind == "scalar" && arg.kind == halide_argument_kind_input_scalar &&
                   scalar < data.scalars.size()) {
            args.push_back(&data.scalars[scalar++]);
        } else if (kind == "output" && arg.kind == halide_argument_kind_output_buffer &&
                   outputs.size() < data.outputDescs.size()) {
            outputs.push_back(bufferFrom(data.outputDescs[outputs.size()], data.dir, false));
            args.push_back(nullptr); // set below, once `outputs` no longer grows
            mismatch("output", outputs.back().raw.type, outputs.back().raw.dimensions);
        } else {
            throw CandidateFailure("shipped artifact: argument " + std::to_string(i) + " ('" +
                                   arg.name + "') does not match the shipped data");
        }
    }
    if (input != data.inputs.size() || scalar != data.scalars.size() ||
        outputs.size() != data.outputDescs.size())
        throw CandidateFailure("shipped artifact: its arguments do not cover the shipped data");
    size_t o = 0; // outputs are allocated now: their addresses no longer move
    for (int i = 0; i < md->num_arguments; ++i)
        if (artifact.kinds[size_t(i)] == "output") args[size_t(i)] = &outputs[o++].raw;

    std::unique_ptr<DeviceLock> lock;
    try {
        lock = std::make_unique<DeviceLock>(deviceLock);
    } catch (const std::runtime_error &e) {
        throw CandidateFailure(e.what());
    }
    lastHalideError().clear();
    std::vector<double> timed = timeRuns(warmup, repeats, minTimedMs, [&] {
        Runtime::check(artifact.argv(args.data()), "run");
        for (AotBuffer &out : outputs)
            Runtime::check(runtime.deviceSync(nullptr, &out.raw), "run");
    });
    if (times) *times = std::move(timed);
    for (AotBuffer &out : outputs) {
        Runtime::check(runtime.copyToHost(nullptr, &out.raw), "run");
        Runtime::check(runtime.deviceFree(nullptr, &out.raw), "run");
    }
    return outputs;
}

/// The naive schedule's device outputs, cached in the data directory by the first task that
/// ran it (device-naive-K.raw, then device-naive.done): what the worker caches next to its
/// reference. Tasks on nodes of one batch share a GPU model (docs/cluster.md). A task that finds
/// no complete cache runs the naive artifact itself.
bool readNaiveCache(const ShippedData &data, std::vector<AotBuffer> &naive) {
    if (!std::ifstream(data.dir + "/device-naive.done")) return false;
    try {
        std::vector<AotBuffer> cached;
        for (size_t k = 0; k < data.outputDescs.size(); ++k) {
            nlohmann::json desc = data.outputDescs[k];
            desc["file"] = "device-naive-" + std::to_string(k) + ".raw";
            cached.push_back(bufferFrom(desc, data.dir, true));
        }
        naive = std::move(cached);
        return true;
    } catch (const std::runtime_error &) {
        return false;
    }
}

void writeNaiveCache(const ShippedData &data, const std::vector<AotBuffer> &naive) {
    try {
        for (size_t k = 0; k < naive.size(); ++k)
            writeRawBuffer(data.dir + "/device-naive-" + std::to_string(k) + ".raw", &naive[k].raw);
        std::ofstream(data.dir + "/device-naive.done") << "complete\n";
    } catch (const std::runtime_error &) { // a read-only directory: no cache, same verdict
    }
}

bool injected(const std::string &faults, const std::string &fault) {
    std::stringstream list(faults);
    std::string f;
    while (std::getline(list, f, ','))
        if (f == fault) return true;
    return false;
}

void perturb(halide_buffer_t &b, double delta, bool row) {
    std::vector<int> pos(size_t(b.dimensions));
    for (int d = 0; d < b.dimensions; ++d)
        pos[size_t(d)] = b.dim[d].min;
    const int count = row && b.dimensions > 0 ? b.dim[0].extent : 1;
    for (int x = 0; x < count; ++x) {
        if (b.dimensions > 0) pos[0] = b.dim[0].min + x;
        storeElement(&b, pos.data(), loadElement(&b, pos.data()) + delta);
    }
}

std::vector<const halide_buffer_t *> raw(const std::vector<AotBuffer> &buffers) {
    std::vector<const halide_buffer_t *> out;
    for (const AotBuffer &b : buffers)
        out.push_back(&b.raw);
    return out;
}

} // namespace

Measurement runShippedJob(const nlohmann::json &job, const std::string &outputsDir) {
    Measurement m;
    std::string library, dataDir, deviceLock, inject;
    int warmup = 1, repeats = 5;
    double minTimedMs = kDefaultMinTimedMs;
    double rtol = 1e-3, atol = 1e-3;
    try {
        m.label = job.value("label", std::string());
        if (job.contains("predicted") && job["predicted"].is_number())
            m.predicted = job["predicted"].get<double>();
        m.target = job.at("target").get<std::string>();
        library = job.at("aot").at("library").get<std::string>();
        dataDir = job.at("aot").at("data").get<std::string>();
        warmup = job.value("warmup", 1);
        repeats = job.value("repeats", 5);
        minTimedMs = job.value("min_timed_ms", kDefaultMinTimedMs);
        rtol = job.value("rtol", 1e-3);
        atol = job.value("atol", 1e-3);
        deviceLock = job.value("device_lock", std::string());
        inject = job.value("inject", std::string());
    } catch (const nlohmann::json::exception &e) {
        throw std::runtime_error(std::string("bad job JSON: ") + e.what());
    }
    if (m.target.empty()) throw std::runtime_error("bad job JSON: no target to run on");
    if (repeats < 1 || warmup < 0) throw std::runtime_error("bad job: repeats >= 1, warmup >= 0");
    if (!(minTimedMs >= 0) || !std::isfinite(minTimedMs))
        throw std::runtime_error("bad job: min_timed_ms must be a number >= 0");
    m.ranFrom = "shipped artifact";
    if (injected(inject, "crash")) { // the default action: no handler turns it into an abort
        std::signal(SIGSEGV, SIG_DFL);
        std::raise(SIGSEGV);
    }
    if (injected(inject, "hang"))
        for (;;)
            pause();
    if (injected(inject, "error")) throw std::runtime_error("injected error (test only)");
    try {
        ShippedData data = readData(dataDir, m.target);
        const Runtime runtime = Runtime::open(data.runtimeLibrary);
        const Artifact artifact = Artifact::open(library);
        std::vector<double> times;
        std::vector<AotBuffer> outputs =
            runArtifact(artifact, runtime, data, warmup, repeats, minTimedMs, deviceLock, &times);
        std::fprintf(stderr, "beamscope-aot-runner: ran %s without compiling (%d + %zu runs)\n",
                     library.c_str(), warmup, times.size());
        m.measuredMs = summarizeTimes(times);
        m.timedRuns = int(times.size());
        for (size_t k = 0; !outputsDir.empty() && k < outputs.size(); ++k)
            writeRawBuffer(outputsDir + "/output-" + std::to_string(k) + ".raw", &outputs[k].raw);
        if (injected(inject, "wrong") && !outputs.empty()) perturb(outputs[0].raw, 100.0, false);
        if (injected(inject, "wrong-tile") && !outputs.empty())
            perturb(outputs[0].raw, 100.0, true);
        if (injected(inject, "skew-reference") && !data.reference.empty())
            perturb(data.reference[0].raw, 50.0, false);
        std::vector<AotBuffer> naive; // kept alive while judgeOutputs compares with it
        const OutputCheck check =
            judgeOutputs(rtol, atol, raw(outputs), raw(data.reference), data.names, [&] {
                if (readNaiveCache(data, naive)) return raw(naive);
                const Artifact naiveArtifact = Artifact::open(data.naiveLibrary);
                naive = runArtifact(naiveArtifact, runtime, data, 0, 1, 0.0, deviceLock, nullptr);
                std::fprintf(stderr, "beamscope-aot-runner: ran the shipped naive schedule, "
                                     "for the reference check\n");
                writeNaiveCache(data, naive);
                return raw(naive);
            });
        m.correct = check.correct;
        m.maxError = check.maxAbsError;
        m.maxRelError = check.maxRelError;
        m.failure = check.failure;
        m.checkNote = check.note;
    } catch (const CandidateFailure &e) {
        m.failure = e.what();
    }
    return m;
}

} // namespace beamscope
