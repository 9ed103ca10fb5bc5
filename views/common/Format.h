// Format: how Beamscope writes numbers and schedule facts in every view (costs in ms, hashes,
// extents, placements), so that the same thing reads the same everywhere.
#pragma once

#include "schedule/ScheduleState.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace beamscope::format {

/// A predicted time in milliseconds with 4 significant digits ("1.244 ms"); "—" for NaN.
QString ms(double milliseconds);
/// A count with thousands separators ("21,504").
QString count(int64_t n);
/// A structural hash as 16 hex digits.
QString hash(uint64_t h);
/// Per-loop sizes joined by "×" ("16×4").
QString sizes(const std::vector<int64_t> &sizes);
/// Loop extents with their variable names ("x 7 × y 324").
QString extents(const Stage &stage, const std::vector<int64_t> &extents);
/// Where and how Func `node` is computed in `state` ("root · threads 16×4 · serial 4×8").
QString placement(const ScheduleState &state, int node);

} // namespace beamscope::format
