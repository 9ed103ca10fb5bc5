// SlurmFollow: run()'s third step, the follow loop. Each poll reads squeue, collects the
// results that arrived (a task's files read as WorkerRunner reads a local worker), turns tasks
// that ended without one into failures (from squeue's state, else from Slurm's accounting) and
// adds the per-node progress; the loop ends when every task has a result, or cancels the arrays
// when the run is cancelled, and stops on a lost controller or directory.
#include "measure/slurm/SlurmRun.h"

#include "measure/DeviceLock.h"
#include "measure/WorkerRunner.h"
#include "util/Error.h"
#include "util/Subprocess.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

namespace beamscope {

namespace fs = std::filesystem;

namespace {

constexpr int kLostAfterFailures = 3; ///< consecutive squeue failures before giving up
constexpr int kGracePolls = 3;        ///< polls a finished task's result may lag (NFS)

/// A task's Measurement from its files, or nullopt while its status file is not there yet. The
/// array script's exit status stands for how the worker ended (137: killed by `timeout -s KILL`
/// at the job's limit; above 128: a signal), read as WorkerRunner reads a local worker.
/// `crashed` tells whether the task's program died by a signal (a time limit's kill is not one).
std::optional<Measurement> readResult(const std::string &dir, int task, const BenchJob &job,
                                      bool &crashed) {
    const std::string base = dir + "/" + std::to_string(task);
    std::ifstream statusFile(base + ".status");
    int status = 0;
    if (!(statusFile >> status)) return std::nullopt;
    ProcessResult run;
    run.out = readSlurmFile(base + ".out");
    // The runner's announced waits for the node's device lock are not its error output.
    run.err = withoutLines(readSlurmFile(base + ".err"), kDeviceLockWaitLine, kDeviceLockHeldLine);
    if (status == 128 + 9) {
        run.timedOut = true;
        run.signal = 9;
    } else if (status > 128) {
        run.signal = status - 128;
    } else {
        run.exitCode = status;
    }
    Measurement m = workerMeasurement(job, run);
    if (m.target.empty()) m.target = job.target;
    crashed = run.signal != 0 && !run.timedOut;
    return m;
}

} // namespace

std::vector<Measurement> SlurmRunner::Run::follow() {
    const auto pollEvery = std::chrono::duration<double>(m_options.pollS);
    while (!m_pending.empty() || !m_triage.idle()) {
        if (cancelled()) {
            cancelAll();
            return m_results;
        }
        deliverTriaged();
        if (m_pending.empty()) { // only triages left
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            continue;
        }
        for (const Batch &b : m_batches)
            if (!fs::exists(b.dir)) throw Error("slurm: the job directory " + b.dir + " vanished");
        poll();
        if (m_pending.empty() && m_triage.idle()) break;
        const auto until = std::chrono::steady_clock::now() + pollEvery;
        while (std::chrono::steady_clock::now() < until && !cancelled())
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return m_results;
}

bool SlurmRunner::Run::readQueue(std::map<std::pair<long, int>, SlurmTask> &states) {
    try {
        for (const SlurmTask &t : m_runner.m_queue.tasks(m_arrays))
            states[{t.arrayJob, t.task}] = t;
        m_failures = 0;
    } catch (const Error &e) {
        if (++m_failures >= kLostAfterFailures)
            throw Error("slurm: lost contact with the cluster (" + std::string(e.what()) + ")");
    }
    return m_failures == 0;
}

bool SlurmRunner::Run::collect(const Pending &p, RunnerProgress &now) {
    bool crashed = false;
    std::optional<Measurement> m = readResult(p.dir, p.task, m_jobs[p.index], crashed);
    if (!m) return false;
    const Measurement &local = m_compiled[p.index];
    if (m->registers < 0) m->registers = local.registers;
    if (m->spillBytes < 0) m->spillBytes = local.spillBytes;
    if (m->kernels.empty()) m->kernels = local.kernels;
    if (m->ptxArch.empty()) m->ptxArch = local.ptxArch;
    // A shipped artifact was compiled here: its compile time is the local one.
    if (!std::isfinite(m->compileMs)) m->compileMs = local.compileMs;
    settle(p.index, std::move(*m), crashed, p.node);
    ++now.at(p.node.empty() ? "(queue)" : p.node).done;
    return true;
}

void SlurmRunner::Run::poll() {
    std::map<std::pair<long, int>, SlurmTask> states;
    const bool queueKnown = readQueue(states);
    RunnerProgress now;
    std::vector<Pending> still;
    std::vector<Pending *> lost; // gone from squeue without a result: ask sacct
    for (Pending &p : m_pending) {
        auto state = states.find({p.array, p.task});
        if (state != states.end() && !state->second.node.empty()) p.node = state->second.node;
        if (state != states.end() && state->second.jobId != 0) p.jobId = state->second.jobId;
        const std::string node = p.node.empty() ? "(queue)" : p.node;
        if (collect(p, now)) continue;
        if (queueKnown) {
            if (state != states.end()) p.seen = true;
            const bool gone = state == states.end() || state->second.finished();
            p.polls = gone ? p.polls + 1 : 0;
            if (gone && p.polls > kGracePolls && state == states.end()) {
                lost.push_back(&p);
                continue;
            }
            if (gone && p.polls > kGracePolls) {
                Measurement m;
                m.label = m_jobs[p.index].label;
                m.predicted = m_jobs[p.index].predicted;
                m.target = m_jobs[p.index].target;
                m.failure = "slurm: " + state->second.describe();
                const int signal = slurmCrashSignal(state->second);
                if (signal != 0) m.failure = slurmCrashFailure(state->second, signal);
                settle(p.index, std::move(m), signal != 0, p.node);
                ++now.at(node).done;
                continue;
            }
        }
        const bool running =
            state != states.end() && state->second.state != "PENDING" && !state->second.finished();
        ++(running ? now.at(node).running : now.at(node).pending);
        still.push_back(p);
    }
    if (!lost.empty()) settleLost(lost, now);
    addProgress(now);
    m_pending.swap(still);
}

void SlurmRunner::Run::settleLost(const std::vector<Pending *> &lost, RunnerProgress &now) {
    // Past MinJobAge the controller forgets finished tasks: their final state comes from
    // Slurm's accounting (storage or completion log) where the cluster keeps one.
    SlurmJobIds ids;
    for (const Pending &p : m_pending)
        if (p.jobId != 0) ids[p.jobId] = {p.array, p.task};
    std::map<std::pair<long, int>, SlurmTask> finals;
    for (const SlurmTask &t : m_runner.m_accounting.finalStates(m_arrays, ids))
        finals[{t.arrayJob, t.task}] = t;
    const std::string accounting = m_runner.m_accounting.describe();
    for (Pending *p : lost) {
        Measurement m;
        m.label = m_jobs[p->index].label;
        m.predicted = m_jobs[p->index].predicted;
        m.target = m_jobs[p->index].target;
        auto final = finals.find({p->array, p->task});
        m.failure =
            final != finals.end()
                ? "slurm: " + final->second.describe() + " (from " + accounting + ")"
                : "slurm: the job left the queue without a result (accounting: " + accounting + ")";
        const int signal = final != finals.end() ? slurmCrashSignal(final->second) : 0;
        if (signal != 0)
            m.failure = slurmCrashFailure(final->second, signal) + " (from " + accounting + ")";
        const std::string node = !p->node.empty()        ? p->node
                                 : final != finals.end() ? final->second.node
                                                         : std::string();
        settle(p->index, std::move(m), signal != 0, node);
        ++now.at(p->node.empty() ? "(queue)" : p->node).done;
    }
}

void SlurmRunner::Run::addProgress(const RunnerProgress &now) {
    for (const NodeProgress &n : now.nodes) { // keep counts of earlier polls' done tasks
        NodeProgress &total = m_progress.at(n.node);
        total.pending = n.pending;
        total.running = n.running;
        total.done += n.done;
    }
    for (NodeProgress &n : m_progress.nodes) {
        bool present = false;
        for (const NodeProgress &x : now.nodes)
            present = present || x.node == n.node;
        if (!present) n.pending = n.running = 0;
    }
    if (m_callbacks.onProgress) m_callbacks.onProgress(m_progress);
}

} // namespace beamscope
