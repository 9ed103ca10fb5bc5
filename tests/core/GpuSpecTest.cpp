// GpuSpec: presets load and round-trip, V100 matches published numbers, files load, malformed
// files and unknown names are rejected with a message naming the problem, helpers are right.
#include "schedule/GpuSpec.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace beamscope {
namespace {

namespace fs = std::filesystem;

/// A scratch directory removed at the end of the test.
class TempDir {
public:
    TempDir() {
        m_path = fs::temp_directory_path() / ("beamscope-gpuspec-" + std::to_string(::getpid()) +
                                              "-" + std::to_string(s_counter++));
        fs::create_directories(m_path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    /// Writes text to name inside the directory and returns the file's path.
    std::string write(const std::string &name, const std::string &text) const {
        const fs::path path = m_path / name;
        std::ofstream(path) << text;
        return path.string();
    }

private:
    static inline int s_counter = 0;
    fs::path m_path;
};

/// The message of the Error that load(path) throws, or "" if it does not throw.
std::string loadError(const std::string &path) {
    try {
        GpuSpec::load(path);
    } catch (const Error &e) {
        return e.what();
    }
    return "";
}

TEST(GpuSpec, EveryPresetLoadsAndRoundTrips) {
    const std::vector<std::string> expected = {"v100", "a100", "h100", "h200", "rtx4090", "pocl-cpu"};
    EXPECT_EQ(GpuSpec::presetNames(), expected);
    for (const std::string &name : GpuSpec::presetNames()) {
        SCOPED_TRACE(name);
        const GpuSpec spec = GpuSpec::load(name);
        EXPECT_FALSE(spec.name.empty());
        EXPECT_FALSE(spec.description.empty());
        EXPECT_EQ(GpuSpec::fromJson(spec.toJson()), spec);
        EXPECT_EQ(spec.maxThreadsPerSm, spec.maxWarpsPerSm * spec.warpSize);
    }
}

TEST(GpuSpec, PresetNamesAreCaseInsensitive) {
    EXPECT_EQ(GpuSpec::load("V100"), GpuSpec::load("v100"));
    EXPECT_EQ(GpuSpec::load("RTX4090").computeCapability, 89);
    EXPECT_EQ(GpuSpec::load("PoCL-CPU").computeCapability, 0);
}

TEST(GpuSpec, V100MatchesPublishedNumbers) {
    const GpuSpec v100 = GpuSpec::load("v100");
    EXPECT_EQ(v100.smCount, 80);
    EXPECT_EQ(v100.warpSize, 32);
    EXPECT_EQ(v100.maxThreadsPerBlock, 1024);
    EXPECT_EQ(v100.maxThreadsPerSm, 2048);
    EXPECT_EQ(v100.maxWarpsPerSm, 64);
    EXPECT_EQ(v100.maxBlocksPerSm, 32);
    EXPECT_EQ(v100.sharedMemoryPerBlockBytes, 48 * 1024);
    EXPECT_EQ(v100.sharedMemoryPerSmBytes, 96 * 1024);
    EXPECT_EQ(v100.registersPerSm, 65536);
    EXPECT_EQ(v100.registersPerThreadMax, 255);
    EXPECT_EQ(v100.l2CacheBytes, 6 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(v100.globalMemoryBandwidthGBs, 900.0);
    EXPECT_EQ(v100.globalTransactionBytes, 32);
    EXPECT_EQ(v100.sharedMemoryBanks, 32);
    EXPECT_EQ(v100.sharedBankWidthBytes, 4);
    EXPECT_DOUBLE_EQ(v100.clockGHz, 1.53);
    EXPECT_EQ(v100.fp32LanesPerSm, 64);
    EXPECT_EQ(v100.computeCapability, 70);
    EXPECT_EQ(GpuSpec::defaultSpec(), v100);
}

TEST(GpuSpec, DerivedHelpers) {
    const GpuSpec v100 = GpuSpec::defaultSpec();
    EXPECT_NEAR(v100.peakGflops(), 80 * 64 * 2 * 1.53, 1e-6); // 15,667 GFLOP/s
    EXPECT_NEAR(v100.peakGflops() / 1000.0, 15.7, 0.05);
    EXPECT_EQ(v100.maxActiveWarps(), 80 * 64);
    EXPECT_EQ(v100.maxActiveThreads(), 80 * 2048);
    EXPECT_EQ(v100.maxActiveBlocks(), 80 * 32);
    EXPECT_NEAR(v100.globalBytesPerClock(), 900.0 / 1.53, 1e-9);
    EXPECT_EQ(v100.sharedBytesPerClockPerSm(), 128);
    EXPECT_NEAR(v100.flopsPerByte(), 80 * 64 * 2 * 1.53 / 900.0, 1e-9);
    EXPECT_EQ(v100.warpsPerBlock(1), 1);
    EXPECT_EQ(v100.warpsPerBlock(33), 2);
    EXPECT_NEAR(GpuSpec::load("h100").peakGflops() / 1000.0, 66.9, 0.05);
    EXPECT_NEAR(GpuSpec::load("a100").peakGflops() / 1000.0, 19.5, 0.05);

    // Occupancy: 256 threads = 8 warps; warp limit 64/8 = 8 blocks.
    EXPECT_EQ(v100.activeBlocksPerSm(256, 0, 32), 8);
    EXPECT_DOUBLE_EQ(v100.occupancy(256, 0, 32), 1.0);
    // 32 threads: block limit (32) binds before the warp limit (64).
    EXPECT_EQ(v100.activeBlocksPerSm(32, 0, 16), 32);
    EXPECT_DOUBLE_EQ(v100.occupancy(32, 0, 16), 0.5);
    // 40 KB of shared memory per block: 96/40 = 2 blocks.
    EXPECT_EQ(v100.activeBlocksPerSm(128, 40 * 1024, 32), 2);
    // 128 registers x 256 threads = 32768: 2 blocks per 65536-register file.
    EXPECT_EQ(v100.activeBlocksPerSm(256, 0, 128), 2);
    // Blocks that cannot launch at all.
    EXPECT_EQ(v100.activeBlocksPerSm(2048, 0, 32), 0);
    EXPECT_EQ(v100.activeBlocksPerSm(128, 64 * 1024, 32), 0);
    EXPECT_EQ(v100.activeBlocksPerSm(1024, 0, 255), 0);
    EXPECT_EQ(v100.activeBlocksPerSm(0, 0, 32), 0);
    // Resident blocks by the SM's totals alone, for a block the cost model prices whether or not
    // it could launch: 64 KB of shared memory (over the 48 KB per block) still fits once in the
    // 96 KB of an SM; 2048 threads (over the block limit) = 64 warps, the SM's warp limit once.
    EXPECT_EQ(v100.residentBlocksPerSm(128, 64 * 1024), 1);
    EXPECT_EQ(v100.residentBlocksPerSm(2048, 0), 1);
    // H100: 544 threads = 17 warps, 2048 / 544 = 3 blocks; 64 KB each, 228 KB / 64 KB = 3.
    const GpuSpec h100 = GpuSpec::load("h100");
    EXPECT_EQ(h100.residentBlocksPerSm(544, 0), 3);
    EXPECT_EQ(h100.residentBlocksPerSm(64, 100 * 1024), 2);
    // Where a block can launch, the same count as activeBlocksPerSm.
    EXPECT_EQ(v100.residentBlocksPerSm(128, 40 * 1024, 32),
              v100.activeBlocksPerSm(128, 40 * 1024, 32));
    EXPECT_EQ(v100.residentBlocksPerSm(256, 0, 128), 2);
}

TEST(GpuSpec, LoadsAFilePath) {
    EXPECT_EQ(GpuSpec::load(BEAMSCOPE_SOURCE_DIR "/resources/gpus/a100.json").smCount, 108);
    TempDir dir;
    GpuSpec custom = GpuSpec::load("v100");
    custom.name = "my-gpu";
    custom.smCount = 40;
    const std::string path = dir.write("my-gpu.json", custom.toJson().dump(4));
    EXPECT_EQ(GpuSpec::load(path), custom);

    // description is optional.
    nlohmann::json noDescription = custom.toJson();
    noDescription.erase("description");
    EXPECT_EQ(GpuSpec::load(dir.write("plain.json", noDescription.dump())).description, "");
}

TEST(GpuSpec, RejectsMalformedFiles) {
    TempDir dir;
    const nlohmann::json good = GpuSpec::load("v100").toJson();

    nlohmann::json missing = good;
    missing.erase("sm_count");
    const std::string missingPath = dir.write("x.json", missing.dump());
    EXPECT_EQ(loadError(missingPath), "GPU file '" + missingPath + "': missing key 'sm_count'");

    nlohmann::json unknown = good;
    unknown["sm_cnt"] = 80;
    const std::string unknownMessage = loadError(dir.write("unknown.json", unknown.dump()));
    EXPECT_NE(unknownMessage.find("unknown key \"sm_cnt\""), std::string::npos) << unknownMessage;

    nlohmann::json negative = good;
    negative["warp_size"] = -32;
    const std::string negativeMessage = loadError(dir.write("negative.json", negative.dump()));
    EXPECT_NE(negativeMessage.find("key 'warp_size' must be positive, got -32"), std::string::npos)
        << negativeMessage;

    nlohmann::json negativeDouble = good;
    negativeDouble["kernel_launch_overhead_us"] = -1.5;
    const std::string negativeDoubleMessage =
        loadError(dir.write("negative2.json", negativeDouble.dump()));
    EXPECT_NE(negativeDoubleMessage.find("'kernel_launch_overhead_us' must be non-negative"),
              std::string::npos)
        << negativeDoubleMessage;

    nlohmann::json wrongType = good;
    wrongType["sm_count"] = "eighty";
    const std::string wrongTypeMessage = loadError(dir.write("type.json", wrongType.dump()));
    EXPECT_NE(wrongTypeMessage.find("key 'sm_count' must be an integer"), std::string::npos)
        << wrongTypeMessage;

    nlohmann::json fractional = good;
    fractional["sm_count"] = 80.5;
    EXPECT_NE(loadError(dir.write("frac.json", fractional.dump())).find("must be an integer"),
              std::string::npos);

    nlohmann::json inconsistent = good;
    inconsistent["shared_memory_per_block_bytes"] = 1 << 20;
    EXPECT_NE(loadError(dir.write("inc.json", inconsistent.dump())).find("inconsistent values"),
              std::string::npos);

    const std::string badJson = loadError(dir.write("bad.json", "{ \"sm_count\": "));
    EXPECT_NE(badJson.find("invalid JSON"), std::string::npos) << badJson;
    EXPECT_EQ(badJson.find('\n'), std::string::npos) << badJson;

    EXPECT_THROW(GpuSpec::fromJson(nlohmann::json::array()), Error);
}

TEST(GpuSpec, UnknownNameIsAUsageErrorListingPresets) {
    try {
        GpuSpec::load("p100");
        FAIL() << "did not throw";
    } catch (const UsageError &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("unknown GPU 'p100'"), std::string::npos) << message;
        EXPECT_NE(message.find("v100, a100, h100, h200, rtx4090, pocl-cpu"), std::string::npos)
            << message;
    }
    EXPECT_THROW(GpuSpec::load("/nonexistent/gpu.json"), UsageError);
}

TEST(GpuSpec, DumpListsEveryField) {
    std::ostringstream out;
    GpuSpec::defaultSpec().dump(out);
    const std::string text = out.str();
    EXPECT_EQ(text.rfind("GpuSpec\n", 0), 0u) << text;
    const nlohmann::json json = GpuSpec::defaultSpec().toJson();
    for (const auto &item : json.items()) {
        EXPECT_NE(text.find("  " + item.key() + ": "), std::string::npos) << item.key();
    }
    EXPECT_NE(text.find("  sm_count: 80\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  clock_ghz: 1.53\n"), std::string::npos) << text;
}

} // namespace
} // namespace beamscope
