// SlurmRun: run()'s first two steps and what every step uses: the Run's batch directory, the
// local compile pass (1.), the jobs left to run, following an earlier run's jobs or submitting
// the others as a new array (2.), delivering a result (a crashed task triaged on this host first)
// and cancelling the arrays. The follow loop (3.) is in SlurmFollow.cpp.
#include "measure/slurm/SlurmRun.h"

#include "measure/ParallelWorkers.h"
#include "measure/ReferenceCheck.h"
#include "pipeline/PipelineSourceJson.h"
#include "util/Error.h"
#include "util/Hash.h"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <thread>

namespace beamscope {

namespace fs = std::filesystem;

SlurmRunner::Run::Run(SlurmRunner &runner, const std::vector<BenchJob> &jobs,
                      const RunnerCallbacks &callbacks)
    : m_runner(runner), m_options(runner.m_options), m_jobs(jobs), m_callbacks(callbacks),
      m_results(jobs.size()), m_have(jobs.size(), false),
      m_triage(runner.m_worker, runner.m_compileJobs > 0
                                    ? runner.m_compileJobs
                                    : std::max(1, int(std::thread::hardware_concurrency()))),
      m_compiled(jobs.size()), m_shipped(jobs) {
    fs::create_directories(m_options.dir);
    // The batch directory exists before the compile pass: the artifacts go into it.
    static int counter = 0;
    m_batch.dir = m_options.dir + "/batch-" + std::to_string(std::time(nullptr)) + "-" +
                  std::to_string(getpid()) + "-" + std::to_string(++counter);
    fs::create_directories(m_batch.dir);
}

SlurmRunner::Run::~Run() {
    std::error_code ec;
    if (m_batch.array == 0) fs::remove_all(m_batch.dir, ec);
}

void SlurmRunner::Run::deliver(size_t i, Measurement m) {
    m_results[i] = std::move(m);
    m_have[i] = true;
    if (m_callbacks.onDone) m_callbacks.onDone(i, m_results[i]);
}

void SlurmRunner::Run::settle(size_t i, Measurement m, bool crashed, const std::string &node) {
    if (crashed && m_runner.m_worker.triageCrashes && !cancelled()) {
        say("slurm: " + m_jobs[i].label + " crashed on " + (node.empty() ? "a node" : node) +
            "; triaging it on this host");
        m_triage.start(i, m_jobs[i], std::move(m), node);
    } else {
        deliver(i, std::move(m));
    }
}

void SlurmRunner::Run::deliverTriaged() {
    for (auto &[i, m] : m_triage.finished())
        deliver(i, std::move(m));
}

// Each candidate is AOT-compiled into BATCH/aot/N.so for its run target; the inputs and
// references it runs on go once per pipeline, size and scalar inputs into BATCH/data-HASH
// (AotArtifact.h). What does not compile never reaches the queue.
void SlurmRunner::Run::compileHere() {
    fs::create_directories(m_batch.dir + "/aot");
    for (size_t i = 0; i < m_shipped.size(); ++i) {
        BenchJob &job = m_shipped[i];
        job.aotTarget = job.target;
        job.aotLibrary = m_batch.dir + "/aot/" + std::to_string(i) + ".so";
        job.aotData = m_batch.dir + "/data-" + fnv1a64Hex(referenceKey(job) + "|" + job.target);
    }
    std::vector<BenchJob> compileOnly = m_shipped;
    for (BenchJob &job : compileOnly) {
        job.target.clear();
        job.deviceLock.clear();
    }
    ParallelOptions parallel;
    parallel.jobs = m_runner.m_compileJobs > 0
                        ? m_runner.m_compileJobs
                        : std::max(1, int(std::thread::hardware_concurrency()));
    parallel.worker = m_runner.m_worker;
    NodeProgress &local = m_progress.at("compile (here)");
    local.pending = int(m_jobs.size());
    parallel.onStart = [&](size_t, int) {
        NodeProgress &n = m_progress.at("compile (here)");
        --n.pending;
        ++n.running;
        if (m_callbacks.onProgress) m_callbacks.onProgress(m_progress);
    };
    parallel.onDone = [&](size_t, const Measurement &) {
        NodeProgress &n = m_progress.at("compile (here)");
        --n.running;
        ++n.done;
        if (m_callbacks.onProgress) m_callbacks.onProgress(m_progress);
    };
    m_compiled = runWorkersInParallel(compileOnly, parallel);
    for (size_t i = 0; i < m_jobs.size(); ++i) {
        if (m_compiled[i].failure == kCancelledFailure) {
            m_results[i] = m_compiled[i];
            m_have[i] = true;
        } else if (m_compiled[i].failed()) {
            Measurement m = m_compiled[i];
            m.target = m_jobs[i].target;
            deliver(i, m);
        }
    }
    m_progress.nodes.clear();
}

std::vector<size_t> SlurmRunner::Run::unfinished() {
    std::vector<size_t> todo;
    for (size_t i = 0; i < m_jobs.size(); ++i)
        if (!m_have[i]) todo.push_back(i);
    if (todo.empty() || cancelled()) {
        for (size_t i : todo) {
            m_results[i].label = m_jobs[i].label;
            m_results[i].failure = kCancelledFailure;
        }
    }
    return todo;
}

void SlurmRunner::Run::followEarlierOrSubmit(const std::vector<size_t> &todo) {
    m_pending = m_runner.attachQueued(m_jobs, todo, m_batches);
    if (!m_pending.empty())
        say("slurm: following " + std::to_string(m_pending.size()) +
            " job(s) submitted by an earlier run");
    std::vector<size_t> fresh;
    for (size_t i : todo) {
        bool attached = false;
        for (const Pending &p : m_pending)
            attached = attached || p.index == i;
        if (!attached) fresh.push_back(i);
    }
    if (!fresh.empty()) {
        std::vector<BenchJob> batchJobs;
        std::vector<std::string> hashes; // of the caller's jobs: what a resumed run looks for
        for (size_t t = 0; t < fresh.size(); ++t) {
            BenchJob job = m_shipped[fresh[t]];
            hashes.push_back(slurmJobHash(job));
            // The task runs in the batch directory: the user's files by absolute path.
            job.source = withAbsoluteFiles(job.source);
            job.referenceCache = m_batch.dir + "/reference.bin";
            // With a GRES the task owns its GPU; without one, tasks on a node take turns.
            job.deviceLock = m_options.gres.empty() ? "/tmp/beamscope-slurm-device.lock" : "";
            if (m_options.compileLocally) job.ptxCapability = 0; // reported by the local pass
            writeSlurmFile(m_batch.dir + "/" + std::to_string(t) + ".json",
                           job.toJson().dump() + "\n");
            batchJobs.push_back(job);
        }
        m_runner.submit(m_batch, batchJobs, hashes);
        say("slurm: submitted array job " + std::to_string(m_batch.array) + " (" +
            std::to_string(fresh.size()) + " tasks) from " + m_batch.dir);
        for (size_t t = 0; t < fresh.size(); ++t)
            m_pending.push_back(
                Pending{fresh[t], m_batch.dir, m_batch.array, int(t), 0, false, {}, 0});
        m_batches.push_back(m_batch);
    }
    for (const Pending &p : m_pending)
        if (m_callbacks.onStart) m_callbacks.onStart(p.index);
    for (const Batch &b : m_batches)
        m_arrays.push_back(b.array);
}

void SlurmRunner::Run::cancelAll() {
    for (auto &[i, m] : m_triage.abandon()) // crashed, not triaged: no verdict
        deliver(i, std::move(m));
    if (m_pending.empty()) return; // every task had ended: nothing to scancel
    m_runner.m_queue.cancel(m_arrays);
    // scancel returns before the controller has ended every task: wait (10 s at most) until
    // none is left pending or running, so that nothing stays queued behind us.
    for (int wait = 0; wait < 100; ++wait) {
        bool left = false;
        try {
            for (const SlurmTask &t : m_runner.m_queue.tasks(m_arrays))
                left = left || !t.finished();
        } catch (const Error &) {
        }
        if (!left) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::string ids;
    for (long a : m_arrays)
        ids += (ids.empty() ? "" : ",") + std::to_string(a);
    say("slurm: cancelled array job(s) " + ids);
    for (const Pending &p : m_pending) {
        m_results[p.index].label = m_jobs[p.index].label;
        m_results[p.index].failure = kCancelledFailure;
    }
}

} // namespace beamscope
