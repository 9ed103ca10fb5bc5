// The shipped model: where it is, whom it fits, and the default cost model it makes.
#include "cost/PretrainedModel.h"

#include "util/Error.h"
#include "util/InstallLayout.h"

#include <cstdlib>
#include <iostream>
#include <mutex>

namespace beamscope {

std::string pretrainedModelPath() {
    if (const char *path = std::getenv("BEAMSCOPE_PRETRAINED_MODEL"); path && *path) return path;
    return (findDataDirectory("models", "the pretrained cost model") / "pretrained.json").string();
}

bool pretrainedFits(const GpuSpec &gpu) {
    return gpu.computeCapability > 0;
}

std::shared_ptr<LearnedCostModel> loadPretrained(const GpuSpec &gpu) {
    auto model = LearnedCostModel::load(pretrainedModelPath(), gpu);
    model->setName(kPretrainedName);
    return model;
}

std::string defaultCostModelSpec(const GpuSpec &gpu) {
    if (!pretrainedFits(gpu)) return "analytic";
    try {
        loadPretrained(gpu);
        return kPretrainedName;
    } catch (const std::exception &e) {
        static std::once_flag once;
        std::call_once(once, [&] {
            std::cerr << "warning: the pretrained cost model is unusable, ranking with the "
                         "analytic model: "
                      << e.what() << "\n";
        });
        return "analytic";
    }
}

std::shared_ptr<LearnedCostModel> loadLearnedModel(const std::string &spec, const GpuSpec &gpu) {
    if (spec == kPretrainedName) return loadPretrained(gpu);
    return LearnedCostModel::load(spec, gpu);
}

} // namespace beamscope
