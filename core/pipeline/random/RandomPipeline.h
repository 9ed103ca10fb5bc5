// RandomPipeline: deterministic random Halide pipelines for training and testing cost models,
// in the spirit of the random pipelines of Adams et al. 2019 and Anderson et al. 2021 (section
// 5.3): 4 to 60 Funcs drawn from building blocks (RandomBlocks.h) — pointwise ops on uint8,
// uint16, int32 and float, 1-D and 2-D stencils, separable blurs, down- and up-sampling, RDom
// reductions and histograms, scans, lookup-table gathers, transposes, matmul- and conv-like
// contractions, fan-out and fan-in, boundary conditions — over 2- to 4-D buffers. The same
// seed gives the same pipeline (Func names, definitions, estimates) on every run and platform:
// every choice comes from the project's Rng, in a fixed order.
#pragma once

#include "pipeline/AppCatalog.h"
#include "pipeline/random/RandomSpec.h"

#include <string>

namespace beamscope {

/// Builds the random pipeline `name` ("random:SEED" or "random:SEED:STAGES"). `params` may
/// hold size=N (8..4096): the x extent of the first input (y is the same or half, from the
/// seed); without it the size is drawn from the seed (256, 512 or 1024: one run takes about
/// 0.05-5 ms on a current GPU). A small size (size=32) runs in well under a second on PoCL.
/// Throws UsageError for a malformed name or parameter.
PipelineInstance buildRandomPipeline(const std::string &name, const AppParams &params = {});

/// Checks a random pipeline's parameters (size=N, 8..4096, at most); throws UsageError.
void checkRandomParams(const AppParams &params);

/// The random pipelines as a form for the GUI's Pipeline panel: name "random", parameters
/// seed, stages (0: drawn from the seed) and size (0: drawn from the seed).
AppDefinition randomPipelineDefinition();

/// The pipeline name the GUI form's `params` (seed, stages, size) stand for, and the -p
/// parameters left (size=N when not 0).
std::string randomSpecOfForm(const AppParams &params, std::vector<std::string> &otherParams);

} // namespace beamscope
