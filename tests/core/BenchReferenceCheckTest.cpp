// The correctness verdict on a float-sensitive pipeline, through the worker on the OpenCL device
// (PoCL here; fails without it): when the CPU reference differs from every device run (the
// test-only "skew-reference" fault), a correct schedule is judged against the device's naive
// output and passes with a note that reports the CPU difference; a wrong one (a whole row) is
// still wrong, named against the device's naive output, while a single differing value is
// within the reported budget; the naive output is computed once and cached.
#include "BenchTestUtil.h"
#include "bench/BenchRun.h"
#include "bench/WorkerRunner.h"
#include "schedule/ScheduleIO.h"
#include "search/SearchEngine.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

/// A small stencil chain job with the naive schedule on host-opencl, with a reference cache.
BenchJob job(const std::string &label, const std::string &cache) {
    BenchJob j = smallChainJob(label, 1, 120);
    j.referenceCache = cache;
    return j;
}

std::string tempCache() {
    return (std::filesystem::temp_directory_path() /
            ("beamscope-refcheck-" + std::to_string(::getpid()) + ".bin"))
        .string();
}

const char *kSensitive = "float-sensitive on this device: the naive schedule differs from the "
                         "CPU reference in 1 of 3072 values beyond tolerance, max error 50 "
                         "(first: output 'output' at (0, 0): ";

} // namespace

TEST(BenchReferenceCheck, CorrectRunsOfAFloatSensitivePipelinePassWithANote) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const std::string cache = tempCache();
    BenchJob naive = job("baseline:naive", cache);
    naive.inject = "skew-reference";
    const Measurement m = runWorker(naive, testWorker());
    EXPECT_TRUE(m.correct.value_or(false)) << m.failure;
    EXPECT_EQ(m.failure, "");
    EXPECT_EQ(m.checkNote.rfind(kSensitive, 0), 0u) << m.checkNote;
    EXPECT_NE(m.checkNote.find("; checked against the device's naive output"), std::string::npos);

    // A searched schedule runs the naive one on the device once; the next job reuses it.
    BenchJob greedy = job("greedy#0", cache);
    greedy = withGreedySchedule(greedy);
    greedy.inject = "skew-reference";
    const Measurement g = runWorker(greedy, testWorker());
    EXPECT_TRUE(g.correct.value_or(false)) << g.failure;
    EXPECT_EQ(g.checkNote.rfind(kSensitive, 0), 0u) << g.checkNote;
    EXPECT_TRUE(std::filesystem::exists(cache + ".device-naive"));
    // The note travels in the measurement's JSON.
    EXPECT_EQ(Measurement::fromJson(g.toJson()).checkNote, g.checkNote);

    // Without the skew, nothing is noted.
    const Measurement plain = runWorker(job("baseline:naive", cache), testWorker());
    EXPECT_TRUE(plain.correct.value_or(false)) << plain.failure;
    EXPECT_EQ(plain.checkNote, "");
    std::remove(cache.c_str());
    std::remove((cache + ".device-naive").c_str());
}

TEST(BenchReferenceCheck, AWrongTileIsStillWrongAndAFewValuesAreWithinTheBudget) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const std::string cache = tempCache() + ".wrong";
    BenchJob wrong = job("baseline:naive", cache);
    wrong.inject = "skew-reference,wrong-tile"; // 64 wrong values: beyond the budget of 4
    const Measurement m = runWorker(wrong, testWorker());
    ASSERT_TRUE(m.correct.has_value()) << m.failure;
    EXPECT_FALSE(*m.correct);
    EXPECT_EQ(m.failure.rfind("wrong output: 64 of 3072 values beyond tolerance, max error 100 "
                              "(first: output 'output' at (0, 0): ",
                              0),
              0u)
        << m.failure;
    EXPECT_NE(m.failure.find("against the device's naive output"), std::string::npos) << m.failure;
    EXPECT_EQ(m.checkNote.rfind(kSensitive, 0), 0u) << m.checkNote;

    // One differing value is within the budget (4 x the naive schedule's 1): correct, reported.
    BenchJob few = job("baseline:naive", cache);
    few.inject = "skew-reference,wrong";
    const Measurement f = runWorker(few, testWorker());
    EXPECT_TRUE(f.correct.value_or(false)) << f.failure;
    EXPECT_NE(f.checkNote.find("; 1 of 3072 values beyond tolerance, max error 100 (first: output "
                               "'output' at (0, 0): "),
              std::string::npos)
        << f.checkNote;
    EXPECT_NE(f.checkNote.find("within the budget of 4 (4 x the naive schedule's differences)"),
              std::string::npos)
        << f.checkNote;
    std::remove(cache.c_str());
    std::remove((cache + ".device-naive").c_str());
}
