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
};

/// Builds the pipeline `source` refers to, binds its scalar inputs, applies its output estimate
/// overrides and checks that it has every estimate.
/// Throws UsageError / Error with a one-line message.
PipelineInstance loadPipeline(const PipelineSource &source);

} // namespace beamscope
