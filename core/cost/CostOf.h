// costOf: the one way to cost a single state under a cost model spec ("analytic", "polymage" or a
// model file) on a GPU, outside a search: bench's predicted costs, the measurement database's
// predicted terms, tune, the training rows, Why not?'s comparisons and the Compare dock.
#pragma once

#include "cost/CostModel.h"
#include "schedule/GpuSpec.h"
#include "schedule/ScheduleState.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// A state's cost under one model, with the names of the model's terms.
struct ModelCost {
    StateCost cost;
    std::vector<std::string> termNames;
    /// {"term name": value, ...} for the model's terms, as the measurement database stores them.
    nlohmann::json termsByName() const;
};

/// The cost of `state` (complete or partial) on `gpu` under the model `spec` names
/// (makeCostModel). Throws as makeCostModel does for a spec that names no model.
ModelCost costOf(const ScheduleState &state, const std::string &spec, const GpuSpec &gpu);
/// The same with a model already built (one kept for many states, a model file loaded once).
ModelCost costOf(const ScheduleState &state, CostModel &model, const GpuSpec &gpu);
/// The same with the state's features already computed (Featurizer::featurize on the same GPU),
/// for a caller that costs one state under several models or keeps the features.
ModelCost costOf(const ScheduleState &state, CostModel &model,
                 const std::vector<std::shared_ptr<const KernelFeatures>> &features);

} // namespace beamscope
