// NiceAxis: chart axis ranges that end on round numbers with ticks on round steps (1, 2 or 5
// times a power of ten), so that a chart of 510 steps runs to 600, not 1000, and its ticks read
// 0.5, 1, 1.5 rather than 1.12, 1.95, 2.79.
#pragma once

class QValueAxis;

namespace beamscope {

struct NiceRange {
    double lo = 0, hi = 1, step = 1;
    int ticks = 2; ///< tick marks, both ends included
};

/// The smallest range of round steps, at most `maxTicks` ticks, that holds [lo, hi].
NiceRange niceRange(double lo, double hi, int maxTicks = 6);

/// Sets `axis` to niceRange(lo, hi, maxTicks).
void setNiceRange(QValueAxis *axis, double lo, double hi, int maxTicks = 6);

} // namespace beamscope
