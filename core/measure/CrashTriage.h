// CrashTriage: when a benchmark worker dies by a signal, tells a schedule error from a toolchain
// crash. The candidate is run once more, in a triage worker: the same schedule (same Funcs,
// compute locations, splits and loop order) with its GPU loops made serial host loops, compiled
// for the host CPU with Halide's assertions on (bounds checks of every input and output) and
// run on the same inputs; its output is compared with the CPU reference. Then its device kernel
// source (OpenCL C) is built alone by clBuildProgram in a process of its own. The verdict:
//   - the host run fails a bounds assertion     -> "schedule reads out of bounds"
//   - the host run computes other values        -> "schedule computes wrong values"
//   - the host run, once compiled, crashes too  -> "schedule crashes on the host too"
//   - host correct, the build alone crashes     -> "device compiler crashed"
//   - host correct, the kernels build alone     -> "device toolchain crashed" (in the device
//     run, or a target whose kernels cannot be built alone)
//   - anything else (the triage crashed too, a compile error, ...) -> "unknown"
#pragma once

#include "measure/BenchJob.h"
#include "measure/Measurement.h"
#include "util/Subprocess.h"
#include "pipeline/PipelineInstance.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace beamscope {

inline constexpr const char *kVerdictOutOfBounds = "schedule reads out of bounds";
inline constexpr const char *kVerdictWrongValues = "schedule computes wrong values";
inline constexpr const char *kVerdictHostCrash = "schedule crashes on the host too";
inline constexpr const char *kVerdictCompilerCrash = "device compiler crashed";
inline constexpr const char *kVerdictToolchainCrash = "device toolchain crashed";
inline constexpr const char *kVerdictUnknown = "unknown";

/// A triage's verdict (one of the kVerdict* texts) and the evidence for it, one line.
struct CrashVerdict {
    std::string verdict;
    std::string detail;
};

/// Makes every GPU block, thread and lane loop of every Func reachable from `instance`'s outputs
/// (wrappers made by Func::in included) a serial host loop, and GPU shared or register storage
/// automatic: the same loop nest, runnable on a target without a GPU feature.
void moveGpuLoopsToHost(const PipelineInstance &instance);

/// Worker side (beamscope-worker --triage JOB KERNEL_FILE): runs `job`'s schedule on the host
/// as the file comment says and reports each finding as it is made, by calling `report` with a
/// JSON object: {"host_compiled": true} once the host code is compiled, {"host_ran": true} once
/// it ran, then {"host":
/// "correct"|"wrong"|"error", "host_detail": "..."}, then
/// {"kernel": "written"|"none"|"error", "kernel_detail": "..."} after writing the device kernel
/// source (OpenCL only) to `kernelFile`. Throws Error for a malformed job.
void triageOnHost(const BenchJob &job, const std::string &kernelFile,
                  const std::function<void(const nlohmann::json &)> &report);

/// The verdict from a triage run's findings (triageOnHost's JSON objects, merged), how that run
/// ended, and `buildAlone`, which builds the written kernels alone in a process of its own and
/// is called only when the host run was correct and kernels were written.
CrashVerdict crashVerdictOf(const nlohmann::json &findings, const ProcessResult &triage,
                            const std::function<ProcessResult()> &buildAlone, double timeoutS);

/// Parent side: triages the crash of `job` with `worker` (triage run, then the kernel build
/// alone, each in a process of its own with the job's time limit, at least 60 s). Never throws.
CrashVerdict triageCrash(const BenchJob &job, const std::string &worker,
                         const std::vector<std::string> &environment,
                         const std::atomic<bool> *cancel);

} // namespace beamscope
