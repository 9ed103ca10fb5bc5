// Feature names and the printing of a feature vector.
#include "cost/StageFeatures.h"

namespace beamscope {

namespace {
constexpr std::string_view kNames[] = {
#define BEAMSCOPE_FEATURE_NAME(name) #name,
    BEAMSCOPE_STAGE_FEATURES(BEAMSCOPE_FEATURE_NAME)
#undef BEAMSCOPE_FEATURE_NAME
};
} // namespace

std::string_view featureName(Feature f) { return kNames[static_cast<size_t>(f)]; }

void StageFeatures::dump(std::ostream &os, const char *indent) const {
    for (size_t i = 0; i < kFeatureCount; ++i) {
        os << indent << kNames[i] << " " << values[i] << "\n";
    }
}

} // namespace beamscope
