// The schedule-level rows a model trains on, one CSV line each, for analysis outside Beamscope:
// `train` and `models --features-csv` write it.
#pragma once

#include "tune/TrainingData.h"

#include <string>
#include <vector>

namespace beamscope {

/// Writes `rows` to `path` atomically: app, record, measured ms and noise, the analytic and
/// PolyMage predictions, the features (scheduleFeatureNames()), then `baseline`: the
/// autoscheduler whose measured schedule the row is ("anderson2021", ...; `--with-baselines`),
/// empty for a schedule Beamscope searched. Throws Error when the file cannot be written.
void writeFeaturesCsv(const std::string &path, const std::vector<LabelledSchedule> &rows);

} // namespace beamscope
