// Contents: a crash's signal from Slurm's record of a task; the failure text of a task that
// crashed without a result; background triages on the submit host (std::async, each calling
// triageCrash) and the verdict written into the measurement as WorkerRunner writes it.
#include "measure/slurm/SlurmCrashTriage.h"

#include "util/Subprocess.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>

namespace beamscope {

int slurmCrashSignal(const SlurmTask &task) {
    if (task.state != "FAILED") return 0;
    int signal = 0;
    if (task.exitStatus > 128 && task.exitStatus < 128 + 65)
        signal = task.exitStatus - 128;
    else if (task.signal != 0)
        signal = task.signal;
    return signal == SIGKILL || signal == SIGTERM ? 0 : signal;
}

std::string slurmCrashFailure(const SlurmTask &task, int signal) {
    ProcessResult end;
    end.signal = signal;
    return "crash: " + end.describeEnd(0) + " — no result file; slurm: " + task.describe();
}

std::string submitHostName() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "this host";
    return name;
}

SlurmCrashTriage::SlurmCrashTriage(WorkerOptions worker, int parallel)
    : m_worker(std::move(worker)), m_host(submitHostName()), m_parallel(std::max(1, parallel)) {
    m_workerPath = m_worker.workerPath.empty() ? defaultWorkerPath() : m_worker.workerPath;
    if (!m_workerPath.empty() && !isExecutableFile(m_workerPath)) m_workerPath.clear();
}

SlurmCrashTriage::~SlurmCrashTriage() {
    for (Item &item : m_running)
        if (item.verdict.valid()) item.verdict.wait();
}

void SlurmCrashTriage::start(size_t index, const BenchJob &job, Measurement crashed,
                             const std::string &node) {
    m_queued.push_back(Item{index, job, std::move(crashed), node, {}});
    launch();
}

void SlurmCrashTriage::launch() {
    while (int(m_running.size()) < m_parallel && !m_queued.empty()) {
        Item item = std::move(m_queued.front());
        m_queued.pop_front();
        if (m_workerPath.empty()) {
            std::promise<CrashVerdict> none;
            none.set_value({kVerdictUnknown, "no beamscope-worker on the submit host to triage "
                                             "with (beamscope-worker beside the CLI)"});
            item.verdict = none.get_future();
        } else {
            item.verdict = std::async(std::launch::async, [job = item.job, worker = m_workerPath,
                                                           environment = m_worker.environment,
                                                           cancel = m_worker.cancel] {
                return triageCrash(job, worker, environment, cancel);
            });
        }
        m_running.push_back(std::move(item));
    }
}

std::vector<std::pair<size_t, Measurement>> SlurmCrashTriage::finished() {
    std::vector<std::pair<size_t, Measurement>> done;
    if (cancelled()) return done; // abandon() hands them back without a verdict
    for (auto it = m_running.begin(); it != m_running.end();) {
        if (it->verdict.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
            ++it;
            continue;
        }
        const CrashVerdict verdict = it->verdict.get();
        Measurement m = std::move(it->measurement);
        m.crashVerdict = verdict.verdict;
        m.failure += "; triage: " + verdict.verdict + " (" + verdict.detail + "; triaged on " +
                     m_host + ", the submit host; the task crashed on " +
                     (it->node.empty() ? std::string("a node Slurm did not name") : it->node) + ")";
        done.emplace_back(it->index, std::move(m));
        it = m_running.erase(it);
    }
    launch();
    return done;
}

std::vector<std::pair<size_t, Measurement>> SlurmCrashTriage::abandon() {
    std::vector<std::pair<size_t, Measurement>> left;
    for (Item &item : m_running) {
        if (item.verdict.valid()) item.verdict.wait();
        left.emplace_back(item.index, std::move(item.measurement));
    }
    for (Item &item : m_queued)
        left.emplace_back(item.index, std::move(item.measurement));
    m_running.clear();
    m_queued.clear();
    return left;
}

} // namespace beamscope
