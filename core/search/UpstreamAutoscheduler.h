// Halide's own autoschedulers (the plugins shipped with the Halide package), run on a pipeline
// for comparison: Anderson2021 is the upstream implementation of the same paper.
#pragma once

#include "pipeline/PipelineInstance.h"
#include "schedule/GpuSpec.h"

#include <map>
#include <string>

namespace beamscope {

/// Result of one autoscheduler run.
struct AutoschedulerRun {
    double milliseconds = 0;    ///< wall time of apply_autoscheduler
    std::string scheduleSource; ///< the C++ schedule it produced
    std::string error;          ///< empty on success
};

/// Path of the plugin library `libautoschedule_<lower-case name>.so` next to libHalide.
std::string autoschedulerPluginPath(const std::string &name);

/// Loads the plugin (once per process) and runs `name` ("Anderson2021", "Li2018",
/// "Mullapudi2016", "Adams2019") on `instance` for `target` with `params`.
AutoschedulerRun runAutoscheduler(const PipelineInstance &instance, const std::string &name,
                                  const Halide::Target &target,
                                  const std::map<std::string, std::string> &params);

/// Anderson2021 with the same GPU parameters as our search (SM count as parallelism, shared
/// memory and active block/warp limits) and beam size, for a CUDA target of the GPU's
/// compute capability (7.0 when it has none).
AutoschedulerRun runAnderson2021(const PipelineInstance &instance, const GpuSpec &gpu, int beamSize);

} // namespace beamscope
