// SlurmCrashTriage: crash triage for the Slurm runner. A task whose program (beamscope-aot-runner
// with compile = local, beamscope-worker with compile = job) died by a signal on a node is
// triaged on the submit host, with the local beamscope-worker and CrashTriage's triageCrash —
// the same host run with bounds checks and the same kernel build alone as the local runner's
// triage, so the same verdict texts — in the background, so that the runner keeps following the
// queue meanwhile. The verdict goes into Measurement::crashVerdict and the failure text as the
// local runner writes them, with where the triage ran and where the task crashed in the evidence.
// A run that is cancelled records no verdict. docs/cluster.md argues why the submit host.
#pragma once

#include "measure/BenchJob.h"
#include "measure/CrashTriage.h"
#include "measure/Measurement.h"
#include "measure/WorkerRunner.h"
#include "measure/slurm/SlurmQueue.h"

#include <deque>
#include <future>
#include <string>
#include <utility>
#include <vector>

namespace beamscope {

/// The signal that killed the program of a task that wrote no status file, from Slurm's record
/// of it (squeue, or sacct's State and ExitCode): a FAILED task whose batch script exited with
/// 128+N (run.sh passes on how its program ended, as a shell does: 128+N for signal N), or that
/// Slurm reports ended by signal N. SIGKILL and SIGTERM are not crashes (a time limit, scancel,
/// preemption); neither is any other state. 0 when the task did not crash.
int slurmCrashSignal(const SlurmTask &task);

/// The failure of a task that crashed (slurmCrashSignal) without writing its result, in the
/// local runner's words: "crash: signal 11 (Segmentation fault) — no result file; slurm: ...".
std::string slurmCrashFailure(const SlurmTask &task, int signal);

/// The submit host's name (gethostname), "this host" when it has none.
std::string submitHostName();

/// Triages crashed tasks in the background, at most `parallel` at once.
class SlurmCrashTriage {
public:
    /// `worker`: the local beamscope-worker (workerPath, else defaultWorkerPath()), the device
    /// environment of the kernel build alone, and the run's cancel flag.
    SlurmCrashTriage(WorkerOptions worker, int parallel);
    SlurmCrashTriage(const SlurmCrashTriage &) = delete;
    SlurmCrashTriage &operator=(const SlurmCrashTriage &) = delete;
    /// Waits for the triages still running (the cancel flag ends them at once).
    ~SlurmCrashTriage();

    /// Queues the triage of `crashed`, the measurement of the caller's job `index` (`job`), whose
    /// task crashed on `node` ("" when Slurm never named it).
    void start(size_t index, const BenchJob &job, Measurement crashed, const std::string &node);
    /// The measurements whose triage ended since the last call, each with its verdict.
    std::vector<std::pair<size_t, Measurement>> finished();
    /// True when no triage is queued or running.
    bool idle() const { return m_running.empty() && m_queued.empty(); }
    /// The run was cancelled: waits for the running triages (cancelled with the run) and hands
    /// back every queued or running one's measurement without a verdict.
    std::vector<std::pair<size_t, Measurement>> abandon();

private:
    struct Item {
        size_t index = 0;
        BenchJob job;
        Measurement measurement;
        std::string node;
        std::future<CrashVerdict> verdict;
    };
    void launch();
    bool cancelled() const { return m_worker.cancel && m_worker.cancel->load(); }

    WorkerOptions m_worker;
    std::string m_workerPath; ///< the local beamscope-worker, "" when none was found
    std::string m_host;
    int m_parallel;
    std::deque<Item> m_queued;
    std::vector<Item> m_running;
};

} // namespace beamscope
