// What the core tests that drive the benchmark worker share: the worker built beside them, the
// OpenCL device check (PoCL is part of the test machine's set-up: no device is a failure, never
// a skip), a small stencil-chain job with the naive schedule, which runs in well under a
// second on PoCL, the same job with a searched (greedy) schedule, and one run of a given
// schedule checked against the CPU reference.
#pragma once

#include "measure/BenchJob.h"
#include "measure/DeviceDetect.h"
#include "measure/WorkerRunner.h"
#include "pipeline/PipelineSource.h"
#include "schedule/GpuSpec.h"
#include "schedule/ScheduleIO.h"
#include "search/SearchEngine.h"

#include <string>

namespace beamscope::testing {

/// The message of a test that finds no OpenCL device.
inline constexpr const char *kNoOpenCl =
    "no OpenCL device: PoCL is part of the test machine's set-up";

/// The beamscope-worker of this build (CMake passes its path).
inline WorkerOptions testWorker() {
    WorkerOptions options;
#ifdef BEAMSCOPE_TEST_WORKER
    options.workerPath = BEAMSCOPE_TEST_WORKER;
#endif
    return options;
}

/// Whether an OpenCL device is present (detected once per process).
inline bool haveOpenCl() {
    static const bool have = detectOpenClDevice().kind == DeviceKind::OpenCL;
    return have;
}

/// stencil_chain of length 2 at 64x48 with the naive schedule on host-opencl.
inline BenchJob smallChainJob(const std::string &label, int repeats, double timeoutS) {
    BenchJob job;
    job.label = label;
    job.source = {"stencil_chain", "", {"length=2", "width=64", "height=48"}};
    job.baseline = "naive";
    job.target = "host-opencl";
    job.repeats = repeats;
    job.timeoutS = timeoutS;
    return job;
}

/// `job` with the greedy schedule the search finds for it on the pocl-cpu model in place of its
/// baseline.
inline BenchJob withGreedySchedule(BenchJob job) {
    auto dag = std::make_shared<const FunctionDAG>(loadPipeline(job.source));
    SearchOptions options = SearchOptions::greedy();
    options.gpu = GpuSpec::load("pocl-cpu");
    SearchEngine engine(dag, options);
    engine.run();
    job.baseline.clear();
    job.schedule = scheduleToJson(*engine.best()->state);
    return job;
}

/// Runs `schedule` of `source` once through the worker on the OpenCL device, checked against
/// the CPU reference.
inline Measurement runOnOpenCl(const std::string &label, const PipelineSource &source,
                               const ScheduleState &schedule) {
    BenchJob job;
    job.label = label;
    job.source = source;
    job.schedule = scheduleToJson(schedule);
    job.target = "host-opencl";
    job.repeats = 1;
    job.timeoutS = 120;
    return runWorker(job, testWorker());
}

} // namespace beamscope::testing
