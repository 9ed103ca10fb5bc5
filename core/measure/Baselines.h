// Baselines: schedules to compare the search against — a naive GPU schedule, and Halide's own
// autoschedulers (Anderson2021 in Halide's default configuration and in the paper's, Li2018,
// Mullapudi2016) run through their plugins — plus the simple CPU schedule the benchmark worker
// computes reference outputs with.
#pragma once

#include "measure/UpstreamAutoscheduler.h"
#include "pipeline/PipelineInstance.h"
#include "schedule/GpuSpec.h"

#include <Halide.h>

#include <string>
#include <vector>

namespace beamscope {

enum class Baseline { Naive, Anderson2021, Anderson2021Paper, Li2018, Mullapudi2016 };

/// "naive", "anderson2021", "anderson2021-paper", "li2018", "mullapudi2016".
const char *baselineName(Baseline baseline);
/// Every baseline, in the order above.
std::vector<Baseline> allBaselines();
/// The names of allBaselines(), comma-separated ("naive, anderson2021, ...").
std::string baselineNames();
/// Parses a name (case-insensitive); throws UsageError otherwise.
Baseline parseBaseline(const std::string &name);
/// Parses a comma-separated list ("naive,anderson2021"); "" and "none" give an empty list.
std::vector<Baseline> parseBaselineList(const std::string &list);

/// Funcs a simple schedule computes at root: every Func of the pipeline except the outputs
/// and the single-stage ones used only pointwise (Node::pointwiseUsesOnly).
std::vector<Halide::Func> nonInlinedFuncs(const PipelineInstance &instance);

/// The naive GPU schedule: every non-inlined Func compute_root, every stage tiled 16x16 on
/// its first two pure loops as GPU blocks x threads (one pure loop: 256 threads; none:
/// gpu_single_thread), GuardWithIf tails. Outputs are tiled the same way.
void applyNaiveGpuSchedule(const PipelineInstance &instance);

/// The reference CPU schedule: every non-inlined Func compute_root, nothing else.
void applyReferenceCpuSchedule(const PipelineInstance &instance);

/// The AutoschedulerParams Beamscope passes for `baseline` on `gpu` (Halide 21 names):
/// Anderson2021: parallelism = SMs, beam_size 32, shared_memory_limit_kb,
///   shared_memory_sm_limit_kb, active_block_limit, active_warp_limit (per SM), fixed seed,
///   and Halide 21's defaults otherwise (hierarchical sampling and freezing off: its search
///   takes minutes on the larger pipelines);
/// Anderson2021Paper: the same with the paper's sampling and freezing on (randomize_tilings=1,
///   freeze_inline_compute_root=1), the configuration Beamscope's own search runs by default;
/// Li2018: parallelism = SMs; Mullapudi2016: experimental_gpu_schedule (GPU targets),
///   parallelism = SMs, last_level_cache_size = the cache its tiles are sized for: on a GPU
///   target the shared memory of one block (the plugin's GPU mode stages a tile's
///   intermediates there and makes the whole tile one thread block: with the L2's 50 MB it
///   asked for 256x256-thread blocks, which CUDA refuses), else the L2. Throws for Naive.
Halide::AutoschedulerParams autoschedulerParams(Baseline baseline, const GpuSpec &gpu,
                                                const Halide::Target &target);

/// Applies Halide's autoscheduler `baseline` to `instance` for `target` (the plugin is loaded
/// once per process), or the schedule it applied before to the same pipeline for the same
/// target and parameters, from the baseline schedule cache (measure/BaselineScheduleCache.h;
/// `fromCache`, when given, says which; the run's milliseconds are then the plugin's when it
/// ran). Throws Error with Halide's message when it fails.
AutoschedulerRun applyHalideAutoscheduler(Baseline baseline, const PipelineInstance &instance,
                                          const Halide::Target &target, const GpuSpec &gpu,
                                          bool *fromCache = nullptr);

} // namespace beamscope
