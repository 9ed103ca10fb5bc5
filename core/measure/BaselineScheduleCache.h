// BaselineScheduleCache: the schedules Halide's autoscheduler plugins applied, kept so that the
// same pipeline, target and parameters need not run the plugin again. The plugins are
// deterministic (fixed dropout seed, fixed weights) and slow: Anderson2021's search takes
// minutes on local_laplacian and close to two hours on lens_blur on a 2-core machine, every
// time `compare --with`, the Compare dock or a bench baseline asks for its schedule.
//
// An entry is the scheduled pipeline in Halide's own format (serialize_pipeline: algorithm and
// every Func's and stage's schedule), KEY.hlpipe, and what the run reported, KEY.json (written
// last, so an entry without it is incomplete and ignored). KEY hashes everything the plugin
// sees: every Func's definitions, estimates and bounds, the inputs' types and estimates, the
// target, the plugin's parameters and the Halide version, with the Funcs' and inputs' names
// taken without the "$n" Halide appends when a pipeline is built again in one process. A hit
// copies each Func's and stage's schedule onto the fresh pipeline's Func of the same name,
// keeping its own estimates, bounds and reduction domains, and makes the plugin's wrappers
// (Func::in: staging) again.
#pragma once

#include "measure/UpstreamAutoscheduler.h"
#include "pipeline/PipelineInstance.h"

#include <Halide.h>

#include <filesystem>
#include <string>

namespace beamscope {

/// The cache's directory: $BEAMSCOPE_BASELINE_CACHE when set ("off": no cache, an empty path),
/// else $XDG_CACHE_HOME/beamscope/baselines, else ~/.cache/beamscope/baselines; empty when
/// none of these is set.
std::filesystem::path baselineCacheDir();

/// The entry key of `instance` (not yet scheduled) under `params` for `target`: 16 hex digits.
std::string baselineCacheKey(const PipelineInstance &instance,
                             const Halide::AutoschedulerParams &params,
                             const Halide::Target &target);

/// An autoscheduler run, from the plugin or from the cache.
struct CachedAutoschedulerRun {
    AutoschedulerRun run;   ///< milliseconds: the plugin's own time when it ran for the entry
    bool fromCache = false; ///< the schedule was copied from an entry, the plugin did not run
};

/// Applies the plugin `params` names to `instance` for `target` as runAutoscheduler does, or
/// the schedule a cache entry holds for the same key. A run that succeeds is stored. A cache
/// that cannot be read or written (corrupt entry, read-only directory, a pipeline whose Funcs
/// differ) costs one line on stderr and falls back to running the plugin: never an error.
CachedAutoschedulerRun applyAutoschedulerCached(const PipelineInstance &instance,
                                                const Halide::AutoschedulerParams &params,
                                                const Halide::Target &target);

} // namespace beamscope
