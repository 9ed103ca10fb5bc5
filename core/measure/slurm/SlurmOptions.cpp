// SlurmOptions: the config file reader, the key setter, and a config file with overrides.
#include "measure/slurm/SlurmOptions.h"

#include "util/Error.h"

#include <fstream>

namespace beamscope {

namespace {

std::string trim(const std::string &s) {
    const size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

double number(const std::string &key, const std::string &value) {
    try {
        size_t used = 0;
        const double v = std::stod(value, &used);
        if (used == value.size() && v >= 0) return v;
    } catch (const std::exception &) {
    }
    throw UsageError("slurm option " + key + ": '" + value + "' is not a number >= 0");
}

} // namespace

void SlurmOptions::set(const std::string &key, const std::string &value) {
    if (key == "dir") {
        dir = value;
    } else if (key == "partition") {
        partition = value;
    } else if (key == "account") {
        account = value;
    } else if (key == "gres") {
        gres = value == "none" ? "" : value;
    } else if (key == "time") {
        time = value;
    } else if (key == "option") {
        options.push_back(value);
    } else if (key == "compile") {
        if (value != "local" && value != "job")
            throw UsageError("slurm option compile: '" + value + "' (local or job)");
        compileLocally = value == "local";
    } else if (key == "worker") {
        worker = value;
    } else if (key == "aot_runner") {
        aotRunner = value;
    } else if (key == "max_parallel") {
        maxParallel = int(number(key, value));
    } else if (key == "poll") {
        pollS = number(key, value);
        if (pollS < 0.05) throw UsageError("slurm option poll: at least 0.05 s");
    } else {
        throw UsageError("unknown slurm option '" + key +
                         "' (dir, partition, account, gres, time, option, compile, worker, "
                         "aot_runner, max_parallel, poll)");
    }
}

void SlurmOptions::loadFile(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw UsageError("cannot read slurm config '" + path + "'");
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string text = trim(line.substr(0, line.find('#')));
        if (text.empty()) continue;
        const size_t eq = text.find('=');
        if (eq == std::string::npos)
            throw UsageError(path + ":" + std::to_string(number) + ": expected key = value");
        try {
            set(trim(text.substr(0, eq)), trim(text.substr(eq + 1)));
        } catch (const UsageError &e) {
            throw UsageError(path + ":" + std::to_string(number) + ": " + e.what());
        }
    }
}

SlurmOptions slurmOptionsFrom(const std::string &configFile,
                              const std::vector<std::pair<std::string, std::string>> &settings) {
    SlurmOptions options;
    if (!configFile.empty()) options.loadFile(configFile);
    for (const auto &[key, value] : settings)
        if (!value.empty()) options.set(key, value);
    if (options.dir.empty())
        throw UsageError("the Slurm runner needs a directory shared with the cluster (--slurm-dir, "
                         "or dir = in the config file)");
    return options;
}

} // namespace beamscope
