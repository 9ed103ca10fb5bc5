// BenchJob: the worker protocol. The parent writes one job as JSON to a file (or the worker's
// stdin); beamscope-worker builds the pipeline fresh, schedules it, compiles, runs and checks
// it, and prints one Measurement as a JSON line on stdout (see WorkerTask.h).
//
// Job JSON (every key but "pipeline" optional):
//   {"label": "beam#0", "predicted": 0.41,
//    "pipeline": {"app": "stencil_chain", "generator_lib": "", "params": ["length=4"],
//                 "estimates": ["output=0:256,0:256"], "inputs": ["amount=0.5"]},
//    "schedule": [...scheduleToJson...] | null, "baseline":
//    "naive|anderson2021|li2018|mullapudi2016", "gpu": {...GpuSpec JSON...}, "target":
//    "host-opencl" | "host-cuda-cuda_capability_NN" | "", "ptx_capability": 75,
//    "stage_producers": true, "warmup": 1,
//    "repeats": 5, "min_timed_ms": 10, "timeout_s": 120, "seed": 1, "int_max": 1023, "rtol": 1e-3,
//    "atol": 1e-3, "reference_cache": "/tmp/.../ref.bin", "device_lock": "/tmp/...lock", "inject":
//    "crash|hang|wrong|wrong-tile|error|skew-reference" (comma-separated)}
// "inject" is for TESTS ONLY: it makes the worker crash (SIGSEGV), hang, corrupt its output
// (one value, or a whole row: "wrong-tile") or fail with an error, so that the parent's handling
// of each can be tested; "skew-reference"
// makes the CPU reference differ from every device run (a float-sensitive pipeline).
#pragma once

#include "measure/TimedRuns.h"
#include "pipeline/PipelineSource.h"
#include "schedule/GpuSpec.h"
#include "schedule/UnrollLimit.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace beamscope {

struct BenchJob {
    std::string label;                                           ///< shown in reports
    double predicted = std::numeric_limits<double>::quiet_NaN(); ///< cost model, ms
    PipelineSource source;                                       ///< built fresh by the worker
    nlohmann::json schedule;    ///< scheduleToJson output; null: use `baseline`
    std::string baseline;       ///< baseline name when `schedule` is null
    GpuSpec gpu;                ///< parameters for Halide's autoschedulers
    std::string target;         ///< Halide target to run on; "": compile only
    int ptxCapability = 0;      ///< > 0: also lower for CUDA sm_NN and report ptxas resources
    bool stageProducers = true; ///< paper 4.7 register staging when applying `schedule`
    /// Unroll limit when applying `schedule` (UnrollLimit.h): this build's, or the legacy one
    /// to run a schedule as an earlier build lowered it (benchmarks/quality_old_new.sh).
    std::int64_t maxUnrolledPoints = kMaxUnrolledPoints;
    int warmup = 1;             ///< untimed runs first
    int repeats = 5;            ///< timed runs (median, min, max), at least
    /// More timed runs while they add up to less than this, up to kMaxTimedRuns (TimedRuns.h).
    double minTimedMs = kDefaultMinTimedMs;
    double timeoutS = 120;      ///< the parent kills the worker after this long
    std::uint64_t seed = 1;     ///< input generator seed
    std::int64_t intMax = 1023; ///< integer inputs of 16 bits and more lie in [0, intMax]
    double rtol = 1e-3;         ///< relative tolerance of float outputs
    double atol = 1e-3;         ///< absolute tolerance of float outputs (integers: 1)
    std::string referenceCache; ///< file to reuse reference outputs from (same pipeline+inputs)
    /// File locked (flock) around the device runs, so that workers compiling in parallel never
    /// measure on one device at the same time, across processes; "": no lock.
    std::string deviceLock;
    /// Shipping to a Slurm node (AotArtifact.h): with `target` empty, the worker AOT-compiles
    /// the scheduled pipeline for `aotTarget` into the shared object `aotLibrary` and writes the
    /// batch's inputs and references into `aotData`; beamscope-aot-runner then runs a job with
    /// `target` set from those files, without Halide. JSON: "aot": {"target", "library", "data"}.
    std::string aotTarget, aotLibrary, aotData;
    /// TEST ONLY: "crash", "hang", "wrong", "wrong-tile", "error", "skew-reference",
    /// "skew-contraction" (comma-separated)
    std::string inject;

    nlohmann::json toJson() const;
    /// Parses a job; throws Error naming the bad key.
    static BenchJob fromJson(const nlohmann::json &json);
};

} // namespace beamscope
