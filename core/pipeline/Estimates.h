// Checks that a pipeline carries the estimates the search needs, and names what is missing.
#pragma once

#include "pipeline/PipelineInstance.h"

#include <string>
#include <vector>

namespace beamscope {

/// Human-readable names of missing estimates, e.g. "output 'blur' dimension 1",
/// "input 'input' dimension 0". Empty when everything is estimated.
std::vector<std::string> missingEstimates(const PipelineInstance &instance);

/// Throws Error listing the missing estimates by name, if there are any.
void requireEstimates(const PipelineInstance &instance);

} // namespace beamscope
