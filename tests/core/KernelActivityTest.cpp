// Per-kernel times (measure/KernelActivity.h): runs of kernel records summarized per kernel by
// hand-computed medians, the times through a measurement's JSON and the bench table, and CUPTI
// on a machine without a CUDA driver saying why in one line instead of recording.
#include "measure/KernelActivity.h"
#include "bench/BenchRun.h"
#include "measure/Measurement.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <sstream>

using namespace beamscope;

namespace {

constexpr std::uint64_t kMs = 1'000'000; // ns

KernelRecord launch(const std::string &name, double fromMs, double toMs) {
    return {name, std::uint64_t(fromMs * double(kMs)), std::uint64_t(toMs * double(kMs))};
}

} // namespace

TEST(KernelActivity, SummarizesEachKernelByItsMedianRunLongestFirst) {
    // "blur" runs twice a realization (a host loop around it), "out" once; "late" only in the
    // third run (0 ms in the other two).
    const std::vector<std::vector<KernelRecord>> runs = {
        {launch("blur", 0, 2), launch("out", 2, 3), launch("blur", 3, 3.5)}, // blur 2.5, out 1
        {launch("out", 2.2, 3.4), launch("blur", 0, 2.2), launch("blur", 3.4, 4)}, // 2.8, 1.2
        {launch("blur", 0, 1.5), launch("blur", 2, 2.5), launch("out", 2.5, 3.4),
         launch("late", 4, 5)}, // blur 2.0, out 0.9, late 1
    };
    const std::vector<KernelTime> times = summarizeKernelRuns(runs);
    ASSERT_EQ(times.size(), 3u);
    EXPECT_EQ(times[0].name, "blur");
    EXPECT_NEAR(times[0].ms, 2.5, 1e-9); // median of 2.5, 2.8, 2.0
    EXPECT_EQ(times[0].launches, 2);
    EXPECT_EQ(times[1].name, "out");
    EXPECT_NEAR(times[1].ms, 1.0, 1e-9); // median of 1.0, 1.2, 0.9
    EXPECT_EQ(times[1].launches, 1);
    EXPECT_EQ(times[2].name, "late");
    EXPECT_NEAR(times[2].ms, 0.0, 1e-9); // median of 0, 0, 1
    EXPECT_EQ(times[2].launches, 1);
    EXPECT_TRUE(summarizeKernelRuns({}).empty());
}

TEST(KernelActivity, TimesTravelInTheMeasurementJson) {
    Measurement m;
    m.label = "beam#0";
    m.measuredMs = RunTimes{3.6, 3.5, 3.9};
    m.kernelTimes = {{"_kernel_output_s0_y_y_block_id_y", 2.25, 1}, {"_kernel_f_s0_x", 1.0, 3}};
    const Measurement back = Measurement::fromJson(m.toJson());
    EXPECT_EQ(back.kernelTimes, m.kernelTimes);
    EXPECT_TRUE(back.kernelTimesNote.empty());

    Measurement none;
    none.kernelTimesNote = "CUPTI cuptiActivityEnable: CUPTI_ERROR_UNKNOWN";
    const nlohmann::json j = none.toJson();
    EXPECT_FALSE(j.contains("kernel_times")); // absent, not an empty list, where none were read
    EXPECT_EQ(Measurement::fromJson(j).kernelTimesNote, none.kernelTimesNote);
    // A malformed entry (a row written by hand) reads as what it can, never throws.
    const Measurement odd = Measurement::fromJson(
        nlohmann::json::parse(R"({"kernel_times": [{"name": 3, "ms": "x"}, 7]})"));
    ASSERT_EQ(odd.kernelTimes.size(), 1u);
    EXPECT_EQ(odd.kernelTimes[0], (KernelTime{"", 0.0, 0}));
}

TEST(KernelActivity, BenchTableNamesTheLongestKernelsOfTheChosenRowAndBaselines) {
    BenchReport r;
    r.pipeline = "blur";
    Measurement chosen;
    chosen.label = "beam#0";
    chosen.measuredMs = RunTimes{3.6, 3.5, 3.9};
    chosen.kernelTimes = {{"k_a", 2.0, 1}, {"k_b", 1.0, 2}, {"k_c", 0.25, 1}, {"k_d", 0.125, 1}};
    Measurement baseline;
    baseline.label = "baseline:anderson2021";
    baseline.measuredMs = RunTimes{2.0, 2.0, 2.0};
    baseline.kernelTimesNote = "CUPTI not loaded (libcupti.so.13): not found";
    r.candidates = {chosen};
    r.chosen = 0;
    r.baselines = {baseline};
    std::ostringstream table;
    r.printKernelTimes(table);
    EXPECT_EQ(table.str(),
              "\nkernels of beam #1: 4, 3.375 ms on the device of 3.600 ms: k_a 2.000 ms, k_b "
              "1.000 ms (2 launches), k_c 0.250 ms"
              "\nkernels of baseline:anderson2021: CUPTI not loaded (libcupti.so.13): not found");

    std::ostringstream quiet; // an OpenCL bench: no kernel times, no notes, no lines
    BenchReport opencl;
    opencl.candidates = {Measurement{}};
    opencl.chosen = 0;
    opencl.printKernelTimes(quiet);
    EXPECT_EQ(quiet.str(), "");
}

TEST(KernelActivity, WithoutACudaDriverSaysWhyInOneLine) {
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    KernelActivity activity;
    if (driver) { // a machine with a GPU: CUPTI (carried by device_bundle.sh) records
        dlclose(driver);
        EXPECT_TRUE(activity.recording()) << activity.unavailable();
        return;
    }
    EXPECT_FALSE(activity.recording());
    const std::string why = activity.unavailable();
    EXPECT_FALSE(why.empty());
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    EXPECT_TRUE(activity.collect().empty());
}
