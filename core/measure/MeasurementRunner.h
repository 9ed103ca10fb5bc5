// MeasurementRunner: where a batch of benchmark jobs runs. Two implementations: LocalRunner
// (compile on every core, measure on every identical device of this machine at once, one
// measurement per device at a time) and SlurmRunner (a job array on a Slurm cluster through a
// directory shared with it). Both turn every job into a Measurement — a failed one when the job
// failed, never an exception — and report progress as jobs pending/running/done per node.
#pragma once

#include "measure/BenchJob.h"
#include "measure/DeviceDetect.h"
#include "measure/Measurement.h"
#include "measure/WorkerRunner.h"
#include "measure/slurm/SlurmOptions.h"

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// Jobs of a batch on one node (a device of this machine, or a cluster node).
struct NodeProgress {
    std::string node; ///< "opencl:1", "gpu-node-07"; "(queue)" for jobs not placed yet
    int pending = 0;  ///< waiting (not started, or queued by Slurm)
    int running = 0;  ///< started (compiling or measuring)
    int done = 0;     ///< finished (failures included)
};

/// Where a batch is: one entry per node, in first-seen order.
struct RunnerProgress {
    std::vector<NodeProgress> nodes;
    int pending() const;
    int running() const;
    int done() const;
    /// "3 pending, 1 running, 4 done — opencl:0 1/0/2, opencl:1 0/1/2" (pending/running/done).
    std::string line() const;
    /// The entry of `node`, added when missing.
    NodeProgress &at(const std::string &node);
};

/// What a runner reports while it works; every call is serialized (one at a time).
struct RunnerCallbacks {
    std::function<void(size_t index)> onStart; ///< job `index` starts (compiling or queued)
    /// Job `index` finished: called as soon as its Measurement is known, so that a caller can
    /// record it before the batch ends (nothing collected is lost if the batch then fails).
    std::function<void(size_t index, const Measurement &)> onDone;
    std::function<void(const RunnerProgress &)> onProgress;
    std::function<void(const std::string &)> log; ///< human-readable lines (optional)
};

class MeasurementRunner {
public:
    virtual ~MeasurementRunner() = default;
    /// "local" or "slurm".
    virtual std::string name() const = 0;
    /// One line on where the jobs run ("2 devices: opencl:0, opencl:1").
    virtual std::string describe() const = 0;
    /// Runs `jobs` and returns their Measurements in job order. Jobs stopped by the cancel flag
    /// come back with failure kCancelledFailure. Throws Error only when the runner itself cannot
    /// go on (the cluster is unreachable, its directory vanished); every Measurement delivered
    /// through onDone before that stays valid.
    virtual std::vector<Measurement> run(const std::vector<BenchJob> &jobs,
                                         const RunnerCallbacks &callbacks) = 0;
};

enum class RunnerKind { Local, Slurm };

/// "local", "slurm"; throws UsageError otherwise.
RunnerKind parseRunnerKind(const std::string &text);
const char *runnerKindName(RunnerKind kind);

/// Everything that chooses and configures a runner.
struct RunnerOptions {
    RunnerKind kind = RunnerKind::Local;
    int jobs = 0;         ///< local: workers at once; 0: every core (at least one per device)
    WorkerOptions worker; ///< worker path and cancel flag
    SlurmOptions slurm;   ///< kind Slurm only
};

/// The runner for `device` (the detected device: the local runner uses every device identical
/// to it). Throws UsageError for incomplete Slurm options.
std::unique_ptr<MeasurementRunner> makeRunner(const RunnerOptions &options,
                                              const DeviceInfo &device);

} // namespace beamscope
