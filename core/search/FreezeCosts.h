// FreezeCosts: what each Func costs in a state, for freezing's "lowest cost stages" (3.2).
// A Func's cost is the sum of its stages' costs, except that the compute of a Func inlined into
// a stage is its own: the authors' model gives an inlined Func a feature row of its own (its
// evaluations counted) and so a cost of its own, where our featurizer folds its arithmetic into
// the consumer's. The consumer's compute term is shared out between the stage and the Funcs
// inlined into it in proportion to their arithmetic per point; every other term stays with
// the stage. The costs add up to the state's total.
#pragma once

#include "cost/CostModel.h"
#include "dag/FunctionDAG.h"
#include "schedule/ScheduleState.h"

#include <vector>

namespace beamscope {

/// Per node of `dag` (inputs 0), its cost in `state` costed as `cost`. `computeTerm` is the
/// index of the model's compute term, or -1 when it has none (then a stage's whole cost is
/// shared out).
std::vector<double> funcCostsForFreezing(const FunctionDAG &dag, const ScheduleState &state,
                                         const StateCost &cost, int computeTerm);

} // namespace beamscope
