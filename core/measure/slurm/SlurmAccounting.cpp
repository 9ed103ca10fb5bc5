// Contents: sacct JSON and --parsable2 parsers, and the probe that picks accounting storage, the
// job completion log, or nothing, running sacct through runProcess with a time limit.
#include "measure/slurm/SlurmAccounting.h"

#include "util/Subprocess.h"
#include "measure/slurm/SlurmFields.h"
#include "util/Error.h"

#include <nlohmann/json.hpp>

namespace beamscope {

namespace {

const char *const kFields = "JobID,State,ExitCode,NodeList";

/// A number that sacct's JSON writes either plain or as {"number": N, "set": true} (23.02+).
long sacctNumber(const nlohmann::json &v, long fallback) {
    if (v.is_number_integer()) return v.get<long>();
    if (v.is_object() && v.contains("number") && v["number"].is_number_integer() &&
        v.value("set", true))
        return v["number"].get<long>();
    return fallback;
}

/// A state that sacct's JSON writes as a string, or a list of flags (23.02+).
std::string jsonState(const nlohmann::json &v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_array() && !v.empty() && v.front().is_string()) return v.front().get<std::string>();
    return "";
}

} // namespace

std::vector<SlurmTask> parseSacctJson(const std::string &text, const std::vector<long> &arrays) {
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_object() || !json.contains("jobs") || !json["jobs"].is_array())
        throw Error("sacct --json: unexpected output");
    std::vector<SlurmTask> tasks;
    for (const nlohmann::json &job : json["jobs"]) {
        if (!job.is_object() || !job.contains("array") || !job["array"].is_object()) continue;
        const nlohmann::json &array = job["array"];
        SlurmTask t;
        t.arrayJob = sacctNumber(array.value("job_id", nlohmann::json()), 0);
        t.task = int(sacctNumber(array.value("task_id", nlohmann::json()), -1));
        if (t.arrayJob == 0 || t.task < 0 || !slurm::followed(arrays, t.arrayJob)) continue;
        t.jobId = sacctNumber(job.value("job_id", nlohmann::json()), 0);
        const nlohmann::json state = job.value("state", nlohmann::json());
        if (state.is_object()) {
            t.state = jsonState(state.value("current", nlohmann::json()));
            t.reason = state.value("reason", std::string());
        } else {
            t.state = jsonState(state);
        }
        t.node = job.value("nodes", std::string());
        const nlohmann::json code = job.value("exit_code", nlohmann::json());
        if (code.is_object()) {
            t.exitStatus = int(sacctNumber(code.value("return_code", nlohmann::json()), 0));
            const nlohmann::json signal = code.value("signal", nlohmann::json());
            if (signal.is_object())
                t.signal = int(sacctNumber(signal.value("signal_id", nlohmann::json()), 0));
        }
        if (!t.state.empty()) tasks.push_back(t);
    }
    return tasks;
}

std::vector<SlurmTask> parseSacctParsable(const std::string &text, const std::vector<long> &arrays,
                                          const SlurmJobIds &ids) {
    std::vector<SlurmTask> tasks;
    for (const std::string &line : slurm::splitFields(text, '\n')) {
        const std::vector<std::string> f = slurm::splitFields(line, '|');
        if (f.size() < 4 || f[0].find('.') != std::string::npos) continue; // steps: 12.batch
        SlurmTask t;
        const size_t underscore = f[0].find('_');
        if (underscore != std::string::npos) { // "ARRAY_TASK" (pending ranges "_[3-5]" skipped)
            t.arrayJob = slurm::toLong(f[0].substr(0, underscore), 0);
            t.task = int(slurm::toLong(f[0].substr(underscore + 1), -1));
        } else {
            t.jobId = slurm::toLong(f[0], 0);
            auto it = ids.find(t.jobId);
            if (it == ids.end()) continue;
            t.arrayJob = it->second.first;
            t.task = it->second.second;
        }
        if (t.task < 0 || !slurm::followed(arrays, t.arrayJob)) continue;
        t.state = f[1].substr(0, f[1].find(' '));
        const std::vector<std::string> code = slurm::splitFields(f[2], ':');
        t.exitStatus = code.empty() ? 0 : int(slurm::toLong(code[0], 0));
        t.signal = code.size() > 1 ? int(slurm::toLong(code[1], 0)) : 0;
        t.node = f[3] == "None assigned" ? "" : f[3];
        if (!t.state.empty()) tasks.push_back(t);
    }
    return tasks;
}

SlurmAccounting::SlurmAccounting(std::string binDir) : m_binDir(std::move(binDir)) {}

std::vector<SlurmTask> SlurmAccounting::finalStates(const std::vector<long> &arrays,
                                                    const SlurmJobIds &ids) const {
    if (arrays.empty()) return {};
    std::string sacct;
    try {
        sacct = SlurmQueue(m_binDir).tool("sacct");
    } catch (const Error &e) {
        m_source = SlurmAccountingSource::None;
        m_why = e.what();
        return {};
    }
    ProcessOptions options;
    options.timeoutS = slurm::kCommandTimeoutS;
    std::string arrayList;
    for (long a : arrays)
        arrayList += (arrayList.empty() ? "" : ",") + std::to_string(a);
    // 1. Accounting storage: JSON where this sacct has it, else --parsable2.
    ProcessResult r = runProcess({sacct, "--json", "-X", "-j", arrayList}, options);
    if (r.succeeded()) {
        try {
            m_source = SlurmAccountingSource::Storage;
            return parseSacctJson(r.out, arrays);
        } catch (const Error &) {
        }
    }
    r = runProcess({sacct, "--parsable2", "--noheader", "-X", "-j", arrayList, "-o", kFields},
                   options);
    if (r.succeeded()) {
        m_source = SlurmAccountingSource::Storage;
        return parseSacctParsable(r.out, arrays, ids);
    }
    m_why = lastLine(r.err.empty() ? r.out : r.err);
    // 2. No storage: the job completion log knows each task by its own job id.
    std::string idList;
    for (const auto &[jobId, task] : ids)
        if (slurm::followed(arrays, task.first))
            idList += (idList.empty() ? "" : ",") + std::to_string(jobId);
    if (idList.empty()) {
        m_source = SlurmAccountingSource::None;
        return {};
    }
    r = runProcess(
        {sacct, "--completion", "--parsable2", "--noheader", "-j", idList, "-o", kFields}, options);
    if (r.succeeded()) {
        m_source = SlurmAccountingSource::Completion;
        return parseSacctParsable(r.out, arrays, ids);
    }
    m_source = SlurmAccountingSource::None;
    m_why += "; " + lastLine(r.err.empty() ? r.out : r.err);
    return {};
}

std::string SlurmAccounting::describe() const {
    switch (m_source) {
    case SlurmAccountingSource::Storage:
        return "sacct (accounting storage)";
    case SlurmAccountingSource::Completion:
        return "sacct --completion (job completion log)";
    case SlurmAccountingSource::None:
        break;
    }
    return "none" + (m_why.empty() ? std::string() : ": " + m_why);
}

} // namespace beamscope
