// CostModelFactory: the one place a cost model is built from what a user typed
// (--cost-model analytic|polymage|pretrained|default|FILE, SearchOptions::costModel).
#pragma once

#include "cost/CostModel.h"
#include "schedule/GpuSpec.h"

#include <memory>
#include <string>

namespace beamscope {

/// The model `spec` names, for `gpu`: "analytic" (AnalyticalGpuCostModel), "polymage"
/// (PolyMageCostModel, Table 3's V100 weights, or its 1080Ti ones for a GPU named like one),
/// "pretrained" (the shipped learned model, PretrainedModel.h), "default" (pretrained where it
/// fits `gpu`, else analytic) or the path of a learned model file (LearnedCostModel::load). Throws UsageError for a name that is
/// none of these, Error (one line) for a model file that cannot be used.
std::shared_ptr<CostModel> makeCostModel(const std::string &spec, const GpuSpec &gpu);

/// True when `spec` is meant as a model file rather than a built-in name (it names an existing
/// path or contains a '/' or a '.').
bool isCostModelFile(const std::string &spec);

} // namespace beamscope
