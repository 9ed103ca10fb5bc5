// ScheduleApplier: applies a complete ScheduleState to a freshly built instance of the same
// pipeline by issuing Halide scheduling calls (the ScheduleCalls that ScheduleSource prints).
#pragma once

#include "codegen/ScheduleCalls.h"
#include "pipeline/PipelineInstance.h"
#include "schedule/ScheduleState.h"

#include <Halide.h>

namespace beamscope {

/// Schedules every Func of `fresh` as `state` says, with the lowering optimizations `options`
/// switch on. `fresh` must be built by the same factory with the same parameters as the
/// pipeline of state.dag(), and not be scheduled yet. Never compiles anything. Throws Error
/// when the state is incomplete, when the pipelines differ (names, stages, loops), when
/// `target` has no GPU feature, or when Halide rejects a call.
void applySchedule(const ScheduleState &state, const PipelineInstance &fresh,
                   const Halide::Target &target, const ScheduleCallOptions &options = {});

} // namespace beamscope
