// makeCostModel: built-in names and model files.
#include "cost/CostModelFactory.h"

#include "cost/AnalyticalGpuCostModel.h"
#include "cost/LearnedCostModel.h"
#include "cost/PolyMageCostModel.h"
#include "cost/PretrainedModel.h"
#include "util/Error.h"
#include "util/Text.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace beamscope {

bool isCostModelFile(const std::string &spec) {
    std::error_code ec;
    return spec.find('/') != std::string::npos || spec.find('.') != std::string::npos ||
           std::filesystem::exists(spec, ec);
}

std::shared_ptr<CostModel> makeCostModel(const std::string &spec, const GpuSpec &gpu) {
    if (spec == kDefaultModelSpec) return makeCostModel(defaultCostModelSpec(gpu), gpu);
    if (spec == kPretrainedName) return loadPretrained(gpu);
    if (spec == "analytic") return std::make_shared<AnalyticalGpuCostModel>(gpu);
    if (spec == "polymage") {
        const std::string name = asciiLower(gpu.name);
        const bool pascal = name.find("1080") != std::string::npos;
        return std::make_shared<PolyMageCostModel>(gpu, pascal ? PolyMageWeights::gtx1080Ti()
                                                               : PolyMageWeights::v100());
    }
    if (!spec.empty() && isCostModelFile(spec)) return LearnedCostModel::load(spec, gpu);
    throw UsageError("unknown cost model '" + spec +
                     "': use analytic, polymage, pretrained, default or a model file");
}

} // namespace beamscope
