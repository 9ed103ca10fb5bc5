// costOf: featurize (unmemoized), enqueue, evaluate, read the model's term names.
#include "cost/CostOf.h"

#include "cost/CostModelFactory.h"
#include "cost/Featurizer.h"

namespace beamscope {

nlohmann::json ModelCost::termsByName() const {
    nlohmann::json terms = nlohmann::json::object();
    for (size_t t = 0; t < termNames.size() && t < cost.terms.size(); ++t)
        terms[termNames[t]] = cost.terms[t];
    return terms;
}

ModelCost costOf(const ScheduleState &state, CostModel &model,
                 const std::vector<std::shared_ptr<const KernelFeatures>> &features) {
    ModelCost out;
    model.enqueue(state, features, &out.cost);
    model.evaluateAll();
    out.termNames = model.termNames();
    return out;
}

ModelCost costOf(const ScheduleState &state, CostModel &model, const GpuSpec &gpu) {
    // One state, one use: memoizing its kernels would only cost memory.
    Featurizer featurizer(gpu, /*memoize=*/false);
    return costOf(state, model, featurizer.featurize(state));
}

ModelCost costOf(const ScheduleState &state, const std::string &spec, const GpuSpec &gpu) {
    const std::shared_ptr<CostModel> model = makeCostModel(spec, gpu);
    return costOf(state, *model, gpu);
}

} // namespace beamscope
