// Identity: the keys the measurement database files a measurement under — which pipeline
// (catalog app or generator + library, parameters, output estimates, a hash of its Func DAG),
// which device (kind, name, platform, driver, Halide version) and which schedule (a hash of its
// JSON). Keys are canonical one-line texts, stable across runs and platforms.
#pragma once

#include "util/Hash.h"

#include "measure/DeviceDetect.h"
#include "pipeline/PipelineSource.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace beamscope {

class FunctionDAG;

/// A pipeline as measured: enough to rebuild it, and a hash of the DAG that was analyzed.
struct PipelineIdentity {
    std::string app;                    ///< catalog app or generator name
    std::string generatorLibrary;       ///< the user's file, absolute; "" for the catalog
                                        ///< (.so, .py or .hlpipe: the name is historical)
    std::vector<std::string> params;    ///< "k=v", sorted
    std::vector<std::string> estimates; ///< as given (overrides), in order
    std::vector<std::string> inputs;    ///< scalar inputs as bound, "NAME=VALUE" in input order
    std::string dagHash;                ///< 16 hex digits: FNV-1a 64 of FunctionDAG::dump() text

    /// Canonical one-line text, the database key:
    /// "app [@lib] [k=v ...] [est:... ...] [in:NAME=VALUE ...] dag:HASH"
    /// (spaces and '%' inside a part are written %20 and %25).
    std::string key() const;
    /// The source that rebuilds the pipeline (features without the original session).
    PipelineSource source() const;
    /// The scalar inputs ("in:" parts, unescaped) of a key() text, in order.
    static std::vector<std::string> inputsOfKey(const std::string &key);
    /// The identity of `source` whose analyzed DAG is `dag` (inputs: the values `dag` was
    /// built with, given or not).
    static PipelineIdentity of(const PipelineSource &source, const FunctionDAG &dag);
    bool operator==(const PipelineIdentity &) const = default;
};

/// The device a measurement ran on, and the Halide that compiled it.
struct DeviceIdentity {
    std::string kind;          ///< "cuda", "opencl", "none"
    std::string name;          ///< device name as the driver reports it
    std::string platform;      ///< OpenCL platform name, or "CUDA"
    std::string driver;        ///< driver version when detection reports one ("12.4"), else ""
    std::string halideVersion; ///< e.g. "21.0.0"

    /// Canonical one-line text: "kind|name|platform|driver|halide VERSION".
    std::string key() const;
    /// The identity of a detected device; halideVersion from Halide's version macros.
    static DeviceIdentity of(const DeviceInfo &device);
    bool operator==(const DeviceIdentity &) const = default;
};

/// 16 hex digits: FNV-1a 64 of scheduleJson.dump() (stable across runs and platforms).
std::string scheduleHash(const nlohmann::json &scheduleJson);

} // namespace beamscope
