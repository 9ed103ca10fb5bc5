// ScheduleIO: a complete schedule as JSON (by Func name) and back, so that schedules outlive a
// search: session files, the benchmark worker's jobs, exports.
#pragma once

#include "schedule/ScheduleState.h"

#include <nlohmann/json.hpp>

#include <string>

namespace beamscope {

/// [{"name", "decision", "consumer", "stages": [{"thread": [...], "serial": [...]}]}] for every
/// Func, in the search order (outputs first); tile vectors are per stage loop, innermost first.
nlohmann::json scheduleToJson(const ScheduleState &state);

/// Replays a schedule written by scheduleToJson onto `dag`. Throws Error naming the Func when
/// the JSON does not fit the DAG or a decision is illegal. `maxUnrolledPoints`: the lowering's
/// unroll limit (a measured row's, Measurement::maxUnrolledPoints; this build's by default).
StatePtr scheduleFromJson(std::shared_ptr<const FunctionDAG> dag, const nlohmann::json &json,
                          int64_t maxUnrolledPoints = kMaxUnrolledPoints);

/// The schedule JSON in the file at `path`: scheduleToJson's array, an object holding it under
/// "schedule" (a bench report's candidate, an import), or `search --json`'s report (its "funcs"
/// and their stages' tiles). Throws Error (one line naming the file) when it cannot be read or
/// is none of these.
nlohmann::json readScheduleFile(const std::string &path);

/// A schedule file and the unroll limit to lower it with.
struct ScheduleFile {
    nlohmann::json schedule;
    /// The limit its measurement was lowered with, when the file holds one (a bench report's
    /// candidate, a measurement record: without the field, the legacy limit, as
    /// Measurement::fromJson reads it); else this build's.
    int64_t maxUnrolledPoints = kMaxUnrolledPoints;
};

/// readScheduleFile, with the unroll limit the schedule was measured with, so that an export of
/// a measured schedule lowers it as it ran.
ScheduleFile loadScheduleFile(const std::string &path);

} // namespace beamscope
