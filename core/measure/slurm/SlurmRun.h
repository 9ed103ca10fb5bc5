// SlurmRun: SlurmRunner's private parts, shared by the files that hold its steps: a batch
// directory and a pending task, the Run (one call of run(): the steps it takes in order and the
// state they share), and the batch directory's files. Included by core/measure/slurm/*.cpp only.
#pragma once

#include "measure/slurm/SlurmCrashTriage.h"
#include "measure/slurm/SlurmRunner.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace beamscope {

struct SlurmRunner::Batch {
    std::string dir;
    long array = 0;
};

struct SlurmRunner::Pending {
    size_t index = 0; ///< into the caller's jobs
    std::string dir;  ///< the batch directory holding its files
    long array = 0;
    int task = 0;
    int polls = 0; ///< polls since squeue reported it finished (or stopped reporting it)
    bool seen = false;
    std::string node; ///< the node squeue last placed it on
    long jobId = 0;   ///< its own job id, once squeue listed it alone (for sacct --completion)
};

/// One call of run(): the steps it takes in order and the state they share.
class SlurmRunner::Run {
public:
    Run(SlurmRunner &runner, const std::vector<BenchJob> &jobs, const RunnerCallbacks &callbacks);
    /// A batch nothing was submitted from leaves no directory behind.
    ~Run();

    /// 1. AOT-compiles every job here into the batch directory; what fails is delivered.
    void compileHere();
    /// The jobs without a result yet; when the run is cancelled, marks them cancelled.
    std::vector<size_t> unfinished();
    /// 2. Follows the jobs an earlier run left queued (or finished) in the directory, and
    /// submits the others as one new array.
    void followEarlierOrSubmit(const std::vector<size_t> &todo);
    /// 3. Follows the arrays until every task has a result (or the run is cancelled).
    std::vector<Measurement> follow();
    bool cancelled() const { return m_runner.m_worker.cancel && m_runner.m_worker.cancel->load(); }
    std::vector<Measurement> &results() { return m_results; }

private:
    void say(const std::string &line) const {
        if (m_callbacks.log) m_callbacks.log(line);
    }
    void deliver(size_t i, Measurement m);
    /// A task whose program died by a signal is triaged on this host before it is delivered.
    void settle(size_t i, Measurement m, bool crashed, const std::string &node);
    void deliverTriaged();
    /// scancels the arrays and waits until none of their tasks is left; the pending jobs are
    /// cancelled rows, the crashed ones not yet triaged are delivered without a verdict.
    void cancelAll();
    /// The task states squeue reports; false while the queue cannot be read (given up on after
    /// kLostAfterFailures polls in a row).
    bool readQueue(std::map<std::pair<long, int>, SlurmTask> &states);
    /// One poll: collects the results that arrived, and turns tasks that ended without one
    /// into failures (from squeue's state, else from Slurm's accounting); updates progress.
    void poll();
    /// `p`'s result from its files, with what the local compile pass reported; false while
    /// there is none yet.
    bool collect(const Pending &p, RunnerProgress &now);
    /// Tasks squeue no longer lists and that left no result: their final states from Slurm's
    /// accounting, as failures.
    void settleLost(const std::vector<Pending *> &lost, RunnerProgress &now);
    /// Adds this poll's per-node counts to the run's progress and reports it.
    void addProgress(const RunnerProgress &now);

    SlurmRunner &m_runner;
    const SlurmOptions &m_options;
    const std::vector<BenchJob> &m_jobs;
    const RunnerCallbacks &m_callbacks;
    std::vector<Measurement> m_results;
    std::vector<bool> m_have;
    RunnerProgress m_progress;
    SlurmCrashTriage m_triage;
    Batch m_batch;                       ///< this run's new batch (array 0 until submitted)
    std::vector<Measurement> m_compiled; ///< the local compile pass's rows
    std::vector<BenchJob> m_shipped;     ///< the jobs as the nodes run them
    std::vector<Batch> m_batches;        ///< every batch followed (an earlier run's too)
    std::vector<Pending> m_pending;
    std::vector<long> m_arrays;
    int m_failures = 0; ///< squeue failures in a row
};

/// A file of a batch directory as text ("" when it cannot be read).
std::string readSlurmFile(const std::string &path);
/// Writes a batch directory's file whole (through PATH.part, renamed); throws Error.
void writeSlurmFile(const std::string &path, const std::string &text);

} // namespace beamscope
