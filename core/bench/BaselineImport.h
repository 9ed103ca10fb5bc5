// BaselineImport: "their" schedule of a pipeline, imported into Beamscope's terms — the one a
// Halide autoscheduler plugin applies (Anderson2021 in both configurations, Li2018,
// Mullapudi2016), or a schedule file applied by Beamscope's applier — for `compare --with` and
// the Compare dock.
#pragma once

#include "measure/Baselines.h"
#include "codegen/ScheduleImport.h"
#include "pipeline/PipelineSource.h"

#include <string>

namespace beamscope {

/// An imported schedule and where it came from.
struct ForeignSchedule {
    std::string what; ///< "anderson2021", "li2018", ..., or the file's path
    ScheduleImport imported;
    double autoschedulerMs = 0; ///< wall time of the plugin (0 for a file)
    bool fromCache = false;     ///< the plugin's schedule came from the baseline schedule cache
};

/// The target plugins run for when a schedule is imported: CUDA at the GPU's compute capability
/// (7.0 when it has none, at most 8.6: Halide 21's highest), as `ablate --anderson2021` runs.
Halide::Target importTarget(const GpuSpec &gpu);

/// Runs `baseline`'s plugin on a fresh instance of `source` for `gpu` and imports the schedule
/// it applied; where every Func is representable, compares it with Beamscope's application of
/// the imported state (ScheduleImport's differences). The naive baseline imports
/// applyNaiveGpuSchedule's calls. Throws Error when the plugin fails. Without `withApplier`
/// only the imported state is made (training rows need no lowering).
ForeignSchedule importBaseline(Baseline baseline, const PipelineSource &source, const GpuSpec &gpu,
                               bool withApplier = true);

/// Reads a schedule file — a JSON schedule as Beamscope writes them (scheduleToJson: the array
/// of Funcs, or an object with it under "schedule") — applies it to a fresh instance of
/// `source` with Beamscope's applier and imports it back from the Funcs. A C++ header is
/// refused (Beamscope does not compile C++ at run time): one-line Error naming the file.
ForeignSchedule importScheduleFile(const std::string &path, const PipelineSource &source,
                                   const GpuSpec &gpu);

/// `with` is a baseline name or a file path.
ForeignSchedule importForeign(const std::string &with, const PipelineSource &source,
                              const GpuSpec &gpu);

} // namespace beamscope
