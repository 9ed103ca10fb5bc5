// WorkerTask: what beamscope-worker does with one BenchJob, in its own process: build the
// pipeline fresh and schedule it (search schedule or baseline), lower it for CUDA and read
// ptxas's resource report (when asked), JIT-compile for the run target, run warm-up and timed
// repeats on deterministic inputs (device sync after each), compute the reference output on
// the CPU with a simple schedule, and compare. Runs OpenCL/CUDA code: call it only in the
// worker process, never in the tool (a driver crash must not take the tool down).
#pragma once

#include "measure/BenchJob.h"
#include "measure/Measurement.h"

namespace beamscope {

/// Runs `job`. Failures of the candidate (does not compile, run error, wrong output) are
/// returned in Measurement::failure; a malformed job throws Error. Honors job.inject (tests).
Measurement executeJob(const BenchJob &job);

/// Builds `job.source` fresh and applies the job's schedule or baseline for `target`; the
/// search time of a Halide autoscheduler goes to *searchMs. Throws Error.
PipelineInstance scheduledInstance(const BenchJob &job, const Halide::Target &target,
                                   double *searchMs = nullptr);

} // namespace beamscope
