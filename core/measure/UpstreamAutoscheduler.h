// Halide's own autoschedulers (the plugins shipped with the Halide package), run on a pipeline
// for comparison: Anderson2021 is the upstream implementation of the same paper. The one place
// that loads plugins and times them: `ablate --anderson2021` and the benchmark baselines use it.
#pragma once

#include "pipeline/PipelineInstance.h"
#include "schedule/GpuSpec.h"

#include <Halide.h>

#include <map>
#include <string>

namespace beamscope {

/// Result of one autoscheduler run.
struct AutoschedulerRun {
    double milliseconds = 0;    ///< wall time of apply_autoscheduler
    std::string scheduleSource; ///< the C++ schedule it produced
    std::string error;          ///< empty on success; one line
};

/// Loads `libautoschedule_<name>.so` beside the loaded libHalide, once per process (safe from
/// any thread). Throws Error when it is missing or Halide refuses it.
void loadAutoschedulerPlugin(const std::string &name);

/// Loads the plugin named by `params` and runs it on `instance` for `target`. Errors (missing
/// plugin, Halide's refusal) are returned in `error`, never thrown.
AutoschedulerRun runAutoscheduler(const PipelineInstance &instance,
                                  const Halide::AutoschedulerParams &params,
                                  const Halide::Target &target);

/// Anderson2021's parameters for `gpu` (Halide 21 names): parallelism = SMs, beam_size,
/// shared_memory_limit_kb, shared_memory_sm_limit_kb, active_block_limit, active_warp_limit
/// (per SM), fixed dropout seed; then `extra` (Halide's names, e.g. randomize_tilings=1 and
/// freeze_inline_compute_root=1 for its sampling and freezing, both off by default in Halide 21).
Halide::AutoschedulerParams
anderson2021Params(const GpuSpec &gpu, int beamSize,
                   const std::map<std::string, std::string> &extra = {});

/// The parameters that turn on Anderson2021's hierarchical sampling and freezing as the paper
/// runs them (Halide 21 names: randomize_tilings=1, freeze_inline_compute_root=1).
std::map<std::string, std::string> anderson2021PaperParams();

/// Anderson2021 with the same GPU parameters as our search and beam size, for a CUDA target of
/// the GPU's compute capability (7.0 when it has none), plus `extra` parameters.
AutoschedulerRun runAnderson2021(const PipelineInstance &instance, const GpuSpec &gpu, int beamSize,
                                 const std::map<std::string, std::string> &extra = {});

} // namespace beamscope
