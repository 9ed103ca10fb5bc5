// The correctness verdict on a float-sensitive pipeline, through the worker on the OpenCL device
// (PoCL here; fails without it): when the CPU reference differs from every device run (the
// test-only "skew-reference" fault), a correct schedule is judged against the device's naive
// output and passes with a note that reports the CPU difference; a wrong one (a whole row) is
// still wrong, named against the device's naive output, while a single differing value is
// within the reported budget; the naive output is computed once and cached. Where the naive
// schedule matches the CPU, the CPU reference without contraction (strict_float) decides the
// same way for contraction-sensitive apps (simulated, and measured on local_laplacian's CPU
// references).
#include "BenchTestUtil.h"
#include "bench/BenchRun.h"
#include "measure/BenchData.h"
#include "measure/BufferCompare.h"
#include "measure/ReferenceCheck.h"
#include "measure/WorkerRunner.h"
#include "pipeline/PipelineSource.h"
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

/// The naive baseline's job run through the worker with the test-only faults `inject`.
Measurement runNaiveWith(const std::string &cache, const std::string &inject) {
    BenchJob naive = job("baseline:naive", cache);
    naive.inject = inject;
    return runWorker(naive, testWorker());
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
    const Measurement m = runNaiveWith(cache, "skew-reference");
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
    // 64 wrong values: beyond the budget of 4.
    const Measurement m = runNaiveWith(cache, "skew-reference,wrong-tile");
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
    const Measurement f = runNaiveWith(cache, "skew-reference,wrong");
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

// When the naive schedule matches the CPU but a candidate does not, the CPU reference without
// contraction (strict_float) decides: the test-only "skew-contraction" makes it differ from the
// CPU reference in 1 value (a contraction-sensitive app); then 1 differing value is within the
// budget of 4 and reported, a wrong row (64 values) is still wrong, and without the skew (the
// stencil chain's two CPU references agree within tolerance) 1 value is wrong.
TEST(BenchReferenceCheck, AContractionSensitiveAppsFewDifferencesAreWithinTheBudget) {
    ASSERT_TRUE(haveOpenCl()) << kNoOpenCl;
    const std::string cache = tempCache() + ".contraction";
    const char *sensitive = "contraction-sensitive: the CPU reference computed without "
                            "floating-point contraction (strict_float) differs from it in 1 of "
                            "3072 values beyond tolerance, max error 50";

    const Measurement f = runNaiveWith(cache, "skew-contraction,wrong");
    EXPECT_TRUE(f.correct.value_or(false)) << f.failure;
    EXPECT_EQ(f.checkNote.rfind(sensitive, 0), 0u) << f.checkNote;
    EXPECT_NE(f.checkNote.find("; 1 of 3072 values beyond tolerance, max error 100 (first: output "
                               "'output' at (0, 0): "),
              std::string::npos)
        << f.checkNote;
    EXPECT_NE(f.checkNote.find("within the budget of 4 (4 x those differences)"), std::string::npos)
        << f.checkNote;
    EXPECT_TRUE(std::filesystem::exists(cache + ".strict-float"));

    const Measurement t = runNaiveWith(cache, "skew-contraction,wrong-tile");
    ASSERT_TRUE(t.correct.has_value()) << t.failure;
    EXPECT_FALSE(*t.correct);
    EXPECT_EQ(t.failure.rfind("wrong output: 64 of 3072 values beyond tolerance", 0), 0u)
        << t.failure;
    EXPECT_EQ(t.checkNote.rfind(sensitive, 0), 0u) << t.checkNote;

    const Measurement p = runNaiveWith(cache, "wrong");
    ASSERT_TRUE(p.correct.has_value()) << p.failure;
    EXPECT_FALSE(*p.correct);
    EXPECT_EQ(p.failure.rfind("wrong output: 1 of 3072 values beyond tolerance", 0), 0u)
        << p.failure;
    EXPECT_EQ(p.checkNote, "");
    removeReferenceCaches(cache);
    EXPECT_FALSE(std::filesystem::exists(cache + ".strict-float"));
}

// The real thing on the CPU: local_laplacian turns floats into pyramid level indices, and with
// strict_float (no fused multiply-adds) a few of its 1024x768 outputs land on another level
// (3 values here, errors around 43; on an H100 its schedules differed from the CPU in 9 of
// 11.8 M values the same way). The stencil chain's two references agree within tolerance
// (its float weights round by at most 1 in the 16-bit output).
TEST(BenchReferenceCheck, LocalLaplaciansCpuReferenceDependsOnContraction) {
    BenchJob laplacian;
    laplacian.source.name = "local_laplacian";
    laplacian.source.params = {"width=1024", "height=768"};
    PipelineInstance instance = loadPipeline(laplacian.source);
    const std::vector<Halide::Buffer<>> inputs =
        makeInputs(instance, laplacian.seed, laplacian.intMax);
    const std::vector<Halide::Buffer<>> cpu = cpuReference(laplacian, inputs);
    const std::vector<Halide::Buffer<>> strict = cpuContractionFreeReference(laplacian, inputs);
    const Comparison c =
        compareBuffers(rawBuffers(strict), rawBuffers(cpu), laplacian.rtol, laplacian.atol);
    EXPECT_GT(c.mismatches, 0);
    EXPECT_LT(c.mismatches, 100); // a few values, not a wrong tile
    EXPECT_GT(c.maxAbsError, 1);

    BenchJob chain = smallChainJob("chain", 1, 120);
    PipelineInstance chainInstance = loadPipeline(chain.source);
    const std::vector<Halide::Buffer<>> chainInputs =
        makeInputs(chainInstance, chain.seed, chain.intMax);
    const Comparison same =
        compareBuffers(rawBuffers(cpuContractionFreeReference(chain, chainInputs)),
                       rawBuffers(cpuReference(chain, chainInputs)), chain.rtol, chain.atol);
    EXPECT_EQ(same.mismatches, 0);
    EXPECT_LE(same.maxAbsError, 1);
}
