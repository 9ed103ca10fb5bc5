// SlurmRunner: measures a batch of jobs on a Slurm cluster. Each batch gets a directory under
// SlurmOptions::dir (shared with the nodes) holding one job file per task, the array script and
// a manifest (array job id, job hashes); it is submitted as one job array with sbatch --parsable
// and followed with squeue. A task writes its worker's Measurement and exit status into the
// directory; each is collected (onDone) as soon as it appears. A task that fails, times out or
// is preempted without a result is a failed Measurement carrying Slurm's state and reason. The
// cancel flag scancels the arrays; a resumed run finds jobs of an earlier run (same job JSON)
// still queued or finished in the directory and follows them instead of submitting them again.
#pragma once

#include "measure/MeasurementRunner.h"
#include "measure/slurm/SlurmAccounting.h"
#include "measure/slurm/SlurmQueue.h"

namespace beamscope {

class SlurmRunner : public MeasurementRunner {
public:
    /// `compileJobs`: local compilations at once (0: every core).
    SlurmRunner(SlurmOptions options, WorkerOptions worker, int compileJobs = 0);
    std::string name() const override { return "slurm"; }
    std::string describe() const override;
    std::vector<Measurement> run(const std::vector<BenchJob> &jobs,
                                 const RunnerCallbacks &callbacks) override;

private:
    struct Batch;
    struct Pending;
    class Run; ///< run()'s steps

    void submit(Batch &batch, const std::vector<BenchJob> &jobs,
                const std::vector<std::string> &hashes) const;
    std::vector<Pending> attachQueued(const std::vector<BenchJob> &jobs,
                                      const std::vector<size_t> &todo,
                                      std::vector<Batch> &batches) const;
    SlurmOptions m_options;
    WorkerOptions m_worker;
    int m_compileJobs;
    SlurmQueue m_queue;
    SlurmAccounting m_accounting; ///< final states of tasks squeue forgot
};

/// A job's identity across runs (hash of its JSON without the label): how resume recognises it.
std::string slurmJobHash(const BenchJob &job);

} // namespace beamscope
