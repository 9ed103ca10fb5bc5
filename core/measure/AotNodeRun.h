// AotNodeRun: what beamscope-aot-runner does with one job on a Slurm node: dlopen the shipped
// artifact (AotArtifact.h), build its arguments from NAME_metadata and the batch's shipped
// inputs, run warm-up and timed repeats exactly as the worker times them (device sync after
// each, behind the job's device lock), copy the outputs back and judge them against the shipped
// CPU reference with the worker's verdict (BufferCompare's judgeOutputs), running the shipped
// naive artifact when the device-naive check needs it. No libHalide and no LLVM: the node
// compiles nothing. Only HalideRuntime.h, nlohmann JSON and libdl.
#pragma once

#include "measure/Measurement.h"

#include <nlohmann/json.hpp>

namespace beamscope {

/// Runs the job (BenchJob JSON with "target" and "aot": {"library", "data"}). A candidate that
/// cannot load, run or check is a Measurement with a one-line failure; a malformed job throws
/// std::runtime_error. Honours "inject" (tests): crash, hang, error, wrong, wrong-tile,
/// skew-reference. With `outputsDir`, the candidate's outputs are also written there as
/// output-K.raw (dense bytes, as the shipped references).
Measurement runShippedJob(const nlohmann::json &job, const std::string &outputsDir = "");

} // namespace beamscope
