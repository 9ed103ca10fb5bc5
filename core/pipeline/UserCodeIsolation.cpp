// The isolation policy and buildInChildProcess: the worker's --build-pipeline mode run through
// runProcess, its end turned into one line.
#include "pipeline/UserCodeIsolation.h"

#include "util/Subprocess.h"
#include "pipeline/PipelineSourceJson.h"
#include "util/Error.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <mutex>
#include <set>

namespace beamscope {

namespace {

std::mutex policyMutex;
UserCodeIsolationOptions policy;
/// Sources (as JSON text) already built in a child process: loading one again in this process
/// runs the same code, so it is not built out of process twice.
std::set<std::string> builtSources;

/// True when the worker ended with its own answer: exit 0 with {"built": true} or exit 1 with
/// {"failure": ...} as the last line of stdout.
bool workerAnswered(const ProcessResult &result) {
    if (result.spawnFailed || result.signal != 0 || result.timedOut) return false;
    if (result.exitCode != 0 && result.exitCode != 1) return false;
    const nlohmann::json answer = nlohmann::json::parse(lastLine(result.out), nullptr, false);
    if (!answer.is_object()) return false;
    return result.exitCode == 0 ? answer.value("built", false) : answer.contains("failure");
}

} // namespace

void setUserCodeIsolation(const UserCodeIsolationOptions &options) {
    std::lock_guard<std::mutex> lock(policyMutex);
    policy = options;
}

UserCodeIsolationOptions userCodeIsolation() {
    std::lock_guard<std::mutex> lock(policyMutex);
    return policy;
}

PipelineSource libraryOnly(const std::string &library) {
    PipelineSource source;
    source.generatorLibrary = library;
    return source;
}

std::string describeUserCode(const PipelineSource &source) {
    if (!source.pipelineFile.empty()) return "pipeline file '" + source.pipelineFile + "'";
    if (source.name.empty()) return "generator library '" + source.generatorLibrary + "'";
    return "generator '" + source.name + "' in '" + userFile(source) + "'";
}

void buildInChildProcess(const PipelineSource &source, const UserCodeIsolationOptions &options) {
    // The caller names the worker (the CLI and the GUI: the one beside them); pipeline/ sits
    // below measure/, which knows where workers live.
    const std::string &worker = options.workerPath;
    if (worker.empty() || !isExecutableFile(worker)) {
        throw Error("cannot build " + describeUserCode(source) +
                    " safely: beamscope-worker not found next to this program");
    }
    const std::string key = pipelineSourceToJson(source).dump();
    {
        std::lock_guard<std::mutex> lock(policyMutex);
        if (builtSources.count(key)) return;
    }
    ProcessOptions run;
    run.timeoutS = options.timeoutS;
    const ProcessResult result = runProcess({worker, "--build-pipeline", key}, run);
    if (result.timedOut) {
        char limit[32];
        snprintf(limit, sizeof limit, "%g", options.timeoutS);
        throw Error(describeUserCode(source) + " did not finish building within " + limit +
                    " s (stopped; a longer limit: --build-timeout)");
    }
    if (result.signal != 0) {
        throw Error(describeUserCode(source) +
                    " crashed while building: " + result.describeEnd(options.timeoutS));
    }
    if (result.spawnFailed) {
        throw Error("cannot build " + describeUserCode(source) + ": " +
                    result.describeEnd(options.timeoutS));
    }
    // Built, or an ordinary error (exit 1 with {"failure": ...}): the in-process build follows
    // and reports that error itself. Anything else (the user's code called exit()) is an end.
    if (!workerAnswered(result)) {
        std::string last = lastLine(result.err);
        throw Error(describeUserCode(source) + " ended the build with " +
                    result.describeEnd(options.timeoutS) + (last.empty() ? "" : ": " + last));
    }
    if (result.exitCode == 0) {
        std::lock_guard<std::mutex> lock(policyMutex);
        builtSources.insert(key);
        // A library that built a generator has been opened safely too.
        if (!source.generatorLibrary.empty())
            builtSources.insert(pipelineSourceToJson(libraryOnly(source.generatorLibrary)).dump());
    }
}

} // namespace beamscope
