// WorkerRunner: the parent side of the worker protocol. Writes a BenchJob to a temporary
// file, runs beamscope-worker on it in its own process group (posix_spawn) with the job's
// time limit, and turns every way it can end — result, crash (signal), hang (timeout: the
// group is killed), error exit, wrong output, cancellation by the caller — into a Measurement.
// A crash is triaged (CrashTriage.h): the Measurement's crashVerdict says whether the schedule
// or the device toolchain is at fault.
// Never throws for a failed candidate, so a benchmark run goes on.
#pragma once

#include "measure/BenchJob.h"
#include "measure/Measurement.h"
#include "util/Subprocess.h"

#include <atomic>
#include <string>
#include <vector>

namespace beamscope {

struct WorkerOptions {
    std::string workerPath;    ///< beamscope-worker; empty: defaultWorkerPath()
    bool keepJobFiles = false; ///< leave the job file in TMPDIR (debugging)
    /// Set from any thread to kill the running worker at once (nullptr: never); the result is
    /// then a Measurement with failure kCancelledFailure.
    const std::atomic<bool> *cancel = nullptr;
    /// "NAME=value" entries for the worker's environment (the device it runs on: e.g.
    /// CUDA_VISIBLE_DEVICES=1, or HL_OCL_PLATFORM_NAME and HL_GPU_DEVICE for OpenCL).
    std::vector<std::string> environment = {};
    /// When the worker dies by a signal, run CrashTriage on the candidate (a host run and the
    /// kernel build alone, each in a worker of its own) and record its verdict.
    bool triageCrashes = true;
};

/// The failure of a Measurement whose worker was killed because WorkerOptions::cancel was set.
inline constexpr const char *kCancelledFailure = "cancelled";

/// beamscope-worker next to the running executable (installed layout), else in ../worker/
/// (the build tree: app/cli and app/worker); "" when neither exists.
std::string defaultWorkerPath();

/// Runs `job` in a worker and returns its Measurement (failure set when it did not succeed).
Measurement runWorker(const BenchJob &job, const WorkerOptions &options = {});

/// The Measurement of a worker that ran `job` and ended as `run` says (its stdout, stderr and
/// how it ended): the worker's result, or a failure — cancelled, hang, crash with the signal and
/// the last line of stderr, the worker's own error, or its exit status. runWorker uses it on
/// its child; the Slurm runner on a task's output files and exit status.
Measurement workerMeasurement(const BenchJob &job, const ProcessResult &run);

} // namespace beamscope
