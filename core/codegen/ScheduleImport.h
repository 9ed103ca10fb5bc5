// ScheduleImport: reads back the schedule that Halide scheduling calls left on a pipeline's
// Funcs — an autoscheduler plugin's (Anderson2021, Li2018, Mullapudi2016) or Beamscope's own,
// applied by ScheduleApplier — into a ScheduleState where Beamscope's space can express it, and
// names every construct where it cannot (never dropping one silently).
//
// What is read: each Function's compute and store levels, memory type and wrappers (Func::in),
// and each stage's splits (split, rename, fuse) and loops with their ForType. A Func is
// representable when its compute location (inline, root, the innermost GPU block or thread loop
// of a root host) and its tile sizes (blocks, threads, serial per stage loop) are a placement of
// Beamscope's space. Lowering choices that do not change the decision (loop order inside a
// level, unrolling, tail strategies, register staging) are compared separately, against what
// Beamscope's applier does with the imported state (compareWithApplier).
#pragma once

#include "codegen/ScheduleCalls.h"
#include "pipeline/PipelineInstance.h"
#include "schedule/ScheduleState.h"

#include <Halide.h>

#include <optional>
#include <string>
#include <vector>

namespace beamscope {

/// One Func's imported decision.
struct ImportedFunc {
    int node = -1;
    std::string name;        ///< the Func's name (Node::name)
    std::optional<FuncPlacement> placement; ///< the imported placement, when representable
    std::string theirs;      ///< the schedule read, in words (a placement, or the loops read)
    bool representable = false;
    /// Why not representable: each construct outside Beamscope's space, naming the stage and
    /// the directive (empty when representable).
    std::vector<std::string> constructs;
    /// Representable, but lowered differently by Beamscope's applier (compareWithApplier).
    std::vector<std::string> differences;
    std::string loops; ///< the loops of each stage as read, outermost first, e.g. "x.block 40"
    /// The tail strategy of each split whose factor does not divide its loop's (estimated)
    /// extent, e.g. "output: x by 64: RoundUp"; splits without a tail are left out.
    std::string tails;
    std::vector<std::string> stagedInto; ///< consumers reading it through a Func::in wrapper
};

/// A whole pipeline's import.
struct ScheduleImport {
    std::vector<ImportedFunc> funcs; ///< one per Func, outputs first (the search order)
    /// The imported state: complete when every Func is representable, else nullptr.
    StatePtr state;
    /// The Funcs that are not representable.
    int unrepresentable() const;
};

/// Reads the schedules on the Funcs of `dag`'s pipeline. `dag` must have been built from the
/// very PipelineInstance that was then scheduled (its Nodes hold those Functions, and an update
/// stage's loops are read from its definition before scheduling). Throws only for a Halide
/// internal error; everything a schedule does is reported in the result.
ScheduleImport importSchedule(const std::shared_ptr<const FunctionDAG> &dag);

/// Applies `imported.state` to `fresh` (an unscheduled instance of the same pipeline) with
/// Beamscope's applier, reads it back, and adds to each Func's `differences` how Beamscope's
/// lowering differs from the imported one (loops per stage, tail strategies, staging). Does
/// nothing when the state is incomplete. Throws Error when the applier refuses the state.
void compareWithApplier(ScheduleImport &imported, const PipelineInstance &fresh,
                        const Halide::Target &target, const ScheduleCallOptions &options);

/// Applies `state` to the unscheduled `fresh` with Beamscope's applier and imports it back over
/// a DAG of `fresh`: the route by which an exported Beamscope schedule is read.
ScheduleImport importApplied(const ScheduleState &state, const PipelineInstance &fresh,
                             const Halide::Target &target, const ScheduleCallOptions &options);

} // namespace beamscope
