// buildPythonGenerator: find the interpreter, run the runner script on the user's file into a
// private temporary directory, turn each way the run can end into one line, read the manifest
// and the .hlpipe file back.
#include "pipeline/PythonGenerator.h"

#include "util/Subprocess.h"
#include "pipeline/SerializedPipeline.h"
#include "util/Error.h"
#include "util/HalideInstall.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace beamscope {

namespace {

namespace fs = std::filesystem;

/// Exit statuses of the runner script (PythonRunnerScript.cpp).
constexpr int kUserCodeFailed = 3;
constexpr int kNoSuchGenerator = 4;
constexpr int kNoHalideModule = 5;

/// `python3` in a directory of PATH, or "".
std::string python3OnPath() {
    const char *path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty()) continue;
        const std::string candidate = (fs::path(dir) / "python3").string();
        if (isExecutableFile(candidate)) return candidate;
    }
    return "";
}

/// A private directory for one run's files, removed when it goes out of scope.
class TemporaryDirectory {
public:
    TemporaryDirectory() {
        const char *tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/beamscope-python-XXXXXX";
        if (!mkdtemp(pattern.data())) throw Error("cannot create a temporary directory");
        m_path = pattern;
    }
    ~TemporaryDirectory() {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    TemporaryDirectory(const TemporaryDirectory &) = delete;
    TemporaryDirectory &operator=(const TemporaryDirectory &) = delete;
    const fs::path &path() const { return m_path; }

private:
    fs::path m_path;
};

/// The constants of the scalar-values pipeline the runner writes next to the pipeline (none
/// when there is no such file).
std::vector<Halide::Expr> scalarValues(const std::string &pipelineFile) {
    const std::string path = pipelineFile.substr(0, pipelineFile.size() - 7) + ".scalars.hlpipe";
    std::error_code ec;
    if (!fs::exists(path, ec)) return {};
    Halide::Pipeline values = Halide::deserialize_pipeline(path, {});
    return values.outputs().at(0).function().values();
}

PipelineManifest manifestFromJson(const nlohmann::json &j,
                                  const std::vector<Halide::Expr> &values) {
    PipelineManifest manifest;
    for (const nlohmann::json &input : j.at("inputs")) {
        DeclaredInput declared;
        declared.name = input.at("name").get<std::string>();
        declared.isBuffer = input.at("buffer").get<bool>();
        for (const nlohmann::json &range : input.value("estimates", nlohmann::json::array()))
            declared.estimates.emplace_back(range.at(0).get<int64_t>(), range.at(1).get<int64_t>());
        const auto value = [&](const char *key) {
            if (!input.contains(key)) return Halide::Expr();
            return values.at(input[key].get<size_t>());
        };
        declared.scalarEstimate = value("estimate");
        declared.scalarDefault = value("default");
        declared.scalarMin = value("min");
        declared.scalarMax = value("max");
        manifest.inputs.push_back(std::move(declared));
    }
    manifest.params = j.value("params", std::map<std::string, std::string>());
    return manifest;
}

} // namespace

std::string pythonInterpreter() {
    try {
        for (fs::path dir = loadedHalideLibrary().parent_path(); dir.has_relative_path();
             dir = dir.parent_path()) {
            if (!fs::exists(dir / "pyvenv.cfg")) continue;
            const std::string python = (dir / "bin" / "python3").string();
            if (isExecutableFile(python)) return python;
        }
    } catch (const Error &) {
        // No libHalide found by address: fall back to PATH.
    }
    const std::string python = python3OnPath();
    if (python.empty()) {
        throw Error("Python generators need python3 with the halide wheel (pip install "
                    "'halide==" +
                    std::to_string(HALIDE_VERSION_MAJOR) + ".*'); no python3 found");
    }
    return python;
}

namespace {

/// Runs the runner script on `path` for generator `name` ("": list them), writing the pipeline
/// to `pipelineFile`; returns the JSON of its last stdout line. Throws (see buildPythonGenerator).
nlohmann::json runPythonGenerator(const std::string &path, const std::string &name,
                                  const std::map<std::string, std::string> &params,
                                  const std::string &pipelineFile, double timeoutS) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        throw UsageError("cannot open Python generator file '" + path + "': no such file");
    }
    const std::string python = pythonInterpreter();
    ProcessOptions options;
    options.timeoutS = timeoutS;
    const ProcessResult run =
        runProcess({python, "-c", pythonRunnerScript(), path, name, pipelineFile,
                    nlohmann::json(params).dump(), std::to_string(HALIDE_VERSION_MAJOR)},
                   options);
    const std::string who = name.empty() ? "Python file '" + path + "'"
                                         : "Python generator '" + name + "' in '" + path + "'";
    if (run.timedOut) {
        char limit[32];
        std::snprintf(limit, sizeof limit, "%g", timeoutS);
        throw Error(who + " did not finish building within " + limit +
                    " s (stopped; a longer limit: --build-timeout)");
    }
    if (run.signal != 0 || run.spawnFailed) {
        throw Error(who + (run.signal != 0 ? " crashed while building: " : ": ") +
                    run.describeEnd(timeoutS));
    }
    const std::string message = lastLine(run.err);
    if (run.exitCode == kNoSuchGenerator) throw UsageError(message);
    if (run.exitCode == kUserCodeFailed || run.exitCode == kNoHalideModule) throw Error(message);
    if (run.exitCode != 0) {
        throw Error(who + " ended with " + run.describeEnd(timeoutS) +
                    (message.empty() ? "" : ": " + message));
    }
    const nlohmann::json answer = nlohmann::json::parse(lastLine(run.out), nullptr, false);
    if (!answer.is_object() || !answer.contains(name.empty() ? "generators" : "inputs")) {
        throw Error(who + ": the Python run printed no pipeline description");
    }
    return answer;
}

} // namespace

std::vector<std::string> listPythonGenerators(const std::string &path, double timeoutS) {
    const nlohmann::json answer = runPythonGenerator(path, "", {}, "", timeoutS);
    try {
        return answer.at("generators").get<std::vector<std::string>>();
    } catch (const nlohmann::json::exception &e) {
        throw Error("Python file '" + path + "': bad generator list: " + e.what());
    }
}

PipelineInstance buildPythonGenerator(const std::string &path, const std::string &name,
                                      const std::map<std::string, std::string> &params,
                                      double timeoutS) {
    if (name.empty()) throw UsageError("no generator name given for '" + path + "'");
    TemporaryDirectory directory;
    const std::string pipelineFile = (directory.path() / "pipeline.hlpipe").string();
    const nlohmann::json manifest = runPythonGenerator(path, name, params, pipelineFile, timeoutS);
    const std::string who = "Python generator '" + name + "' in '" + path + "'";
    PipelineManifest declared;
    try {
        declared = manifestFromJson(manifest, scalarValues(pipelineFile));
    } catch (const nlohmann::json::exception &e) {
        throw Error(who + ": bad pipeline description: " + e.what());
    } catch (const std::out_of_range &) {
        throw Error(who + ": bad pipeline description: a scalar value is missing");
    } catch (const Halide::Error &e) {
        throw Error(who + ": cannot read its scalar values: " + detail::firstLine(e.what()));
    }
    return loadSerializedPipeline(pipelineFile, name, declared);
}

} // namespace beamscope
