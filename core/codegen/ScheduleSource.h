// ScheduleSource: exports a complete schedule as readable, self-contained Halide C++ that
// makes exactly the calls ScheduleApplier makes (both print or run the same ScheduleCalls).
#pragma once

#include "codegen/ScheduleCalls.h"
#include "cost/CostModel.h"
#include "schedule/ScheduleState.h"

#include <string>

namespace beamscope {

/// A header defining `inline void <functionName>(Halide::Pipeline pipeline)`, which finds
/// every Func of the pipeline by name and schedules it as applySchedule does with the same
/// `options`; one comment line per Func gives its decision and, when `cost` is given, its share
/// of the predicted cost. Throws UsageError if `functionName` is not a C++ identifier, Error if
/// the state is incomplete.
std::string scheduleSource(const ScheduleState &state, const StateCost *cost,
                           const std::string &functionName,
                           const ScheduleCallOptions &options = {});

/// "; 12.3% of the predicted cost": Func `node`'s share of `cost`; "" when no stage of it is in
/// `cost`.
std::string costShare(const StateCost &cost, int node);

/// The function name exports use by default: "stencil_chain" -> "apply_stencil_chain_schedule".
std::string defaultScheduleFunctionName(const std::string &pipelineName);

} // namespace beamscope
