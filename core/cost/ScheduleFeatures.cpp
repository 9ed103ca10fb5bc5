// The learned model's schedule-level feature vector (layout kScheduleFeatureSchema).
#include "cost/ScheduleFeatures.h"

#include <algorithm>
#include <cmath>

namespace beamscope {

namespace {
/// Terms and totals below this (ms) read as this, so that a zero term has a finite log.
constexpr double kLogFloorMs = 1e-9;

/// Non-finite sums (never expected) read as 0 so the trees see no NaN or infinity.
double finite(double x) {
    return std::isfinite(x) ? x : 0.0;
}

float logOf(double ms) {
    return float(std::log(std::max(kLogFloorMs, finite(ms))));
}
} // namespace

std::vector<std::string> scheduleFeatureNames() {
    std::vector<std::string> names;
    for (size_t i = 0; i < kFeatureCount; ++i)
        names.push_back("sum_" + std::string(featureName(Feature(i))));
    names.push_back("kernels");
    names.push_back("stages");
    for (size_t t = 0; t < kCostTerms; ++t)
        names.push_back(std::string("analytic_") + costTermName(CostTerm(t)));
    names.push_back("analytic_total");
    return names;
}

std::vector<float>
scheduleFeatureVector(const std::vector<std::shared_ptr<const KernelFeatures>> &kernels,
                      const StateCost &analytic) {
    std::vector<double> sums(kFeatureCount, 0.0);
    size_t stages = 0;
    for (const auto &kernel : kernels) {
        if (!kernel) continue;
        for (const StageFeatureRow &row : *kernel) {
            for (size_t i = 0; i < kFeatureCount; ++i)
                sums[i] += row.features.values[i];
            ++stages;
        }
    }
    std::vector<float> v;
    v.reserve(kFeatureCount + 3 + kCostTerms);
    for (double s : sums)
        v.push_back(float(std::log1p(std::max(0.0, finite(s)))));
    v.push_back(float(std::log1p(double(kernels.size()))));
    v.push_back(float(std::log1p(double(stages))));
    for (size_t t = 0; t < kCostTerms; ++t)
        v.push_back(logOf(analytic.terms[t]));
    v.push_back(logOf(analytic.total));
    return v;
}

} // namespace beamscope
