// SlurmBatches: a batch directory's files and its submission (the array script, sbatch, the
// manifest of job hashes), and attaching to the jobs an earlier run left queued or finished in
// the directory (resume); a job's hash across runs.
#include "measure/slurm/SlurmRun.h"

#include "util/Error.h"
#include "util/Hash.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace beamscope {

namespace fs = std::filesystem;

namespace {

std::string quote(const std::string &s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

/// sbatch --time from the job's limit: twice the worker's limit, at least 2 minutes.
std::string timeLimit(double timeoutS) {
    return std::to_string(std::max(2, int(std::ceil(2 * timeoutS / 60.0))));
}

} // namespace

std::string readSlurmFile(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeSlurmFile(const std::string &path, const std::string &text) {
    const std::string temp = path + ".part";
    {
        std::ofstream out(temp);
        out << text;
        if (!out) throw Error("slurm: cannot write " + path);
    }
    fs::rename(temp, path);
}

std::string slurmJobHash(const BenchJob &job) {
    nlohmann::json json = job.toJson();
    for (const char *key :
         {"label", "predicted", "reference_cache", "device_lock", "timeout_s", "aot"})
        json.erase(key);
    return fnv1a64Hex(json.dump());
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
    writeSlurmFile(batch.dir + "/run.sh", script.str());
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
    writeSlurmFile(batch.dir + "/manifest.json", manifest.dump(1) + "\n");
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
            readSlurmFile(entry.path().string() + "/manifest.json"), nullptr, false);
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

} // namespace beamscope
