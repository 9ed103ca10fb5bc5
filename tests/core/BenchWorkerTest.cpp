// The benchmark worker, through WorkerRunner as the tool uses it: a crash, a hang, an error
// and a wrong output each become a failed Measurement and the run goes on; real runs on the
// OpenCL device (PoCL here) of the naive schedule, a searched schedule and Halide baselines.
#include "BenchTestUtil.h"
#include "bench/BenchRun.h"
#include "measure/WorkerRunner.h"
#include "schedule/ScheduleIO.h"
#include "search/SearchEngine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

BenchJob naiveJob(const std::string &label) {
    return smallChainJob(label, 3, 60);
}

/// A compile-only bench (no device) of a short stencil chain: the top `top` of a beam of 4 with
/// 1 pass, for the V100, ptxas report for sm_75.
BenchOptions compileOnlyChainBench(int top) {
    BenchOptions options;
    options.source = {"stencil_chain", "", {"length=2", "width=64", "height=48"}};
    options.device = DevicePreference::None;
    options.top = top;
    options.search.beamSize = 4;
    options.search.passes = 1;
    options.search.gpu = GpuSpec::load("v100");
    options.ptxCapability = 75;
    options.workerPath = testWorker().workerPath;
    return options;
}

} // namespace

TEST(BenchWorker, CrashHangAndErrorAreReportedAndTheRunGoesOn) {
    std::vector<BenchJob> jobs;
    for (const char *fault : {"crash", "hang", "error", ""}) {
        BenchJob job = naiveJob(std::string("fault:") + fault);
        job.inject = fault;
        job.target = ""; // compile only: no device needed for the healthy job
        job.ptxCapability = 75;
        if (job.inject == "hang") job.timeoutS = 1.5;
        jobs.push_back(job);
    }
    std::vector<Measurement> results;
    const auto start = std::chrono::steady_clock::now();
    for (const BenchJob &job : jobs)
        results.push_back(runWorker(job, testWorker()));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    EXPECT_EQ(results[0].failure.rfind("crash: signal 11 (Segmentation fault)", 0), 0u)
        << results[0].failure;
    EXPECT_EQ(results[1].failure, "hang: timed out after 1.5 s");
    EXPECT_EQ(results[2].failure, "error: injected error (test only)");
    EXPECT_FALSE(results[3].failed()) << results[3].failure;
    EXPECT_EQ(results[3].label, "fault:");
    EXPECT_LT(seconds, 30);
}

TEST(BenchWorker, WrongOutputIsReportedWithItsError) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    BenchJob job = naiveJob("wrong");
    job.inject = "wrong";
    const Measurement m = runWorker(job, testWorker());
    ASSERT_TRUE(m.correct.has_value()) << m.failure;
    EXPECT_FALSE(*m.correct);
    EXPECT_GE(m.maxError, 99);
    EXPECT_EQ(m.failure.rfind("wrong output: 1 of 3072 values", 0), 0u) << m.failure;
    EXPECT_TRUE(m.measuredMs.has_value());
}

TEST(BenchWorker, NaiveStencilChainRunsCorrectlyOnOpenCl) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const Measurement m = runWorker(naiveJob("naive"), testWorker());
    ASSERT_FALSE(m.failed()) << m.failure;
    ASSERT_TRUE(m.correct.has_value());
    EXPECT_TRUE(*m.correct);
    EXPECT_LE(m.maxError, 1.0);
    ASSERT_TRUE(m.measuredMs.has_value());
    EXPECT_GT(m.measuredMs->median, 0);
    EXPECT_LE(m.measuredMs->min, m.measuredMs->median);
    EXPECT_EQ(m.target, "host-opencl");
    EXPECT_GE(m.timedRuns, 3); // the repeats, and more if they took under 10 ms
}

TEST(BenchWorker, ShortRunsAreTimedUntilTheyAddUpToTheMinimumTotal) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    BenchJob job = smallChainJob("short", 2, 60);
    job.minTimedMs = 0; // the repeats alone
    const Measurement exact = runWorker(job, testWorker());
    ASSERT_FALSE(exact.failed()) << exact.failure;
    EXPECT_EQ(exact.timedRuns, 2);
    job.minTimedMs = 1e6; // never reached: as many runs as the cap allows
    const Measurement capped = runWorker(job, testWorker());
    ASSERT_FALSE(capped.failed()) << capped.failure;
    EXPECT_EQ(capped.timedRuns, kMaxTimedRuns);
    EXPECT_TRUE(capped.correct.value_or(false));
}

TEST(BenchWorker, SearchedScheduleRunsCorrectlyOnOpenCl) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    BenchJob job = naiveJob("greedy");
    job = withGreedySchedule(job);
    const Measurement m = runWorker(job, testWorker());
    ASSERT_FALSE(m.failed()) << m.failure;
    EXPECT_TRUE(m.correct.value_or(false));
}

TEST(BenchWorker, HalideAutoschedulerBaselinesRunWithSearchTime) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    for (const char *name : {"li2018", "mullapudi2016"}) {
        BenchJob job = naiveJob(name);
        job.baseline = name;
        job.gpu = GpuSpec::load("pocl-cpu");
        const Measurement m = runWorker(job, testWorker());
        EXPECT_FALSE(m.failed()) << name << ": " << m.failure;
        EXPECT_TRUE(m.correct.value_or(false)) << name;
        EXPECT_GE(m.searchMs, 0) << name;
    }
}

TEST(BenchWorker, MissingWorkerIsAFailureNotAnException) {
    WorkerOptions options;
    options.workerPath = "/nonexistent/beamscope-worker";
    const Measurement m = runWorker(naiveJob("x"), options);
    EXPECT_EQ(m.failure, "worker not found: /nonexistent/beamscope-worker");
}

// Baselines run at once; stopped after the first of them finishes, the report keeps every
// baseline that finished, whichever place it has in the list (a stopped bench on the H100 lost
// two finished baselines behind an unfinished Anderson2021).
TEST(BenchRun, StoppedBenchKeepsEveryBaselineThatFinished) {
    BenchOptions options = compileOnlyChainBench(1);
    // Anderson2021 first: its search makes it the slowest, so the others finish behind it.
    options.baselines = {Baseline::Anderson2021, Baseline::Li2018, Baseline::Mullapudi2016,
                         Baseline::Naive};
    CancelToken cancel{false};
    options.cancel = &cancel;
    std::mutex mutex;
    std::vector<std::string> finished;
    options.onMeasured = [&](const Measurement &m, bool baseline) {
        if (!baseline) return;
        const std::lock_guard<std::mutex> lock(mutex);
        finished.push_back(m.label);
        cancel = true;
    };
    const BenchReport report = runBenchmark(options);
    EXPECT_TRUE(report.cancelled);
    ASSERT_FALSE(finished.empty());
    for (const std::string &label : finished) {
        const bool kept = std::any_of(report.baselines.begin(), report.baselines.end(),
                                      [&](const Measurement &m) { return m.label == label; });
        EXPECT_TRUE(kept) << label << " finished but is not in the report";
    }
}

TEST(BenchRun, CompileOnlyOneShotReportsRegistersAndChoosesBestPredicted) {
    const BenchReport report = runBenchmark(compileOnlyChainBench(2));
    EXPECT_EQ(report.target, "");
    ASSERT_GE(report.candidates.size(), 2u);
    EXPECT_EQ(report.candidates[0].label, "result"); // the search's result first
    int compiled = 0;
    for (const Measurement &m : report.candidates) {
        EXPECT_FALSE(m.measuredMs.has_value());
        if (report.ptxCapability == 0) continue;
        // A candidate Halide cannot lower is a reported failure, never an abort.
        if (m.failed()) {
            EXPECT_EQ(m.failure.rfind("CUDA compile: ", 0), 0u) << m.label << ": " << m.failure;
        } else {
            EXPECT_GT(m.registers, 0) << m.label;
            EXPECT_EQ(m.spillBytes, 0) << m.label;
            ++compiled;
        }
    }
    if (report.ptxCapability > 0) {
        EXPECT_GE(compiled, 1);
    }
    ASSERT_GE(report.chosen, 0);
    EXPECT_EQ(size_t(report.chosen), report.survivors.front());
}

// --baselines-first: a top-k run starts its baselines before its candidates, in one batch (a
// plugin's minutes-long search then runs beside them), and the report has both, as after.
TEST(BenchRun, BaselinesFirstStartsTheBaselinesBeforeTheCandidatesAndKeepsBoth) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    BenchOptions options;
    options.source = {"stencil_chain", "", {"length=2", "width=64", "height=48"}};
    options.device = DevicePreference::OpenCL;
    options.mode = BenchMode::TopK;
    options.top = 1;
    options.search.beamSize = 4;
    options.search.passes = 1;
    options.search.gpu = GpuSpec::load("pocl-cpu");
    options.warmup = 1;
    options.repeats = 2;
    options.workerPath = testWorker().workerPath;
    options.baselines = {Baseline::Naive};
    options.baselinesFirst = true;
    std::vector<std::string> started;
    options.progress = [&](const std::string &line) {
        if (line.rfind("measuring ", 0) == 0) started.push_back(line.substr(10));
    };
    const BenchReport report = runBenchmark(options);
    ASSERT_GE(started.size(), 3u);
    EXPECT_EQ(started.front(), "baseline:naive");
    ASSERT_EQ(report.baselines.size(), 1u);
    EXPECT_TRUE(report.baselines[0].correct.value_or(false)) << report.baselines[0].failure;
    ASSERT_EQ(report.candidates.size(), 2u); // the search's result and one greedy sample
    EXPECT_EQ(report.candidates[0].label, "result");
    for (const Measurement &m : report.candidates)
        EXPECT_TRUE(m.correct.value_or(false)) << m.label << ": " << m.failure;
    EXPECT_GE(report.chosen, 0);
    EXPECT_FALSE(report.cancelled);
}
