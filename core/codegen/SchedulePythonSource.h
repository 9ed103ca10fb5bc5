// SchedulePythonSource: exports a complete schedule as Python (Halide's Python bindings) that
// makes exactly the calls ScheduleApplier makes, like ScheduleSource does in C++: a function
// that takes the hl.Pipeline a generator built (hl.Generator._build_pipeline(), or the
// generator's own pipeline in its schedule()) and schedules every Func of it.
#pragma once

#include "codegen/ScheduleCalls.h"
#include "cost/CostModel.h"
#include "schedule/ScheduleState.h"

#include <string>

namespace beamscope {

/// A Python module defining `def <functionName>(pipeline)`, which finds every Func of the
/// pipeline by the name Beamscope gives it (in realization order, as the C++ export does) and
/// schedules it as applySchedule does with the same `options`; one comment line per Func gives
/// its decision and, when `cost` is given, its share of the predicted cost. Throws UsageError
/// if `functionName` is not a Python identifier, Error if the state is incomplete.
std::string schedulePythonSource(const ScheduleState &state, const StateCost *cost,
                                 const std::string &functionName,
                                 const ScheduleCallOptions &options = {});

} // namespace beamscope
