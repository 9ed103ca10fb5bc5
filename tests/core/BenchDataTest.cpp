// BenchData, Measurement JSON and Subprocess: deterministic inputs, tolerance comparison, the
// reference cache, and process groups killed at the time limit.
#include "measure/BenchData.h"
#include "measure/BenchJob.h"
#include "measure/DeviceLock.h"
#include "measure/Measurement.h"
#include "pipeline/AppCatalog.h"
#include "util/Error.h"
#include "util/Subprocess.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

using namespace beamscope;

namespace {

PipelineInstance smallChain() {
    return buildApp("stencil_chain", {{"length", 1}, {"width", 20}, {"height", 16}});
}

} // namespace

TEST(BenchData, InputsAreDeterministicAndShapedByEstimates) {
    const PipelineInstance instance = smallChain();
    auto a = makeInputs(instance, 7, 1023);
    auto b = makeInputs(instance, 7, 1023);
    auto c = makeInputs(instance, 8, 1023);
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].dim(0).extent(), 20);
    EXPECT_EQ(a[0].dim(1).extent(), 16);
    EXPECT_TRUE(compareOutputs(a, b, 0, 0).ok());
    EXPECT_FALSE(compareOutputs(a, c, 0, 0).ok());
    uint16_t most = 0;
    a[0].as<uint16_t>().for_each_value([&](uint16_t v) { most = std::max(most, v); });
    EXPECT_LE(most, 1023);
    EXPECT_GT(most, 900);
}

TEST(BenchData, ComparisonUsesTolerancesPerType) {
    Halide::Buffer<float> expected(4), actual(4);
    expected.fill(100.0f);
    actual.fill(100.0f);
    actual(1) = 100.05f; // within 1e-3 + 1e-3 * 100
    std::vector<Halide::Buffer<>> e{expected}, a{actual};
    Comparison c = compareOutputs(a, e, 1e-3, 1e-3);
    EXPECT_TRUE(c.ok());
    EXPECT_NEAR(c.maxAbsError, 0.05, 1e-4);
    actual(2) = 101.0f;
    c = compareOutputs(a, e, 1e-3, 1e-3);
    EXPECT_EQ(c.mismatches, 1);
    EXPECT_EQ(c.firstMismatch, "output 0 at (2): 101 vs 100");

    Halide::Buffer<uint16_t> ei(3), ai(3);
    ei.fill(7);
    ai.fill(7);
    ai(0) = 8; // off by one: rounding on another device
    std::vector<Halide::Buffer<>> e2{ei}, a2{ai};
    EXPECT_TRUE(compareOutputs(a2, e2, 1e-3, 1e-3).ok());
    perturbFirstElement(a2[0], 100);
    EXPECT_FALSE(compareOutputs(a2, e2, 1e-3, 1e-3).ok());
}

TEST(BenchData, ReferenceCacheRoundTripsAndChecksItsKey) {
    Halide::Buffer<float> one(5, 3);
    one.for_each_element([&](int x, int y) { one(x, y) = float(x * 10 + y); });
    one.set_min(2, -1);
    Halide::Buffer<uint8_t> two(4);
    two.fill(9);
    const std::string path = ::testing::TempDir() + "/bench-ref.bin";
    saveBuffers(path, "key-1", {one, two});
    std::vector<Halide::Buffer<>> loaded;
    EXPECT_FALSE(loadBuffers(path, "key-2", loaded));
    ASSERT_TRUE(loadBuffers(path, "key-1", loaded));
    ASSERT_EQ(loaded.size(), 2u);
    EXPECT_EQ(loaded[0].dim(0).min(), 2);
    EXPECT_EQ(loaded[0].dim(1).min(), -1);
    EXPECT_TRUE(compareOutputs(loaded, {one, two}, 0, 0).ok());
    std::remove(path.c_str());
}

TEST(BenchData, MeasurementJsonHasTheAgreedKeysAndRoundTrips) {
    Measurement m;
    m.label = "beam#0";
    m.predicted = 0.5;
    m.measuredMs = RunTimes{1.5, 1.0, 2.0};
    m.registers = 40;
    m.spillBytes = 0;
    m.correct = true;
    m.maxError = 1;
    m.kernels = {{"k", 40, 0, 0, 16}};
    const nlohmann::json j = m.toJson();
    for (const char *key : {"label", "predicted", "measured_ms", "registers", "spill_bytes",
                            "correct", "max_error", "failure"}) {
        EXPECT_TRUE(j.contains(key)) << key;
    }
    EXPECT_EQ(j["measured_ms"]["median"], 1.5);
    EXPECT_TRUE(j["failure"].is_null());
    const Measurement back = Measurement::fromJson(j);
    EXPECT_EQ(back.toJson(), j);
    EXPECT_TRUE(Measurement().toJson()["measured_ms"].is_null());
    EXPECT_EQ(summarizeTimes({3, 1, 2, 10}).median, 2.5);
    // The device times appear once a run held the device, and come back.
    EXPECT_FALSE(j.contains("device_ms"));
    m.deviceSetupMs = 120;
    m.deviceWaitMs = 30;
    m.deviceMs = 8.5;
    m.timingPriority = "realtime";
    const nlohmann::json timed = m.toJson();
    EXPECT_EQ(timed["timing_priority"], "realtime");
    EXPECT_EQ(timed["device_setup_ms"], 120.0);
    EXPECT_EQ(timed["device_wait_ms"], 30.0);
    EXPECT_EQ(timed["device_ms"], 8.5);
    EXPECT_EQ(Measurement::fromJson(timed).toJson(), timed);
    // How many timed runs the times summarize, once recorded.
    EXPECT_FALSE(timed.contains("timed_runs"));
    m.timedRuns = 37;
    EXPECT_EQ(m.toJson()["timed_runs"], 37);
    EXPECT_EQ(Measurement::fromJson(m.toJson()).timedRuns, 37);
}

TEST(BenchData, ShortRunsAreRepeatedUntilTheyAddUpToTheMinimumTotal) {
    // The repeats first, whatever the time: 3 runs of 50 ms with a 10 ms minimum.
    EXPECT_TRUE(wantsAnotherTimedRun(2, 100.0, 3, 10.0));
    EXPECT_FALSE(wantsAnotherTimedRun(3, 150.0, 3, 10.0));
    // Runs of 0.02 ms: more until 10 ms, which 100 runs (2 ms) do not reach: the cap.
    EXPECT_TRUE(wantsAnotherTimedRun(3, 0.06, 3, 10.0));
    EXPECT_TRUE(wantsAnotherTimedRun(99, 1.98, 3, 10.0));
    EXPECT_FALSE(wantsAnotherTimedRun(kMaxTimedRuns, 2.0, 3, 10.0));
    // Runs of 0.5 ms: 20 of them reach 10 ms.
    EXPECT_TRUE(wantsAnotherTimedRun(19, 9.5, 3, 10.0));
    EXPECT_FALSE(wantsAnotherTimedRun(20, 10.0, 3, 10.0));
    // No minimum: the repeats alone; repeats beyond the cap are honoured.
    EXPECT_FALSE(wantsAnotherTimedRun(3, 0.06, 3, 0.0));
    EXPECT_TRUE(wantsAnotherTimedRun(150, 3.0, 200, 10.0));
}

TEST(BenchData, JobJsonRoundTrips) {
    BenchJob job;
    job.label = "greedy#1";
    job.source = {"stencil_chain", "", {"length=2"}};
    job.source.inputs = {"amount=0.5", "invert=true"};
    job.baseline = "naive";
    job.target = "host-opencl";
    job.inject = "wrong";
    const BenchJob back = BenchJob::fromJson(job.toJson());
    EXPECT_EQ(back.toJson(), job.toJson());
    EXPECT_EQ(back.source.inputs, job.source.inputs);
    EXPECT_THROW(BenchJob::fromJson({{"pipeline", {{"app", "x"}}}}), Error);
    // The minimum total of the timed runs travels with the job; a negative one is refused.
    EXPECT_EQ(back.minTimedMs, kDefaultMinTimedMs);
    nlohmann::json j = job.toJson();
    j["min_timed_ms"] = 2.5;
    EXPECT_EQ(BenchJob::fromJson(j).minTimedMs, 2.5);
    j["min_timed_ms"] = -1;
    EXPECT_THROW(BenchJob::fromJson(j), Error);
    // So does the unroll limit the schedule is lowered with: this build's, or the legacy one
    // to run a schedule as an earlier build did; a job without one takes this build's.
    j = job.toJson();
    EXPECT_EQ(j.at("max_unrolled_points"), kMaxUnrolledPoints);
    j["max_unrolled_points"] = kLegacyMaxUnrolledPoints;
    EXPECT_EQ(BenchJob::fromJson(j).maxUnrolledPoints, kLegacyMaxUnrolledPoints);
    j.erase("max_unrolled_points");
    EXPECT_EQ(BenchJob::fromJson(j).maxUnrolledPoints, kMaxUnrolledPoints);
    j["max_unrolled_points"] = 0;
    EXPECT_THROW(BenchJob::fromJson(j), Error);
}

TEST(BenchSubprocess, ReportsExitSignalAndTimeoutAndKillsTheGroup) {
    ProcessResult ok = runProcess({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_EQ(ok.exitCode, 3);
    EXPECT_EQ(ok.out, "out\n");
    EXPECT_EQ(lastLine(ok.err), "err");
    ProcessResult crashed = runProcess({"/bin/sh", "-c", "kill -SEGV $$"});
    EXPECT_EQ(crashed.signal, 11);
    EXPECT_EQ(crashed.describeEnd(1), "signal 11 (Segmentation fault)");
    // A grandchild holding the pipes open dies with the group at the limit.
    ProcessResult hung = runProcess({"/bin/sh", "-c", "sleep 30 & sleep 30"}, ProcessOptions{0.5});
    EXPECT_TRUE(hung.timedOut);
    EXPECT_LT(hung.wallMs, 5000);
    EXPECT_TRUE(runProcess({"/nonexistent/program"}).spawnFailed);
}

TEST(BenchSubprocess, TheTimeoutClockStopsWhileTheChildWaitsForTheDevice) {
    // 1.2 s waiting between the markers, 0.2 s of work: within a 0.8 s limit. The marker lines
    // are not part of the captured stderr.
    ProcessOptions options{0.8};
    options.pauseLine = kDeviceLockWaitLine;
    options.resumeLine = kDeviceLockHeldLine;
    const std::string script = std::string("echo '") + kDeviceLockWaitLine +
                               "' >&2; sleep 1.2; echo '" + kDeviceLockHeldLine +
                               "' >&2; sleep 0.2; echo done >&2; echo out";
    const ProcessResult waited = runProcess({"/bin/sh", "-c", script}, options);
    EXPECT_FALSE(waited.timedOut);
    EXPECT_EQ(waited.exitCode, 0);
    EXPECT_EQ(waited.out, "out\n");
    EXPECT_EQ(waited.err, "done\n");
    // Without the markers the same 1.4 s is over the limit.
    options.pauseLine.clear();
    options.resumeLine.clear();
    EXPECT_TRUE(runProcess({"/bin/sh", "-c", "sleep 1.4"}, options).timedOut);
}

TEST(BenchSubprocess, ADeviceLockHeldElsewhereIsWaitedForAndAnnounced) {
    char dir[] = "/tmp/beamscope-lock-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string path = std::string(dir) + "/device.lock";
    int pipeFds[2];
    ASSERT_EQ(pipe(pipeFds), 0);
    auto holder = std::make_unique<DeviceLock>(path, -1); // free: taken at once, no lines
    std::thread release([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        holder.reset();
    });
    const auto start = std::chrono::steady_clock::now();
    {
        const DeviceLock waiter(path, pipeFds[1]); // a second open file: blocks until released
        EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(250));
    }
    release.join();
    close(pipeFds[1]);
    std::string said;
    char buffer[256];
    ssize_t n;
    while ((n = read(pipeFds[0], buffer, sizeof buffer)) > 0)
        said.append(buffer, size_t(n));
    close(pipeFds[0]);
    EXPECT_EQ(said, std::string(kDeviceLockWaitLine) + "\n" + kDeviceLockHeldLine + "\n");
    // Uncontended: no lines.
    int quiet[2];
    ASSERT_EQ(pipe(quiet), 0);
    { const DeviceLock alone(path, quiet[1]); }
    close(quiet[1]);
    EXPECT_EQ(read(quiet[0], buffer, sizeof buffer), 0);
    close(quiet[0]);
    unlink(path.c_str());
    rmdir(dir);
}
