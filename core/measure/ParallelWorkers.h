// ParallelWorkers: runs many bench jobs at once, one worker process each, so that compilation
// (Halide lowering and LLVM, the bulk of a job) uses every core while the device runs stay one
// at a time: every job carries the device's lock file (BenchJob::deviceLock), which a worker
// holds only around its warm-up and timed runs. The lock is a file, so two Beamscope processes
// (a CLI tune and the GUI) never measure on one device at once either. With several devices
// (DeviceList), each job is pinned as it starts to the device with the fewest jobs in flight:
// its lock file and the environment that selects it in the worker.
#pragma once

#include "measure/BenchJob.h"
#include "measure/DeviceDetect.h"
#include "measure/DeviceList.h"
#include "measure/Measurement.h"
#include "measure/WorkerRunner.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace beamscope {

/// The lock file of `device`, the same for every process of this user on this machine.
std::string deviceLockPath(const DeviceInfo &device);

/// How many jobs to run at once on `device`: every core for a GPU; one when the device is the
/// CPU itself (PoCL), where a compilation beside a measurement would slow the measurement.
int defaultParallelJobs(const DeviceInfo &device);

struct ParallelOptions {
    int jobs = 1;         ///< workers at once (at least 1)
    WorkerOptions worker; ///< worker path and cancel flag
    /// Devices to spread the jobs over (empty: the jobs' own deviceLock, the default device).
    std::vector<DeviceSlot> devices;
    /// Called (serialized: one call at a time, from a pool thread) as each job starts (with the
    /// index of its device in `devices`, -1 when none) / ends.
    std::function<void(size_t index, int device)> onStart;
    std::function<void(size_t index, const Measurement &)> onDone;
};

/// Runs `jobs` with up to options.jobs workers at once and returns their Measurements in job
/// order. A worker waiting for the device lock waits at most (jobs - 1) x its own time limit,
/// so each job's limit is stretched by that factor. Jobs not started when the cancel flag is
/// set come back with failure kCancelledFailure.
std::vector<Measurement> runWorkersInParallel(const std::vector<BenchJob> &jobs,
                                              const ParallelOptions &options);

} // namespace beamscope
