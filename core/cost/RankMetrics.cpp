// Kendall's tau-b and pairwise accuracy with measurement-noise ties.
#include "cost/RankMetrics.h"

#include "util/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace beamscope {

namespace {

/// Pair counts over the pairs that count.
struct PairCounts {
    double counted = 0; ///< pairs whose measured times differ beyond the noise
    double concordant = 0;
    double discordant = 0;
    double predictedTies = 0;
};

PairCounts countPairs(const std::vector<double> &predicted, const std::vector<double> &measured,
                      const std::vector<double> &noise) {
    if (predicted.size() != measured.size())
        throw Error("rank metrics: " + std::to_string(predicted.size()) + " predictions for " +
                    std::to_string(measured.size()) + " measurements");
    if (!noise.empty() && noise.size() != measured.size())
        throw Error("rank metrics: " + std::to_string(noise.size()) + " noise values for " +
                    std::to_string(measured.size()) + " measurements");
    auto band = [&](size_t i) {
        const double n = noise.empty() ? 0.0 : noise[i];
        return std::max(kMinRelativeNoise, std::isfinite(n) ? n : 0.0) * std::fabs(measured[i]);
    };
    PairCounts c;
    for (size_t i = 0; i < measured.size(); ++i) {
        for (size_t j = i + 1; j < measured.size(); ++j) {
            const double dm = measured[i] - measured[j];
            if (std::fabs(dm) < std::max(band(i), band(j))) continue;
            c.counted += 1;
            const double dp = predicted[i] - predicted[j];
            if (dp == 0) {
                c.predictedTies += 1;
            } else if ((dp > 0) == (dm > 0)) {
                c.concordant += 1;
            } else {
                c.discordant += 1;
            }
        }
    }
    return c;
}

} // namespace

double relativeSpread(double minMs, double medianMs, double maxMs) {
    return medianMs > 0 ? (maxMs - minMs) / medianMs : 0.0;
}

double kendallTau(const std::vector<double> &predicted, const std::vector<double> &measured,
                  const std::vector<double> &noise) {
    const PairCounts c = countPairs(predicted, measured, noise);
    // Counted pairs are never tied in measurement, so tau-b's denominator is
    // sqrt(n0 (n0 - ties in prediction)).
    const double denominator = std::sqrt(c.counted * (c.counted - c.predictedTies));
    if (denominator <= 0) return std::numeric_limits<double>::quiet_NaN();
    return (c.concordant - c.discordant) / denominator;
}

double pairwiseAccuracy(const std::vector<double> &predicted, const std::vector<double> &measured,
                        const std::vector<double> &noise) {
    const PairCounts c = countPairs(predicted, measured, noise);
    if (c.counted <= 0) return std::numeric_limits<double>::quiet_NaN();
    return (c.concordant + 0.5 * c.predictedTies) / c.counted;
}

double oneShotRegret(const std::vector<double> &predicted, const std::vector<double> &measured) {
    if (predicted.size() != measured.size())
        throw Error("rank metrics: " + std::to_string(predicted.size()) + " predictions for " +
                    std::to_string(measured.size()) + " measurements");
    if (measured.empty()) return std::numeric_limits<double>::quiet_NaN();
    const size_t pick = size_t(std::min_element(predicted.begin(), predicted.end()) -
                               predicted.begin());
    const double fastest = *std::min_element(measured.begin(), measured.end());
    return fastest > 0 ? measured[pick] / fastest : std::numeric_limits<double>::quiet_NaN();
}

} // namespace beamscope
