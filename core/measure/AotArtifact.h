// AotArtifact: ships a compiled candidate to a Slurm node. Here, Halide AOT-compiles the
// scheduled pipeline for the job's run target (host-opencl, host-cuda-cuda_capability_NN) into
// an object without Halide's runtime (Pipeline::compile_to_object with no_runtime, entry
// kAotEntry: NAME_argv and NAME_metadata) and links it into a shared object with the C++
// compiler; once per batch data directory it also writes Halide's runtime for the target
// (compile_standalone_runtime, runtime.so, shared by every artifact of the batch), the inputs,
// the CPU reference outputs and the naive schedule's artifact (for the device-naive check of the
// verdict) in the AotData.h format. On the node,
// beamscope-aot-runner (AotNodeRun.h) dlopens the artifact and needs neither libHalide nor LLVM.
#pragma once

#include "measure/BenchJob.h"
#include "pipeline/PipelineInstance.h"

#include <string>

namespace beamscope {

/// The C++ compiler that links artifacts: $BEAMSCOPE_AOT_CXX when set, else the compiler
/// Beamscope was built with (configure time) when it is still there, else `c++` from PATH.
/// Throws Error when none is found.
std::string aotLinker();

/// Compiles the scheduled `instance` for `target` into the shared object `path` (and its
/// argument list, `path`.json); returns the compile + link time in ms. Throws Error.
double compileSharedObject(const PipelineInstance &instance, const Halide::Target &target,
                           const std::string &path);

/// Writes the batch data of `job` into `dir` (inputs, CPU reference, naive.so) unless it holds
/// them already (same referenceKey and target); one process at a time (flock on dir/.lock).
/// Throws Error.
void shipBatchData(const BenchJob &job, const std::string &dir);

/// For a compile-pass job (target empty, aotLibrary set): the candidate's artifact for
/// job.aotTarget, then shipBatchData into job.aotData. Returns the candidate's compile ms.
double buildAotArtifact(const BenchJob &job);

} // namespace beamscope
