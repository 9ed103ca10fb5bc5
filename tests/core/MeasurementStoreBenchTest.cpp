// Recording in runBenchmark on the OpenCL device (PoCL; these tests FAIL without one): every
// row that runs is recorded with its identity, prediction and terms; an identical second run
// takes its candidates from the database (a seeded value proves it did not measure again);
// --fresh measures and records again; a locked database is reported once and the run goes on.
#include "MeasurementStoreTestUtil.h"

#include "bench/BenchRun.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace beamscope;
using beamscope::testing::TempDir;

namespace {

BenchOptions smallRun(MeasurementStore *store) {
    BenchOptions o;
    o.source = PipelineSource{"stencil_chain", "", {"length=2", "width=64", "height=64"}};
    o.device = DevicePreference::OpenCL;
    o.mode = BenchMode::TopK;
    o.top = 1;
    o.warmup = 0;
    o.repeats = 2;
    o.workerPath = BEAMSCOPE_TEST_WORKER;
    o.store = store;
    return o;
}

void requireOpenCl() {
    const DeviceInfo device = detectDevice(DevicePreference::OpenCL);
    ASSERT_EQ(device.kind, DeviceKind::OpenCL) << "these tests need PoCL: " << device.describe();
}

} // namespace

TEST(MeasurementStoreBench, RecordsThenReusesThenFreshMeasuresAgain) {
    requireOpenCl();
    TempDir dir;
    MeasurementStore store(dir.file("bench.sqlite"));
    BenchOptions options = smallRun(&store);
    options.baselines = {Baseline::Naive};
    const BenchReport first = runBenchmark(options);
    const size_t n = first.candidates.size();
    ASSERT_GE(n, 1u);
    EXPECT_EQ(first.reused, 0);
    EXPECT_EQ(first.recorded, int(n) + 1);
    std::vector<MeasurementRecord> rows = store.records();
    ASSERT_EQ(rows.size(), n + 1);
    for (size_t i = 0; i < n; ++i) {
        const MeasurementRecord &r = rows[i];
        EXPECT_EQ(r.scheduleHash, scheduleHash(first.schedules[i]));
        EXPECT_EQ(r.schedule, first.schedules[i]);
        EXPECT_EQ(r.measurement.label, first.candidates[i].label);
        EXPECT_EQ(r.measurement.measuredMs, first.candidates[i].measuredMs);
        EXPECT_DOUBLE_EQ(r.predicted, first.candidates[i].predicted);
        EXPECT_TRUE(r.predictedTerms.contains("compute")) << r.predictedTerms.dump();
        EXPECT_EQ(r.costModel, "analytic");
        EXPECT_EQ(r.gpu["name"], first.gpu.name);
        EXPECT_EQ(r.repeats, 2);
        EXPECT_EQ(r.origin, "bench");
        EXPECT_EQ(r.device.kind, "opencl");
        EXPECT_EQ(r.pipeline.app, "stencil_chain");
        EXPECT_EQ(r.pipeline.params,
                  (std::vector<std::string>{"height=64", "length=2", "width=64"}));
        EXPECT_TRUE(r.successful()) << r.measurement.failure;
    }
    EXPECT_EQ(rows[n].scheduleHash, "baseline:naive");
    EXPECT_EQ(rows[n].baseline, "naive");
    EXPECT_TRUE(rows[n].schedule.is_null());

    // A newer record of the first candidate with a time no run gives: the reuse must show it.
    MeasurementRecord seeded = rows[0];
    seeded.id = 0;
    seeded.createdAt = rows[0].createdAt + 1;
    seeded.measurement.measuredMs = RunTimes{123.25, 120.5, 130.0};
    seeded.measurement.label = "old label";
    store.add(seeded);

    std::vector<std::string> lines;
    BenchOptions again = smallRun(&store);
    again.progress = [&](const std::string &line) { lines.push_back(line); };
    const BenchReport second = runBenchmark(again);
    ASSERT_EQ(second.candidates.size(), n);
    EXPECT_EQ(second.reused, int(n));
    EXPECT_EQ(second.recorded, 0);
    EXPECT_EQ(store.stats().records, std::int64_t(n) + 2); // nothing new
    EXPECT_TRUE(second.candidates[0].reused);
    EXPECT_EQ(second.candidates[0].label, first.candidates[0].label); // the row keeps its label
    EXPECT_DOUBLE_EQ(second.candidates[0].measuredMs->median, 123.25);
    for (size_t i = 1; i < n; ++i)
        EXPECT_EQ(second.candidates[i].measuredMs, first.candidates[i].measuredMs);
    for (const std::string &line : lines)
        EXPECT_EQ(line.find("measuring"), std::string::npos) << line;
    EXPECT_EQ(second.toJson()["candidates"][0]["reused"], true);

    BenchOptions fresh = smallRun(&store);
    fresh.fresh = true;
    const BenchReport third = runBenchmark(fresh);
    EXPECT_EQ(third.reused, 0);
    EXPECT_EQ(third.recorded, int(n));
    EXPECT_EQ(store.stats().records, std::int64_t(2 * n) + 2);
    EXPECT_NE(third.candidates[0].measuredMs->median, 123.25);
}

TEST(MeasurementStoreBench, LockedDatabaseIsReportedOnceAndTheRunGoesOn) {
    requireOpenCl();
    TempDir dir;
    const std::string path = dir.file("locked.sqlite");
    MeasurementStore store(path);
    sqlite3 *holder = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &holder), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    std::vector<std::string> lines;
    BenchOptions options = smallRun(&store);
    options.baselines = {Baseline::Naive};
    options.progress = [&](const std::string &line) { lines.push_back(line); };
    const BenchReport report = runBenchmark(options);
    sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(holder);

    int reported = 0;
    for (const std::string &line : lines) {
        if (line.find("no longer recorded") != std::string::npos) {
            ++reported;
            EXPECT_EQ(line.rfind("measurement database: " + path + ": database is locked", 0), 0u)
                << line;
        }
    }
    EXPECT_EQ(reported, 1);
    EXPECT_EQ(report.recorded, 0);
    ASSERT_EQ(report.baselines.size(), 1u);
    EXPECT_TRUE(report.baselines[0].measuredMs);
    for (const Measurement &m : report.candidates)
        EXPECT_TRUE(m.measuredMs) << m.label << ": " << m.failure;
    EXPECT_EQ(store.stats().records, 0);
}
