// Shipped artifacts (AotArtifact, beamscope-aot-runner) on the OpenCL device (PoCL here; fails
// without it): a greedy stencil_chain schedule AOT-compiled by the worker's compile pass runs in
// beamscope-aot-runner (which links no libHalide) with outputs byte-identical to the same
// schedule JIT-compiled here, and the same verdict as the worker; a wrong tile is wrong; a
// skewed CPU reference is settled by the shipped naive artifact; a corrupted or missing
// artifact is a failed measurement with a one-line reason. About 10 s on 2 cores.
#include "BenchTestUtil.h"
#include "measure/AotData.h"
#include "measure/BenchData.h"
#include "util/Subprocess.h"
#include "measure/WorkerTask.h"
#include "schedule/ScheduleIO.h"
#include "search/SearchEngine.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace beamscope;
using namespace beamscope::testing;
namespace fs = std::filesystem;

namespace {

/// beamscope-aot-runner of this build, beside the worker's directory.
std::string testRunner() {
    return (fs::path(testWorker().workerPath).parent_path().parent_path() / "aot-runner" /
            "beamscope-aot-runner")
        .string();
}

struct Shipped {
    fs::path dir;
    BenchJob job; ///< the node's job: target set, aot library and data
    Shipped() = default;
    Shipped(const Shipped &) = delete;
    Shipped(Shipped &&other) noexcept : dir(std::move(other.dir)), job(std::move(other.job)) {
        other.dir.clear(); // the moved-from one removes nothing
    }
    ~Shipped() { // also when an ASSERT returns early
        std::error_code ec;
        if (!dir.empty()) fs::remove_all(dir, ec);
    }
};

/// A greedy stencil_chain schedule for pocl-cpu, compiled by the worker's compile pass into
/// DIR/0.so with the batch data in DIR/data.
Shipped compileGreedy(const std::string &name) {
    Shipped s;
    s.dir = fs::temp_directory_path() / ("beamscope-aot-" + name + std::to_string(::getpid()));
    fs::remove_all(s.dir);
    fs::create_directories(s.dir);
    BenchJob job = smallChainJob("greedy#0", 3, 120);
    job = withGreedySchedule(job);
    job.aotTarget = job.target;
    job.aotLibrary = (s.dir / "0.so").string();
    job.aotData = (s.dir / "data").string();
    BenchJob compile = job;
    compile.target.clear();
    const Measurement c = runWorker(compile, testWorker());
    EXPECT_EQ(c.failure, "");
    s.job = job;
    return s;
}

/// Runs `job` in beamscope-aot-runner (outputs kept in `outputs` when given).
Measurement runShipped(const BenchJob &job, const fs::path &file, const std::string &outputs = "") {
    std::ofstream(file) << job.toJson().dump() << "\n";
    std::vector<std::string> argv{testRunner()};
    if (!outputs.empty()) argv.insert(argv.end(), {"--outputs", outputs});
    argv.push_back(file.string());
    ProcessOptions options;
    options.timeoutS = 60;
    return workerMeasurement(job, runProcess(argv, options));
}

} // namespace

TEST(AotArtifact, ShippedArtifactRunsWithoutHalideAndMatchesTheJit) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const ProcessResult ldd = runProcess({"/usr/bin/ldd", testRunner()});
    ASSERT_TRUE(ldd.succeeded()) << ldd.err;
    EXPECT_EQ(ldd.out.find("libHalide"), std::string::npos) << ldd.out;
    EXPECT_EQ(ldd.out.find("LLVM"), std::string::npos) << ldd.out;

    const Shipped s = compileGreedy("match");
    for (const char *file : {"0.so", "0.so.json", "data/data.json", "data/naive.so",
                             "data/runtime.so", "data/input-0.raw", "data/reference-0.raw"})
        EXPECT_TRUE(fs::exists(s.dir / file)) << file;
    const Measurement m = runShipped(s.job, s.dir / "0.json", s.dir.string());
    EXPECT_EQ(m.failure, "");
    EXPECT_TRUE(m.correct.value_or(false));
    EXPECT_TRUE(m.measuredMs.has_value());
    EXPECT_EQ(m.ranFrom, "shipped artifact");
    EXPECT_EQ(m.target, "host-opencl");

    // The same schedule JIT-compiled here, on the same inputs: the same bytes.
    const Halide::Target target("host-opencl");
    PipelineInstance instance = scheduledInstance(s.job, target);
    const std::vector<Halide::Buffer<>> inputs = makeInputs(instance, s.job.seed, s.job.intMax);
    bindInputs(instance, inputs);
    std::vector<Halide::Buffer<>> outputs = makeOutputs(instance);
    Halide::Realization realization(outputs);
    instance.pipeline.realize(realization, target);
    outputs[0].copy_to_host();
    std::ifstream shipped(s.dir / "output-0.raw", std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(shipped)),
                            std::istreambuf_iterator<char>());
    ASSERT_EQ(bytes.size(), outputs[0].size_in_bytes());
    EXPECT_EQ(std::memcmp(bytes.data(), outputs[0].data(), bytes.size()), 0);

    // The worker's verdict on the same job (JIT on the node) agrees.
    BenchJob jit = s.job;
    jit.aotLibrary.clear();
    const Measurement w = runWorker(jit, testWorker());
    EXPECT_EQ(w.correct, m.correct) << w.failure;
    EXPECT_EQ(w.ranFrom, "");

    // A wrong tile is wrong; a skewed CPU reference is settled by the shipped naive artifact.
    BenchJob wrong = s.job;
    wrong.inject = "wrong-tile";
    const Measurement bad = runShipped(wrong, s.dir / "1.json");
    EXPECT_FALSE(bad.correct.value_or(true));
    EXPECT_EQ(bad.failure.rfind("wrong output: 64 of 3072 values beyond tolerance", 0), 0u)
        << bad.failure;
    BenchJob skew = s.job;
    skew.inject = "skew-reference";
    const Measurement sensitive = runShipped(skew, s.dir / "2.json");
    EXPECT_TRUE(sensitive.correct.value_or(false)) << sensitive.failure;
    EXPECT_EQ(sensitive.checkNote.rfind("float-sensitive on this device: the naive schedule "
                                        "differs from the CPU reference in 1 of 3072 values",
                                        0),
              0u)
        << sensitive.checkNote;
    // The naive schedule's device output is cached for the batch's other tasks, as the worker does.
    EXPECT_TRUE(fs::exists(s.dir / "data" / "device-naive.done"));
    const Measurement again = runShipped(skew, s.dir / "3.json");
    EXPECT_EQ(again.checkNote, sensitive.checkNote);
}

TEST(AotArtifact, CorruptOrMissingArtifactIsAOneLineFailure) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const Shipped s = compileGreedy("corrupt");
    { std::ofstream(s.dir / "bad.so") << "not a shared object\n"; }
    fs::copy_file(s.dir / "0.so.json", s.dir / "bad.so.json");
    for (const std::string library : {"bad.so", "missing.so"}) {
        BenchJob job = s.job;
        job.aotLibrary = (s.dir / library).string();
        const Measurement m = runShipped(job, s.dir / "job.json");
        EXPECT_EQ(m.failure.rfind("shipped artifact: cannot load " + job.aotLibrary + ": ", 0), 0u)
            << m.failure;
        EXPECT_EQ(m.failure.find('\n'), std::string::npos) << m.failure;
        EXPECT_FALSE(m.correct.has_value());
        EXPECT_FALSE(m.measuredMs.has_value());
    }
    // Shipped data gone: one line too.
    fs::remove(s.dir / "data" / "input-0.raw");
    const Measurement m = runShipped(s.job, s.dir / "job.json");
    EXPECT_EQ(m.failure.rfind("shipped data: cannot read ", 0), 0u) << m.failure;
}
