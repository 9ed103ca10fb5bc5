// Factories of the built-in catalog apps, one per file in this folder, and the helpers they share.
#pragma once

#include "pipeline/AppCatalog.h"

namespace beamscope::apps {

AppDefinition bilateralGrid();
AppDefinition localLaplacian();
AppDefinition nlMeans();
AppDefinition lensBlur();
AppDefinition cameraPipe();
AppDefinition stencilChain();
AppDefinition harris();
AppDefinition histogramEqualize();
AppDefinition maxFilter();
AppDefinition unsharpMask();
AppDefinition interpolate();
AppDefinition convLayer();
AppDefinition matmul();
AppDefinition iirBlur();
AppDefinition bgu();
AppDefinition depthwiseSeparableConv();

/// An input buffer of `type` whose estimated extents (min 0) are `extents`.
Halide::ImageParam estimatedInput(Halide::Type type, const std::string &name,
                                  const std::vector<int64_t> &extents);

/// `input` with its edge repeated beyond its bounds in every dimension (as
/// BoundaryConditions::repeat_edge), as one Func called `name`: a pipeline with two
/// BoundaryConditions::repeat_edge Funcs has two Funcs of one name, which an exported schedule
/// cannot tell apart.
Halide::Func repeatEdge(const Halide::ImageParam &input, const std::string &name);

/// Sets estimates (min 0, the given extents) on every dimension of `output`.
void setOutputEstimates(Halide::Func output, const std::vector<int64_t> &extents);

/// Wraps outputs and inputs into an instance named `name`, recording `params`.
PipelineInstance makeInstance(const std::string &name, const std::vector<Halide::Func> &outputs,
                              const std::vector<Halide::ImageParam> &inputs,
                              const AppParams &params);

} // namespace beamscope::apps
