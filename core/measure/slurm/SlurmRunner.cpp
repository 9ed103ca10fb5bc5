// Contents: job hashes; batch directories (array script, manifest) and submission; attaching
// to an earlier run's queued jobs; Run, run()'s steps in order: 1. the local compile pass,
// 2. following an earlier run's jobs or submitting job files as a new array, 3. the follow loop
// (each poll collects results, turns finished tasks without one into failures, from squeue or
// Slurm's accounting, and adds per-node progress; cancel; lost controller or directory); a
// task's result read by WorkerRunner's workerMeasurement; crashed tasks handed to
// SlurmCrashTriage and delivered with its verdict.
#include "measure/slurm/SlurmRunner.h"

#include "measure/DeviceLock.h"
#include "measure/ParallelWorkers.h"
#include "measure/ReferenceCheck.h"
#include "measure/slurm/SlurmCrashTriage.h"
#include "pipeline/PipelineSourceJson.h"
#include "util/Error.h"
#include "util/Hash.h"
#include "util/Subprocess.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace beamscope {

namespace fs = std::filesystem;

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

namespace {

constexpr int kLostAfterFailures = 3; ///< consecutive squeue failures before giving up
constexpr int kGracePolls = 3;        ///< polls a finished task's result may lag (NFS)

std::string readFile(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeFile(const std::string &path, const std::string &text) {
    const std::string temp = path + ".part";
    {
        std::ofstream out(temp);
        out << text;
        if (!out) throw Error("slurm: cannot write " + path);
    }
    fs::rename(temp, path);
}

std::string quote(const std::string &s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

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
    run.out = readFile(base + ".out");
    // The runner's announced waits for the node's device lock are not its error output.
    run.err = withoutLines(readFile(base + ".err"), kDeviceLockWaitLine, kDeviceLockHeldLine);
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

/// sbatch --time from the job's limit: twice the worker's limit, at least 2 minutes.
std::string timeLimit(double timeoutS) {
    return std::to_string(std::max(2, int(std::ceil(2 * timeoutS / 60.0))));
}

} // namespace

std::string slurmJobHash(const BenchJob &job) {
    nlohmann::json json = job.toJson();
    for (const char *key :
         {"label", "predicted", "reference_cache", "device_lock", "timeout_s", "aot"})
        json.erase(key);
    return fnv1a64Hex(json.dump());
}

SlurmRunner::SlurmRunner(SlurmOptions options, WorkerOptions worker, int compileJobs)
    : m_options(std::move(options)), m_worker(std::move(worker)), m_compileJobs(compileJobs) {
    if (m_options.dir.empty())
        throw UsageError("--runner slurm needs a directory shared with the cluster (--slurm-dir)");
    if (m_options.worker.empty())
        m_options.worker = m_worker.workerPath.empty() ? defaultWorkerPath() : m_worker.workerPath;
    if (m_options.worker.empty()) throw UsageError("slurm: no beamscope-worker to run on nodes");
    m_options.worker = fs::absolute(m_options.worker).string();
    if (m_options.aotRunner.empty()) { // beside the worker (install), else the build tree's
        const fs::path dir = fs::path(m_options.worker).parent_path();
        m_options.aotRunner = (dir / "beamscope-aot-runner").string();
        const fs::path built = dir / ".." / "aot-runner" / "beamscope-aot-runner";
        if (!isExecutableFile(m_options.aotRunner) && isExecutableFile(built.string()))
            m_options.aotRunner = built.lexically_normal().string();
    }
    m_options.aotRunner = fs::absolute(m_options.aotRunner).string();
    m_options.dir = fs::absolute(m_options.dir).string();
}

std::string SlurmRunner::describe() const {
    std::string text = "Slurm job arrays in " + m_options.dir;
    if (!m_options.partition.empty()) text += ", partition " + m_options.partition;
    if (!m_options.gres.empty()) text += ", --gres=" + m_options.gres;
    text += m_options.compileLocally ? ", compiled here and shipped" : ", compiled in the job";
    return text;
}

void SlurmRunner::submit(Batch &batch, const std::vector<BenchJob> &jobs,
                         const std::vector<std::string> &hashes) const {
    const double limit = jobs.empty() ? 120 : jobs.front().timeoutS;
    std::ostringstream script;
    script << "#!/bin/sh\n"
           << "# Beamscope measurement jobs: one array task per job file (SlurmRunner).\n"
           << "t=${SLURM_ARRAY_TASK_ID:?not an array task}\n"
           << "d=" << quote(batch.dir) << "\n"
           << "timeout -s KILL " << int(std::ceil(limit)) << " "
           << quote(m_options.compileLocally ? m_options.aotRunner : m_options.worker)
           << " \"$d/$t.json\" >\"$d/$t.out\" 2>\"$d/$t.err\"\n"
           << "rc=$?\n"
           << "echo $rc >\"$d/$t.status.part\" && mv \"$d/$t.status.part\" \"$d/$t.status\"\n"
           << "exit $rc\n";
    writeFile(batch.dir + "/run.sh", script.str());
    fs::permissions(batch.dir + "/run.sh", fs::perms::owner_all, fs::perm_options::add);

    std::vector<std::string> args{
        "--job-name=beamscope",
        "--array=0-" + std::to_string(jobs.size() - 1) +
            (m_options.maxParallel > 0 ? "%" + std::to_string(m_options.maxParallel) : ""),
        "--output=" + batch.dir + "/slurm-%a.log", "--chdir=" + batch.dir,
        "--time=" + (m_options.time.empty() ? timeLimit(limit) : m_options.time)};
    if (!m_options.partition.empty()) args.push_back("--partition=" + m_options.partition);
    if (!m_options.account.empty()) args.push_back("--account=" + m_options.account);
    if (!m_options.gres.empty()) args.push_back("--gres=" + m_options.gres);
    args.insert(args.end(), m_options.options.begin(), m_options.options.end());
    args.push_back(batch.dir + "/run.sh");
    batch.array = m_queue.submit(args);

    nlohmann::json manifest = {{"array_job_id", batch.array}, {"jobs", nlohmann::json::array()}};
    for (size_t t = 0; t < jobs.size(); ++t)
        manifest["jobs"].push_back({{"task", t}, {"hash", hashes[t]}});
    writeFile(batch.dir + "/manifest.json", manifest.dump(1) + "\n");
}

std::vector<SlurmRunner::Pending> SlurmRunner::attachQueued(const std::vector<BenchJob> &jobs,
                                                            const std::vector<size_t> &todo,
                                                            std::vector<Batch> &batches) const {
    struct Known {
        std::string dir;
        long array;
        int task;
    };
    std::map<std::string, Known> known;
    std::vector<long> arrays;
    std::error_code ec;
    for (const fs::directory_entry &entry : fs::directory_iterator(m_options.dir, ec)) {
        const nlohmann::json manifest = nlohmann::json::parse(
            readFile(entry.path().string() + "/manifest.json"), nullptr, false);
        if (!manifest.is_object() || !manifest.contains("jobs")) continue;
        const long array = manifest.value("array_job_id", 0L);
        arrays.push_back(array);
        for (const nlohmann::json &j : manifest["jobs"])
            known[j.value("hash", std::string())] = {entry.path().string(), array,
                                                     j.value("task", 0)};
    }
    std::vector<Pending> attached;
    if (known.empty()) return attached;
    std::map<std::pair<long, int>, SlurmTask> states;
    for (const SlurmTask &t : m_queue.tasks(arrays))
        states[{t.arrayJob, t.task}] = t;
    for (size_t i : todo) {
        auto it = known.find(slurmJobHash(jobs[i]));
        if (it == known.end()) continue;
        const Known &k = it->second;
        const bool hasResult = fs::exists(k.dir + "/" + std::to_string(k.task) + ".status");
        auto state = states.find({k.array, k.task});
        const bool queued = state != states.end() && !state->second.finished();
        if (!hasResult && !queued) continue;
        attached.push_back(Pending{i, k.dir, k.array, k.task, 0, false, {}, 0});
        bool listed = false;
        for (const Batch &b : batches)
            listed = listed || b.array == k.array;
        if (!listed) batches.push_back(Batch{k.dir, k.array});
    }
    return attached;
}

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
            writeFile(m_batch.dir + "/" + std::to_string(t) + ".json", job.toJson().dump() + "\n");
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

std::vector<Measurement> SlurmRunner::run(const std::vector<BenchJob> &jobs,
                                          const RunnerCallbacks &callbacks) {
    Run run(*this, jobs, callbacks);
    if (m_options.compileLocally && !jobs.empty()) run.compileHere();
    const std::vector<size_t> todo = run.unfinished();
    if (todo.empty() || run.cancelled()) return run.results();
    run.followEarlierOrSubmit(todo);
    return run.follow();
}

} // namespace beamscope
