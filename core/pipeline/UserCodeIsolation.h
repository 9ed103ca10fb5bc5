// UserCodeIsolation: a user's pipeline code (a generator library's static initializers and
// generate(), a .hlpipe file read by Halide) runs inside Beamscope's process when it is loaded.
// Code that aborts, dereferences null or never returns would take the front end down with it, so
// the front ends turn isolation on: loadPipeline then first builds the pipeline in a process of
// its own (beamscope-worker --build-pipeline) with a time limit, and only a build that finished
// there is repeated in-process. Python generators always run in a Python process of their own.
#pragma once

#include "pipeline/PipelineSource.h"

#include <string>

namespace beamscope {

struct UserCodeIsolationOptions {
    bool enabled = false;   ///< off: loadPipeline builds user code in this process only
    std::string workerPath; ///< beamscope-worker (the CLI and GUI pass defaultWorkerPath())
    double timeoutS = 60;   ///< wall-clock limit of one build (and of one Python generator run)
};

/// Sets the process-wide isolation policy (front ends call it once at start-up; the worker, which
/// is the isolated process, leaves it off).
void setUserCodeIsolation(const UserCodeIsolationOptions &options);

/// The process-wide isolation policy.
UserCodeIsolationOptions userCodeIsolation();

/// Builds `source` in a child process. Returns normally when the child built it or failed with
/// an ordinary error (the in-process build then reports that error itself); throws Error with one
/// line naming the generator and the signal, the time limit, or why the child could not start,
/// when it crashed, hung or never ran.
void buildInChildProcess(const PipelineSource &source, const UserCodeIsolationOptions &options);

/// The source that only opens generator library `library` (no generator is built): what
/// GeneratorLibrary::open runs in a child process first.
PipelineSource libraryOnly(const std::string &library);

/// "generator 'NAME' in 'FILE'" (or "pipeline file 'FILE'"): how errors name user code.
std::string describeUserCode(const PipelineSource &source);

} // namespace beamscope
