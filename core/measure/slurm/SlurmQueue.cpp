// Contents: task states and their description; sbatch/squeue output parsers; the commands run
// through runProcess (found in PATH), each with a time limit so a hung controller is an error.
#include "measure/slurm/SlurmQueue.h"

#include "util/Subprocess.h"
#include "measure/slurm/SlurmFields.h"
#include "util/Error.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

namespace beamscope {

namespace {

std::string errorLine(const ProcessResult &r, const std::string &tool) {
    std::string why = lastLine(r.err);
    if (why.empty()) why = lastLine(r.out);
    if (why.empty()) why = r.describeEnd(slurm::kCommandTimeoutS);
    return tool + ": " + why;
}

} // namespace

bool SlurmTask::finished() const {
    return !(state == "PENDING" || state == "RUNNING" || state == "CONFIGURING" ||
             state == "COMPLETING" || state == "SUSPENDED" || state == "REQUEUED" ||
             state == "REQUEUE_HOLD" || state == "REQUEUE_FED" || state == "RESIZING" ||
             state == "SIGNALING" || state == "STAGE_OUT" || state == "STOPPED");
}

std::string SlurmTask::describe() const {
    std::string text = state;
    std::vector<std::string> why;
    if (!reason.empty() && reason != "None") why.push_back(reason);
    if (exitStatus != 0) why.push_back("exit status " + std::to_string(exitStatus));
    if (signal != 0) why.push_back("signal " + std::to_string(signal));
    for (size_t i = 0; i < why.size(); ++i)
        text += (i ? ", " : " (") + why[i];
    return why.empty() ? text : text + ")";
}

std::optional<long> parseSbatchParsable(const std::string &output) {
    const std::string line = lastLine(output);
    const std::string id = line.substr(0, line.find(';'));
    const long v = slurm::toLong(id, -1);
    if (v <= 0) return std::nullopt;
    return v;
}

std::vector<int> expandTaskString(const std::string &text) {
    std::vector<int> ids;
    const std::string list = text.substr(0, text.find('%'));
    for (const std::string &part : slurm::splitFields(list, ',')) {
        if (part.empty()) continue;
        const size_t dash = part.find('-');
        const long first = slurm::toLong(part.substr(0, dash), -1);
        const long last =
            dash == std::string::npos ? first : slurm::toLong(part.substr(dash + 1), -1);
        if (first < 0 || last < first) continue;
        for (long i = first; i <= last; ++i)
            ids.push_back(int(i));
    }
    return ids;
}

std::vector<SlurmTask> parseSqueueJson(const std::string &text, const std::vector<long> &arrays) {
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_object() || !json.contains("jobs") || !json["jobs"].is_array())
        throw Error("squeue --json: unexpected output");
    std::vector<SlurmTask> tasks;
    for (const nlohmann::json &job : json["jobs"]) {
        const long array = job.value("array_job_id", 0L);
        if (array == 0 || !slurm::followed(arrays, array))
            continue; // squeue --json ignores -j here
        SlurmTask t;
        t.arrayJob = array;
        t.state = job.value("job_state", std::string());
        t.reason = job.value("state_reason", std::string());
        t.node = job.value("nodes", std::string());
        const int status = job.value("exit_code", 0);
        t.exitStatus = (status >> 8) & 0xff;
        t.signal = status & 0x7f;
        const nlohmann::json &id = job["array_task_id"];
        if (id.is_number_integer()) {
            t.task = id.get<int>();
            t.jobId = job.value("job_id", 0L);
            tasks.push_back(t);
        } else { // the array's tasks that have not started: one entry, a task string
            for (int task : expandTaskString(job.value("array_task_string", std::string()))) {
                t.task = task;
                tasks.push_back(t);
            }
        }
    }
    return tasks;
}

std::vector<SlurmTask> parseSqueueText(const std::string &text, const std::vector<long> &arrays) {
    std::vector<SlurmTask> tasks;
    for (const std::string &line : slurm::splitFields(text, '\n')) {
        const std::vector<std::string> f = slurm::splitFields(line, '|');
        if (f.size() < 5) continue;
        SlurmTask t;
        t.arrayJob = slurm::toLong(f[0], 0);
        if (!slurm::followed(arrays, t.arrayJob)) continue;
        t.state = f[2];
        t.reason = f[3];
        t.node = f[4];
        const std::vector<int> ids = expandTaskString(f[1]);
        if (ids.size() == 1 && f.size() > 5) t.jobId = slurm::toLong(f[5], 0);
        for (int task : ids) {
            t.task = task;
            tasks.push_back(t);
        }
    }
    return tasks;
}

SlurmQueue::SlurmQueue(std::string binDir) : m_binDir(std::move(binDir)) {}

std::string SlurmQueue::tool(const std::string &name) const {
    if (!m_binDir.empty()) return m_binDir + "/" + name;
    const char *path = std::getenv("PATH");
    for (const std::string &dir : slurm::splitFields(path ? path : "/usr/bin:/bin", ':')) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (isExecutableFile(candidate)) return candidate;
    }
    throw Error(name + " not found in PATH (is Slurm's client installed here?)");
}

long SlurmQueue::submit(const std::vector<std::string> &args) const {
    std::vector<std::string> argv{tool("sbatch"), "--parsable"};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessOptions options;
    options.timeoutS = slurm::kCommandTimeoutS;
    const ProcessResult r = runProcess(argv, options);
    const std::optional<long> id = r.succeeded() ? parseSbatchParsable(r.out) : std::nullopt;
    if (!id) throw Error(errorLine(r, "sbatch"));
    return *id;
}

bool SlurmQueue::hasJson() const {
    if (m_json < 0) {
        ProcessOptions options;
        options.timeoutS = slurm::kCommandTimeoutS;
        const ProcessResult r = runProcess({tool("squeue"), "--help"}, options);
        m_json = (r.out + r.err).find("--json") != std::string::npos ? 1 : 0;
    }
    return m_json == 1;
}

std::vector<SlurmTask> SlurmQueue::tasks(const std::vector<long> &arrays) const {
    std::string ids;
    for (long a : arrays)
        ids += (ids.empty() ? "" : ",") + std::to_string(a);
    ProcessOptions options;
    options.timeoutS = slurm::kCommandTimeoutS;
    const bool json = hasJson();
    std::vector<std::string> argv{tool("squeue"), "--states=all", "-j", ids};
    if (json) {
        argv.push_back("--json");
    } else {
        argv.insert(argv.end(), {"-h", "-r", "-o", "%F|%K|%T|%r|%N|%A"});
    }
    const ProcessResult r = runProcess(argv, options);
    if (!r.succeeded()) {
        // A job id the controller forgot (older than MinJobAge) is "Invalid job id": none left.
        if ((r.err + r.out).find("Invalid job id") != std::string::npos) return {};
        throw Error(errorLine(r, "squeue"));
    }
    return json ? parseSqueueJson(r.out, arrays) : parseSqueueText(r.out, arrays);
}

void SlurmQueue::cancel(const std::vector<long> &arrays) const {
    if (arrays.empty()) return;
    std::vector<std::string> argv{tool("scancel")};
    for (long a : arrays)
        argv.push_back(std::to_string(a));
    ProcessOptions options;
    options.timeoutS = slurm::kCommandTimeoutS;
    const ProcessResult r = runProcess(argv, options);
    if (!r.succeeded()) throw Error(errorLine(r, "scancel"));
}

} // namespace beamscope
