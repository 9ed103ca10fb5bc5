// GpuSpec: everything the search and the cost model know about the target device, with
// presets loaded from resources/gpus/*.json and occupancy/throughput helpers derived from it.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace beamscope {

/// Device parameters. JSON keys are the field names in snake_case (smCount -> "sm_count").
/// "SM" means a CUDA streaming multiprocessor or an OpenCL compute unit; "block" a CUDA thread
/// block or an OpenCL work-group; "warp" the SIMD group that executes in lock step.
///
/// Presets (resources/gpus/*.json): v100, a100, h100, h200, rtx4090 use published numbers; pocl-cpu
/// is the PoCL OpenCL CPU device the tests run on, and is an approximation, because a CPU has
/// no SMs, warps, banks or register file in the GPU sense: a compute unit is a core running one
/// work-group at a time, a "warp" is PoCL's preferred work-group multiple (8 = one AVX2 float
/// vector), local memory is ordinary cached memory (64 KB, 8 x 4-byte "banks" so that stride-1
/// vector access is conflict-free), and the register limits are set so they never bind.
struct GpuSpec {
    std::string name;           ///< Display name, e.g. "V100-SXM2-32GB".
    std::string description;    ///< Free text: model, sources of the numbers (optional).
    int smCount = 0;            ///< Number of SMs (compute units) on the device.
    int warpSize = 0;           ///< Threads per warp (SIMD width), threads.
    int maxThreadsPerBlock = 0; ///< Hardware limit on threads in one block, threads.
    int maxThreadsPerSm = 0;    ///< Resident thread limit per SM, threads.
    int maxWarpsPerSm = 0;      ///< Active (resident) warp limit per SM, warps.
    int maxBlocksPerSm = 0;     ///< Active (resident) block limit per SM, blocks.
    std::int64_t sharedMemoryPerBlockBytes = 0;      ///< Shared mem per block by default, bytes.
    std::int64_t sharedMemoryPerBlockOptinBytes = 0; ///< Shared mem per block with opt-in, bytes.
    std::int64_t sharedMemoryPerSmBytes = 0;         ///< Shared mem per SM (all blocks), bytes.
    int registersPerSm = 0;              ///< 32-bit registers in one SM's register file.
    int registersPerBlockMax = 0;        ///< 32-bit registers one block may use at most.
    int registersPerThreadMax = 0;       ///< 32-bit registers one thread may use at most.
    std::int64_t l2CacheBytes = 0;       ///< Device-wide last-level (L2) cache size, bytes.
    double globalMemoryBandwidthGBs = 0; ///< Peak DRAM bandwidth, GB/s (10^9 bytes per second).
    int globalTransactionBytes = 0;      ///< Global memory access granularity (sector), bytes.
    int sharedMemoryBanks = 0;           ///< Number of shared memory banks.
    int sharedBankWidthBytes = 0;        ///< Width of one shared memory bank, bytes.
    double clockGHz = 0;                 ///< SM clock used for peak numbers (boost), GHz.
    int fp32LanesPerSm = 0;              ///< FP32 FMA lanes per SM (CUDA cores per SM).
    double kernelLaunchOverheadUs = 0;   ///< Fixed cost of launching one kernel, microseconds.
    int computeCapability = 0;           ///< CUDA compute capability as 10*major+minor; 0: none.
    /// 1: a store stays in a write-back cache, so storing one location again is nearly free (a
    /// CPU's L1: PoCL); 0: every store goes through to L2 (NVIDIA's L1 is write-through).
    int storesWriteBack = 0;

    /// Peak FP32 throughput, GFLOP/s: SMs x lanes x 2 (an FMA is two flops) x clock.
    double peakGflops() const;
    /// Active warps the whole device can hold at once (smCount x maxWarpsPerSm).
    int maxActiveWarps() const;
    /// Active threads the whole device can hold at once (smCount x maxThreadsPerSm).
    int maxActiveThreads() const;
    /// Active blocks the whole device can hold at once (smCount x maxBlocksPerSm).
    int maxActiveBlocks() const;
    /// Global memory bytes the device can move per SM clock cycle (bandwidth / clock).
    double globalBytesPerClock() const;
    /// Shared memory bytes one SM can serve per clock without bank conflicts (banks x width).
    int sharedBytesPerClockPerSm() const;
    /// Machine balance (roofline ridge point): flops per global byte at which compute and
    /// bandwidth take equally long.
    double flopsPerByte() const;
    /// Warps a block of `threads` threads occupies (rounded up; 0 for threads <= 0).
    int warpsPerBlock(int threads) const;
    /// Blocks that can be resident on one SM at once given a block's threads, shared memory and
    /// registers per thread: the minimum over the warp, block, shared memory and register limits
    /// (allocation granularity ignored). 0 when one such block does not fit at all (more threads
    /// than maxThreadsPerBlock, more shared memory than sharedMemoryPerBlockBytes, ...).
    int activeBlocksPerSm(int threadsPerBlock, std::int64_t sharedBytesPerBlock,
                          int registersPerThread) const;
    /// The same minimum over the SM's limits without asking whether one such block fits at all
    /// (a block wider than maxThreadsPerBlock, or with more than sharedMemoryPerBlockBytes of
    /// shared memory, still counts by the SM's totals); 0 shared bytes or registers: no limit
    /// from them. What a cost model pricing a block it did not choose needs.
    int residentBlocksPerSm(int threadsPerBlock, std::int64_t sharedBytesPerBlock,
                            int registersPerThread = 0) const;
    /// Fraction of maxWarpsPerSm that is active with activeBlocksPerSm(...) blocks, in [0, 1].
    double occupancy(int threadsPerBlock, std::int64_t sharedBytesPerBlock,
                     int registersPerThread) const;

    /// Parses a spec; every key but "description" is required, unknown keys, wrong types and
    /// negative (or zero where meaningless) values throw Error prefixed with `source`.
    static GpuSpec fromJson(const nlohmann::json &json, const std::string &source = "GPU spec");
    /// The spec as JSON with snake_case keys; fromJson(toJson()) gives an equal spec.
    nlohmann::json toJson() const;
    /// A preset by name (case-insensitive, see presetNames()) or else a path to a .json file.
    /// Throws UsageError for a name that is neither, Error for an unreadable or invalid file.
    static GpuSpec load(const std::string &nameOrFile);
    /// Names of the built-in presets, in order: v100, a100, h100, h200, rtx4090, pocl-cpu.
    static std::vector<std::string> presetNames();
    /// The directory the presets are read from: share/beamscope/gpus relative to the running
    /// executable (installed or build tree, see util/InstallLayout.h). Throws Error if missing.
    static std::string presetDirectory();
    /// The paper's GPU (V100), loaded once.
    static GpuSpec defaultSpec();
    /// Prints every field ("key: value", snake_case, one per line) and the derived values.
    void dump(std::ostream &out) const;

    bool operator==(const GpuSpec &other) const = default;
};

} // namespace beamscope
