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

/// Overrides output estimates: each spec is "NAME=MIN:EXTENT[,MIN:EXTENT...]", one range per
/// dimension of the output NAME (e.g. "output=0:1920,0:1080"). The search sizes everything from
/// the outputs, so this is how a user explores other problem sizes of a generator. NAME may also
/// be an input buffer with no output of that name (a .hlpipe file carries no input estimates).
/// Throws UsageError naming the bad spec, an unknown name, or a wrong number of dimensions.
void applyOutputEstimates(const PipelineInstance &instance, const std::vector<std::string> &specs);

} // namespace beamscope
