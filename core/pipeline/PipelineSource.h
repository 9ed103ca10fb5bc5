// Where a pipeline comes from (catalog app or generator library) and how to build it.
#pragma once

#include "pipeline/PipelineInstance.h"

#include <string>
#include <vector>

namespace beamscope {

/// A reference to a pipeline, as a user gives it on the command line or in a session.
struct PipelineSource {
    std::string name;                ///< catalog app name, random:SEED[:STAGES], or generator name
    std::string generatorLibrary;    ///< path of a generator .so; empty for the catalog
    std::vector<std::string> params; ///< "key=value" parameter assignments
    /// Output estimate overrides, "NAME=MIN:EXTENT[,MIN:EXTENT...]" (see applyOutputEstimates)
    std::vector<std::string> estimates = {};
    /// Scalar input values, "NAME=VALUE" (see bindScalarInputs); an input not named here takes
    /// its estimate, else its default.
    std::vector<std::string> inputs = {};
    // Last, so that the positional initializers {name, library, params} stay valid.
    /// Path of a Python file of `@hl.generator` classes (`name` is one of them); empty: none.
    std::string generatorPython = {};
    /// Path of a pipeline written by Halide's serialize_pipeline (.hlpipe); `name` names it.
    std::string pipelineFile = {};
};

/// The user's file the pipeline comes from (generator library, Python file or .hlpipe); empty
/// for the catalog. At most one is set (checkPipelineSource).
const std::string &userFile(const PipelineSource &source);

/// Sets the file field of `source` that fits `path` by its extension: .py a Python generator
/// file, .hlpipe a serialized pipeline, anything else a generator library.
void setUserFile(PipelineSource &source, const std::string &path);

/// Throws UsageError when more than one of generatorLibrary, generatorPython and pipelineFile is
/// set.
void checkPipelineSource(const PipelineSource &source);

/// Builds the pipeline `source` refers to, binds its scalar inputs, applies its output estimate
/// overrides and checks that it has every estimate.
/// User code (a generator library, a .hlpipe file) is first built in a process of its own when
/// isolation is on (UserCodeIsolation.h), so that a crash or hang in it is an Error, not the end
/// of this process. Throws UsageError / Error with a one-line message.
PipelineInstance loadPipeline(const PipelineSource &source);

} // namespace beamscope
