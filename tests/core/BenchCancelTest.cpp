// Stopping a benchmark and keeping its results: a cancel flag kills a running child process at
// once (its whole group), and a BenchReport read back from its JSON (as sessions store it) has
// the same rows, device, choice and schedules.
#include "bench/BenchRun.h"
#include "util/Subprocess.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace beamscope;

TEST(BenchCancel, CancelKillsTheRunningProcessPromptly) {
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel = true;
    });
    ProcessOptions options;
    options.timeoutS = 60;
    options.cancel = &cancel;
    const ProcessResult result = runProcess({"/bin/sh", "-c", "sleep 30 & sleep 30"}, options);
    canceller.join();
    EXPECT_TRUE(result.cancelled);
    EXPECT_FALSE(result.timedOut);
    EXPECT_FALSE(result.succeeded());
    EXPECT_LT(result.wallMs, 3000);
    EXPECT_EQ(result.describeEnd(60), "cancelled");
}

TEST(BenchCancel, ReportJsonRoundTrip) {
    BenchReport report;
    report.pipeline = "stencil_chain";
    report.device.kind = DeviceKind::OpenCL;
    report.device.name = "cpu";
    report.device.openclType = "CPU";
    report.target = "host-opencl";
    report.gpu.name = "v100";
    report.mode = BenchMode::TopK;
    Measurement a;
    a.label = "beam#0";
    a.predicted = 0.25;
    a.measuredMs = RunTimes{1.5, 1.25, 2.0};
    a.correct = true;
    Measurement b = a;
    b.label = "beam#1";
    b.failure = "crash: signal 11 (Segmentation fault)";
    b.measuredMs.reset();
    b.correct.reset();
    Measurement naive;
    naive.label = "baseline:naive";
    naive.measuredMs = RunTimes{3, 3, 3};
    report.candidates = {a, b};
    report.schedules = {nlohmann::json::array({1, 2}), nlohmann::json::array({3})};
    report.baselines = {naive};
    report.survivors = {0};
    report.chosen = 0;
    report.chosenWhy = "fastest";
    report.cancelled = true;

    const BenchReport back = BenchReport::fromJson(report.toJson());
    EXPECT_EQ(back.pipeline, report.pipeline);
    EXPECT_EQ(back.device.kind, DeviceKind::OpenCL);
    EXPECT_EQ(back.device.openclType, "CPU");
    EXPECT_EQ(back.gpu.name, "v100");
    EXPECT_EQ(back.mode, BenchMode::TopK);
    ASSERT_EQ(back.candidates.size(), 2u);
    EXPECT_EQ(back.candidates[0].measuredMs, a.measuredMs);
    EXPECT_EQ(back.candidates[1].failure, b.failure);
    EXPECT_EQ(back.schedules, report.schedules);
    ASSERT_EQ(back.baselines.size(), 1u);
    EXPECT_EQ(back.baselines[0].label, "baseline:naive");
    EXPECT_EQ(back.survivors, report.survivors);
    EXPECT_EQ(back.chosen, 0);
    EXPECT_TRUE(back.cancelled);
    EXPECT_THROW(BenchReport::fromJson(nlohmann::json::array()), Error);
}
