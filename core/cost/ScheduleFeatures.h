// ScheduleFeatures: one fixed-length vector per schedule for the learned cost model, the same
// length and meaning for every pipeline (so a model trained on some pipelines applies to
// others): log-scaled sums of the appendix-A features over all computed stages, the kernel and
// stage counts, and the analytic model's terms and total.
#pragma once

#include "cost/CostModel.h"

#include <memory>
#include <string>
#include <vector>

namespace beamscope {

/// The layout version of scheduleFeatureVector(); a model file records the one it was trained
/// with, and a model of another version is refused.
constexpr int kScheduleFeatureSchema = 2;

/// The name of each entry of scheduleFeatureVector(), in order ("sum_num_realizations", ...,
/// "kernels", "stages", "analytic_compute", ..., "analytic_total").
std::vector<std::string> scheduleFeatureNames();

/// The feature vector of a schedule from its kernels' feature rows and its analytic cost:
/// log1p(sum over stages) of every appendix-A feature, log1p of the kernel and stage counts, and
/// log of each analytic term total and of the analytic total (floored at 1e-9 ms). Deterministic.
std::vector<float>
scheduleFeatureVector(const std::vector<std::shared_ptr<const KernelFeatures>> &kernels,
                      const StateCost &analytic);

} // namespace beamscope
