// lens_blur at the small size the block-level tests run it at (BlockLevelTapTest,
// BlockLevelInUpdateTilesTest): 64 x 48, 4 slices, 4 aperture samples, blur radius 2, about a
// second per run on PoCL.
#pragma once

#include "ScheduleTestUtil.h"

#include "pipeline/PipelineSource.h"

#include <memory>

namespace beamscope::testing {

inline const AppParams kSmallLensBlur = {
    {"width", 64}, {"height", 48}, {"slices", 4}, {"aperture_samples", 4}, {"max_blur_radius", 2}};

/// The same parameters as a worker's pipeline source.
inline PipelineSource smallLensBlurSource() {
    return {"lens_blur",
            "",
            {"width=64", "height=48", "slices=4", "aperture_samples=4", "max_blur_radius=2"}};
}

inline std::shared_ptr<const FunctionDAG> smallLensBlurDag() {
    return std::make_shared<const FunctionDAG>(buildApp("lens_blur", kSmallLensBlur));
}

} // namespace beamscope::testing
