// Crash triage (core/measure/CrashTriage) through WorkerRunner as the tool uses it, on the OpenCL
// device (PoCL). The worker is killed on purpose by the test-only fault "crash" (SIGSEGV before
// it compiles); everything after that is real: the triage worker runs the same schedule on the
// host with Halide's bounds assertions and checks it against the CPU reference, and the OpenCL
// kernels it lowers are built alone by clBuildProgram in a process of their own. The verdict
// rules for the other findings are checked on a real Halide bounds assertion and real process
// ends (VerdictsFromTheHostRunsFindings).
#include "measure/CrashTriage.h"
#include "BenchTestUtil.h"
#include "util/Subprocess.h"
#include "measure/WorkerRunner.h"
#include "schedule/ScheduleIO.h"
#include "search/SearchEngine.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

/// The greedy schedule of a small stencil chain on host-opencl, killed on purpose.
BenchJob crashingGreedyJob() {
    BenchJob job;
    job.label = "greedy#0";
    job.source = {"stencil_chain", "", {"length=2", "width=64", "height=48"}};
    job.target = "host-opencl";
    job.repeats = 1;
    job.timeoutS = 60;
    job.inject = "crash";
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(job.source));
    SearchOptions options = SearchOptions::greedy();
    options.gpu = GpuSpec::load("pocl-cpu");
    SearchEngine engine(dag, options);
    engine.run();
    job.schedule = scheduleToJson(*engine.best()->state);
    return job;
}

std::string writeKernel(const std::string &name, const std::string &source) {
    const std::string path = ::testing::TempDir() + "/" + name;
    std::ofstream(path) << source;
    return path;
}

} // namespace

TEST(CrashTriage, CorrectScheduleThatCrashedTheDeviceRunIsAToolchainCrash) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const Measurement m = runWorker(crashingGreedyJob(), testWorker());
    EXPECT_EQ(m.failure.rfind("crash: signal 11 (Segmentation fault)", 0), 0u) << m.failure;
    EXPECT_EQ(m.crashVerdict, kVerdictToolchainCrash) << m.failure;
    EXPECT_NE(m.failure.find("triage: device toolchain crashed (correct on the host with bounds "
                             "checks; its OpenCL kernels build alone"),
              std::string::npos)
        << m.failure;
    EXPECT_FALSE(m.correct.has_value());
    // The verdict travels in the worker protocol's JSON (and so in the database's record).
    EXPECT_EQ(Measurement::fromJson(m.toJson()).crashVerdict, kVerdictToolchainCrash);
}

// Regression (issue 12): lens_blur's greedy#2 on the pocl-cpu model (the saved job) crashed its
// worker on PoCL and, moved to the host, corrupted the heap ('malloc(): invalid size'). The
// guarded tile split of 'left' (52 rows estimated, 64-row tile: GuardWithIf) had its guard
// dropped by Halide's loop partitioning, so whole tiles were written past the allocation
// (docs/design-notes.md); ScheduleCalls now unrolls such tiles. The triage worker finds it
// correct on the host. 6-10 s.
TEST(CrashTriage, SavedLensBlurScheduleRunsCorrectlyOnTheHost) {
    const std::string job =
        std::string(BEAMSCOPE_TEST_DATA_DIR) + "/crashes/lens_blur-pocl-cpu-seed1-greedy2.json";
    ProcessOptions options;
    options.timeoutS = 120;
    const ProcessResult r = runProcess(
        {testWorker().workerPath, "--triage", job, ::testing::TempDir() + "/lens_blur.cl"},
        options);
    EXPECT_TRUE(r.succeeded()) << r.describeEnd(options.timeoutS) << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("{\"host\":\"correct\""), std::string::npos) << r.out << r.err;
}

TEST(CrashTriage, VerdictsFromTheHostRunsFindings) {
    // A schedule that reads out of bounds cannot be made from the search (Halide's bounds
    // inference sizes every buffer), so the rule is checked on Halide's real assertion: a
    // pipeline run on the host, with assertions on, over an input smaller than it reads.
    Halide::ImageParam input(Halide::Float(32), 1, "input");
    Halide::Var x("x");
    Halide::Func blur("blur");
    blur(x) = input(x) + input(x + 1);
    Halide::Buffer<float> small(8);
    small.fill(1.0f);
    input.set(small);
    std::string assertion;
    try {
        blur.realize({8}, Halide::get_host_target());
    } catch (const Halide::Error &e) {
        assertion = e.what();
    }
    ASSERT_NE(assertion.find("is accessed at 8"), std::string::npos) << assertion;
    ProcessResult ended;
    ended.exitCode = 0;
    bool built = false;
    const auto buildAlone = [&] {
        built = true;
        ProcessResult r;
        r.exitCode = 0;
        return r;
    };
    const nlohmann::json outOfBounds = {{"host", "error"},
                                        {"host_detail", "host run: " + assertion}};
    EXPECT_EQ(crashVerdictOf(outOfBounds, ended, buildAlone, 60).verdict, kVerdictOutOfBounds);
    const nlohmann::json wrong = {{"host", "wrong"},
                                  {"host_detail", "wrong output: 3 of 64 values beyond tolerance"}};
    EXPECT_EQ(crashVerdictOf(wrong, ended, buildAlone, 60).verdict, kVerdictWrongValues);
    EXPECT_FALSE(built); // the kernels are built alone only for a correct host run
    // The triage worker crashed before its host finding: nothing is known.
    ProcessResult crashed;
    crashed.signal = 11;
    const CrashVerdict unknown = crashVerdictOf(nlohmann::json::object(), crashed, buildAlone, 60);
    EXPECT_EQ(unknown.verdict, kVerdictUnknown);
    EXPECT_NE(unknown.detail.find("signal 11"), std::string::npos) << unknown.detail;
    // Compiled for the host, the same loop nest crashed there too: the schedule's fault.
    const CrashVerdict host = crashVerdictOf({{"host_compiled", true}}, crashed, buildAlone, 60);
    EXPECT_EQ(host.verdict, kVerdictHostCrash);
    // A correct host run whose kernels crash the build alone: the device compiler crashed.
    const nlohmann::json correct = {{"host", "correct"}, {"kernel", "written"}};
    const CrashVerdict compiler = crashVerdictOf(
        correct, ended,
        [] {
            ProcessResult r;
            r.signal = 11;
            return r;
        },
        60);
    EXPECT_EQ(compiler.verdict, kVerdictCompilerCrash);
    EXPECT_NE(compiler.detail.find("alone crashed clBuildProgram"), std::string::npos)
        << compiler.detail;
}

TEST(CrashTriage, NoTriageWhenSwitchedOff) {
    BenchJob job = crashingGreedyJob();
    job.target = ""; // compile only: the crash comes first anyway
    WorkerOptions options = testWorker();
    options.triageCrashes = false;
    const Measurement m = runWorker(job, options);
    EXPECT_EQ(m.failure.rfind("crash: signal 11", 0), 0u) << m.failure;
    EXPECT_TRUE(m.crashVerdict.empty());
    EXPECT_EQ(m.failure.find("triage"), std::string::npos) << m.failure;
}

TEST(CrashTriage, KernelSourceIsBuiltAloneOnTheDevice) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const std::string worker = testWorker().workerPath;
    ProcessOptions options;
    options.timeoutS = 60;
    const ProcessResult good = runProcess(
        {worker, "--build-opencl",
         writeKernel("good.cl", "__kernel void k(__global float *a) { a[get_global_id(0)] = "
                                "MAX_CONSTANT_ARGS; }\n")},
        options);
    EXPECT_TRUE(good.succeeded()) << good.out << good.err;
    EXPECT_NE(good.out.find("\"built\":true"), std::string::npos) << good.out;
    const ProcessResult bad = runProcess(
        {worker, "--build-opencl", writeKernel("bad.cl", "__kernel void k( { syntax error\n")},
        options);
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.out.find("clBuildProgram failed"), std::string::npos) << bad.out;
    const ProcessResult missing =
        runProcess({worker, "--build-opencl", ::testing::TempDir() + "/no-such.cl"}, options);
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.out.find("cannot read kernel file"), std::string::npos) << missing.out;
}
