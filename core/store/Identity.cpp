// Pipeline, device and schedule identities: hashing (FNV-1a 64), canonical keys, and building
// them from a PipelineSource + FunctionDAG and from a detected DeviceInfo.
#include "store/Identity.h"

#include "dag/FunctionDAG.h"

#include <Halide.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace beamscope {

namespace {

/// A key part with its separators escaped, so that distinct identities give distinct keys.
std::string escaped(const std::string &part) {
    std::string out;
    for (char c : part) {
        if (c == '%') {
            out += "%25";
        } else if (c == ' ') {
            out += "%20";
        } else if (c == '|') {
            out += "%7C";
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

std::string scheduleHash(const nlohmann::json &scheduleJson) {
    return fnv1a64Hex(scheduleJson.dump());
}

std::string PipelineIdentity::key() const {
    std::string k = escaped(app);
    if (!generatorLibrary.empty()) k += " @" + escaped(generatorLibrary);
    for (const std::string &p : params)
        k += " " + escaped(p);
    for (const std::string &e : estimates)
        k += " est:" + escaped(e);
    for (const std::string &i : inputs)
        k += " in:" + escaped(i);
    return k + " dag:" + dagHash;
}

PipelineSource PipelineIdentity::source() const {
    PipelineSource s;
    s.name = app;
    setUserFile(s, generatorLibrary); // .so, .py or .hlpipe
    s.params = params;
    s.estimates = estimates;
    s.inputs = inputs;
    return s;
}

std::vector<std::string> PipelineIdentity::inputsOfKey(const std::string &key) {
    std::vector<std::string> inputs;
    std::istringstream parts(key);
    std::string part;
    while (parts >> part) {
        if (part.rfind("in:", 0) != 0) continue;
        std::string value;
        for (size_t i = 3; i < part.size(); ++i) {
            const std::string code = part.substr(i, 3);
            if (code == "%25" || code == "%20" || code == "%7C") {
                value += code == "%25" ? '%' : code == "%20" ? ' ' : '|';
                i += 2;
            } else {
                value += part[i];
            }
        }
        inputs.push_back(value);
    }
    return inputs;
}

PipelineIdentity PipelineIdentity::of(const PipelineSource &source, const FunctionDAG &dag) {
    PipelineIdentity id;
    id.app = source.name;
    // The user's file, whichever kind (its extension tells .so, .py and .hlpipe apart).
    if (const std::string &file = userFile(source); !file.empty()) {
        std::error_code ec;
        std::filesystem::path p = std::filesystem::absolute(file, ec);
        id.generatorLibrary = ec ? file : p.lexically_normal().string();
    }
    id.params = source.params;
    std::sort(id.params.begin(), id.params.end());
    id.estimates = source.estimates;
    id.inputs = dag.scalarInputs();
    std::ostringstream dump;
    dag.dump(dump);
    id.dagHash = fnv1a64Hex(dump.str());
    return id;
}

std::string DeviceIdentity::key() const {
    return escaped(kind) + "|" + escaped(name) + "|" + escaped(platform) + "|" + escaped(driver) +
           "|halide " + escaped(halideVersion);
}

DeviceIdentity DeviceIdentity::of(const DeviceInfo &device) {
    DeviceIdentity id;
    id.kind = deviceKindName(device.kind);
    id.name = device.name;
    id.platform = device.platform;
    // CUDA detection reports "CUDA driver X.Y" as the platform: split it.
    const std::string cudaPrefix = "CUDA driver ";
    if (device.platform.rfind(cudaPrefix, 0) == 0) {
        id.platform = "CUDA";
        id.driver = device.platform.substr(cudaPrefix.size());
    }
    id.halideVersion = std::to_string(HALIDE_VERSION_MAJOR) + "." +
                       std::to_string(HALIDE_VERSION_MINOR) + "." +
                       std::to_string(HALIDE_VERSION_PATCH);
    return id;
}

} // namespace beamscope
