// Exports of a FunctionDAG for front ends: JSON (beamscope-cli dag --format json) and dot.
#pragma once

#include "dag/FunctionDAG.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace beamscope {

/// {"pipeline", "funcs": [{name, stages, dims, is_input, is_output, extents}],
///  "edges": [{producer, consumer, consumer_stage, calls, affine, pointwise}]}
nlohmann::json dagToJson(const FunctionDAG &dag);

/// Graphviz dot text: one node per Func or input, edges labelled with their call counts.
void dagToDot(const FunctionDAG &dag, std::ostream &os);

} // namespace beamscope
