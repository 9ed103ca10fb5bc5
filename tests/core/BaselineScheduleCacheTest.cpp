// The baseline schedule cache: a plugin's schedule applied again from the cache lowers to the
// very statement the plugin's own application does (Anderson2021 on apps with updates, shared
// memory, staging wrappers, storage reordering and guarded tails), without running the plugin;
// the key tells pipelines, sizes, GPUs and plugins apart and is the same for two fresh instances
// of one pipeline; a plugin that rewrites definitions (Mullapudi2016's inlining) is not kept; a
// corrupt entry or another pipeline's entry falls back to the plugin with one line on stderr and
// is replaced; "off" writes nothing.
#include "measure/BaselineScheduleCache.h"

#include "ConceptualStmt.h"

#include "bench/BaselineImport.h"
#include "measure/Baselines.h"
#include "pipeline/PipelineSource.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace beamscope {
namespace {

const GpuSpec &h100() {
    static const GpuSpec gpu = GpuSpec::load("h100");
    return gpu;
}

/// BEAMSCOPE_BASELINE_CACHE pointed at a fresh directory for one test, removed after it.
class CacheDirectory {
public:
    CacheDirectory()
        : m_path(std::filesystem::temp_directory_path() /
                 ("beamscope-baseline-cache-" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(m_path);
        ::setenv("BEAMSCOPE_BASELINE_CACHE", m_path.c_str(), 1);
    }
    ~CacheDirectory() {
        ::unsetenv("BEAMSCOPE_BASELINE_CACHE");
        std::filesystem::remove_all(m_path);
    }
    const std::filesystem::path &path() const { return m_path; }
    /// The files in the directory, by name.
    std::vector<std::string> files() const {
        std::vector<std::string> names;
        if (!std::filesystem::exists(m_path)) return names;
        for (const auto &entry : std::filesystem::directory_iterator(m_path))
            names.push_back(entry.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }

private:
    std::filesystem::path m_path;
};

/// The whole lowered statement of a scheduled pipeline for the import target, without Halide's
/// "$n" name suffixes and temporaries' numbers (two instances of one app, and two lowerings,
/// number them differently).
std::string loweredStatement(Halide::Pipeline p) {
    return std::regex_replace(testing::conceptualStmtText(p, importTarget(h100())),
                              std::regex("\\bt[0-9]+\\b"), "t");
}

struct Case {
    std::string app;
    std::vector<std::string> params;
    Baseline baseline;
};

/// The plugin's schedule of `c` applied by the plugin, then to a fresh instance from the cache:
/// the same statement (ASSERTs end this case only).
void expectTheSameStatement(const Case &c) {
    const CacheDirectory cache;
    const PipelineSource source{c.app, "", c.params};
    const Halide::Target target = importTarget(h100());

    PipelineInstance byPlugin = loadPipeline(source);
    bool fromCache = true;
    const AutoschedulerRun first =
        applyHalideAutoscheduler(c.baseline, byPlugin, target, h100(), &fromCache);
    EXPECT_FALSE(fromCache);
    ASSERT_EQ(cache.files().size(), 2u); // KEY.hlpipe and KEY.json

    PipelineInstance byCache = loadPipeline(source);
    const AutoschedulerRun second =
        applyHalideAutoscheduler(c.baseline, byCache, target, h100(), &fromCache);
    EXPECT_TRUE(fromCache);
    EXPECT_EQ(second.milliseconds, first.milliseconds); // the plugin's, when it ran
    EXPECT_EQ(second.scheduleSource, first.scheduleSource);
    const std::string expected = loweredStatement(byPlugin.pipeline);
    EXPECT_NE(expected.find("gpu_block"), std::string::npos);
    EXPECT_EQ(loweredStatement(byCache.pipeline), expected);
}

TEST(BaselineScheduleCache, AScheduleFromTheCacheLowersToThePluginsOwnStatement) {
    const std::vector<Case> cases = {
        // histogram's scattering update in shared memory at blurz's block level.
        {"bilateral_grid", {"width=128", "height=96"}, Baseline::Anderson2021},
        // reorder_storage on interpolated_*, a block-level Func with no thread loop.
        {"interpolate", {"width=128", "height=96", "levels=3"}, Baseline::Anderson2021},
        // Updates split with RoundUp tails.
        {"nl_means",
         {"width=64", "height=48", "patch_size=3", "search_area=3"},
         Baseline::Anderson2021Paper},
        // prod's update in shared memory at output's block level.
        {"matmul", {"m=64", "n=64", "k=64"}, Baseline::Anderson2021},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.app + " " + baselineName(c.baseline));
        try {
            expectTheSameStatement(c);
        } catch (const Halide::Error &e) {
            ADD_FAILURE() << "Halide: " << e.what();
        } catch (const std::exception &e) {
            ADD_FAILURE() << e.what();
        }
    }
}

TEST(BaselineScheduleCache, TheKeyTellsPipelinesSizesGpusAndPluginsApart) {
    const Halide::Target target = importTarget(h100());
    const auto key = [&](const PipelineSource &source, Baseline baseline, const GpuSpec &gpu) {
        return baselineCacheKey(loadPipeline(source), autoschedulerParams(baseline, gpu, target),
                                target);
    };
    const PipelineSource small{"unsharp_mask", "", {"width=128", "height=96"}};
    const std::string k = key(small, Baseline::Anderson2021, h100());
    EXPECT_EQ(k.size(), 16u);
    EXPECT_EQ(key(small, Baseline::Anderson2021, h100()), k); // another fresh instance
    EXPECT_NE(key({"unsharp_mask", "", {"width=128", "height=64"}}, Baseline::Anderson2021, h100()),
              k);
    EXPECT_NE(key({"harris", "", {"width=128", "height=96"}}, Baseline::Anderson2021, h100()), k);
    EXPECT_NE(key(small, Baseline::Anderson2021Paper, h100()), k);
    EXPECT_NE(key(small, Baseline::Li2018, h100()), k);
    EXPECT_NE(key(small, Baseline::Anderson2021, GpuSpec::load("v100")), k);
    EXPECT_NE(baselineCacheKey(loadPipeline(small),
                               autoschedulerParams(Baseline::Anderson2021, h100(), target),
                               Halide::Target("host-cuda-cuda_capability_80")),
              k);
}

// Anderson2021 reads the host's SIMD width only for CPU targets, so a cache filled on one machine
// serves another with other instruction sets (the GPU machine, docs/gpu-check.md); what the
// plugin does see (GPU, large buffers, OS) still tells entries apart, and so does everything for
// plugins that may read the host.
TEST(BaselineScheduleCache, AndersonsGpuEntriesDoNotDependOnTheHostsInstructionSets) {
    const PipelineSource small{"unsharp_mask", "", {"width=128", "height=96"}};
    const auto key = [&](Baseline baseline, const std::string &target) {
        const Halide::Target t(target);
        return baselineCacheKey(loadPipeline(small), autoschedulerParams(baseline, h100(), t), t);
    };
    const std::string plain = key(Baseline::Anderson2021, "x86-64-linux-cuda-cuda_capability_86");
    EXPECT_EQ(key(Baseline::Anderson2021, "x86-64-linux-avx-avx2-f16c-fma-sse41-avx512-"
                                          "avx512_skylake-avx512_sapphirerapids-cuda-"
                                          "cuda_capability_86"),
              plain);
    EXPECT_EQ(key(Baseline::Anderson2021, "host-cuda-cuda_capability_86"), plain);
    EXPECT_EQ(key(Baseline::Anderson2021, "x86-64-linux-tune_znver4-avx2-cuda-cuda_capability_86"),
              plain);
    EXPECT_EQ(key(Baseline::Anderson2021Paper, "x86-64-linux-avx2-cuda-cuda_capability_86"),
              key(Baseline::Anderson2021Paper, "x86-64-linux-cuda-cuda_capability_86"));
    EXPECT_NE(key(Baseline::Anderson2021, "x86-64-linux-cuda-cuda_capability_86-large_buffers"),
              plain);
    EXPECT_NE(key(Baseline::Anderson2021, "x86-64-linux-cuda-cuda_capability_80"), plain);
    EXPECT_NE(key(Baseline::Anderson2021, "arm-64-linux-cuda-cuda_capability_86"), plain);
    EXPECT_NE(key(Baseline::Li2018, "x86-64-linux-avx2-cuda-cuda_capability_86"),
              key(Baseline::Li2018, "x86-64-linux-cuda-cuda_capability_86"));
}

TEST(BaselineScheduleCache, AnUnusableEntryFallsBackToThePluginWithOneLineAndIsReplaced) {
    const CacheDirectory cache;
    const PipelineSource source{"unsharp_mask", "", {"width=128", "height=96"}};
    const PipelineSource other{"harris", "", {"width=128", "height=96"}};
    const Halide::Target target = importTarget(h100());
    PipelineInstance reference = loadPipeline(source);
    applyHalideAutoscheduler(Baseline::Anderson2021, reference, target, h100());
    const std::string expected = loweredStatement(reference.pipeline);
    const std::string key = baselineCacheKey(
        loadPipeline(source), autoschedulerParams(Baseline::Anderson2021, h100(), target), target);
    const std::filesystem::path entry = cache.path() / (key + ".hlpipe");
    ASSERT_TRUE(std::filesystem::exists(entry));

    // Another pipeline's scheduled Funcs under this key (harris's entry copied over it).
    PipelineInstance harris = loadPipeline(other);
    applyHalideAutoscheduler(Baseline::Anderson2021, harris, target, h100());
    const std::string harrisKey = baselineCacheKey(
        loadPipeline(other), autoschedulerParams(Baseline::Anderson2021, h100(), target), target);
    for (const char *ext : {".hlpipe", ".json"}) {
        std::filesystem::copy_file(cache.path() / (harrisKey + ext), cache.path() / (key + ext),
                                   std::filesystem::copy_options::overwrite_existing);
    }
    // Then garbage in place of the pipeline (Halide's deserializer would crash on it).
    for (const std::string &contents : {std::string(), std::string("not a pipeline\n")}) {
        SCOPED_TRACE(contents.empty() ? "harris's entry" : "garbage");
        if (!contents.empty()) std::ofstream(entry, std::ios::trunc) << contents;
        PipelineInstance again = loadPipeline(source);
        bool fromCache = true;
        ::testing::internal::CaptureStderr();
        applyHalideAutoscheduler(Baseline::Anderson2021, again, target, h100(), &fromCache);
        const std::string err = ::testing::internal::GetCapturedStderr();
        EXPECT_FALSE(fromCache);
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
        EXPECT_EQ(
            err.rfind("warning: the baseline schedule cache is unusable here, running Anderson2021",
                      0),
            0u)
            << err;
        EXPECT_EQ(loweredStatement(again.pipeline), expected);
        // Replaced: the next instance is scheduled from the cache.
        PipelineInstance third = loadPipeline(source);
        applyHalideAutoscheduler(Baseline::Anderson2021, third, target, h100(), &fromCache);
        EXPECT_TRUE(fromCache);
        EXPECT_EQ(loweredStatement(third.pipeline), expected);
    }
}

TEST(BaselineScheduleCache, AScheduleThatRewritesDefinitionsIsNotKept) {
    // Mullapudi2016 inlines unsharp_mask's pointwise Funcs into their consumers' definitions.
    const CacheDirectory cache;
    for (int run = 0; run < 2; ++run) {
        PipelineInstance instance = loadPipeline({"unsharp_mask", "", {"width=128", "height=96"}});
        bool fromCache = true;
        ::testing::internal::CaptureStderr();
        applyHalideAutoscheduler(Baseline::Mullapudi2016, instance, importTarget(h100()), h100(),
                                 &fromCache);
        EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
        EXPECT_FALSE(fromCache);
    }
    EXPECT_TRUE(cache.files().empty());
}

TEST(BaselineScheduleCache, OffWritesNothing) {
    const CacheDirectory cache;
    ::setenv("BEAMSCOPE_BASELINE_CACHE", "off", 1);
    EXPECT_TRUE(baselineCacheDir().empty());
    for (int run = 0; run < 2; ++run) {
        PipelineInstance instance = loadPipeline({"unsharp_mask", "", {"width=128", "height=96"}});
        bool fromCache = true;
        applyHalideAutoscheduler(Baseline::Anderson2021, instance, importTarget(h100()), h100(),
                                 &fromCache);
        EXPECT_FALSE(fromCache);
    }
    EXPECT_TRUE(cache.files().empty());
}

} // namespace
} // namespace beamscope
