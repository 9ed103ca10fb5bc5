// Every ranked row's measured time beside each model's prediction of it, one CSV line per row,
// so a model's mispick can be traced to the rows it ranked first: `models --predictions-csv`.
#pragma once

#include "tune/TrainingData.h"

#include <string>

namespace beamscope {

/// Writes the rows of `comparison` to `path` atomically: app, gpu, record, measured ms, then one
/// column per model (its name: the prediction in ms, PolyMage's unitless score), then per model
/// its rank of the row within its pipeline (`<name>_rank`, 1 = predicted fastest). Throws Error
/// when the file cannot be written.
void writePredictionsCsv(const std::string &path, const ModelComparison &comparison);

} // namespace beamscope
