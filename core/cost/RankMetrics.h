// RankMetrics: how well a cost model orders schedules by their measured run times — Kendall's
// tau-b and pairwise accuracy over the pairs whose measured times differ by more than the noise
// of the measurements.
#pragma once

#include <vector>

namespace beamscope {

/// The least relative noise a measurement is taken to have (2%).
constexpr double kMinRelativeNoise = 0.02;

/// Relative spread of repeated measurements, (max - min) / median; 0 when median <= 0.
double relativeSpread(double minMs, double medianMs, double maxMs);

/// Kendall's tau-b between predicted and measured times (both: lower = faster). `noise` holds
/// each row's relative noise (relativeSpread(); empty: none); a row's noise is at least
/// kMinRelativeNoise. A pair whose measured times differ by less than either row's noise
/// (|m_i - m_j| < max(n_i m_i, n_j m_j)) is ignored. NaN when no pair counts or every counted
/// pair is tied in prediction. Throws Error when the lengths differ.
double kendallTau(const std::vector<double> &predicted, const std::vector<double> &measured,
                  const std::vector<double> &noise = {});

/// The fraction of counted pairs (as in kendallTau) that the prediction orders like the
/// measurement; a pair tied in prediction counts one half. NaN when no pair counts.
double pairwiseAccuracy(const std::vector<double> &predicted, const std::vector<double> &measured,
                        const std::vector<double> &noise = {});

/// One-shot regret: the measured time of the schedule predicted fastest (the first of those tied
/// for it) over the fastest measured time; 1 is a perfect pick. NaN for no rows; throws Error
/// when the lengths differ.
double oneShotRegret(const std::vector<double> &predicted, const std::vector<double> &measured);

} // namespace beamscope
