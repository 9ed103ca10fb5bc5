// NiceAxis: step search over 1, 2, 5 x 10^k.
#include "views/common/NiceAxis.h"

#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace beamscope {

NiceRange niceRange(double lo, double hi, int maxTicks) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
    if (hi < lo) std::swap(lo, hi);
    if (hi - lo < 1e-12) {
        const double pad = std::max(std::abs(lo) * 0.05, 1e-6);
        lo -= pad;
        hi += pad;
    }
    maxTicks = std::max(maxTicks, 2);
    const double rough = (hi - lo) / (maxTicks - 1);
    double power = std::pow(10.0, std::floor(std::log10(rough)));
    for (;;) {
        for (double m : {1.0, 2.0, 5.0}) {
            const double step = m * power;
            const double a = std::floor(lo / step + 1e-9) * step;
            const double b = std::ceil(hi / step - 1e-9) * step;
            const int ticks = int(std::lround((b - a) / step)) + 1;
            if (ticks <= maxTicks) return {a, b, step, ticks};
        }
        power *= 10;
    }
}

void setNiceRange(QValueAxis *axis, double lo, double hi, int maxTicks) {
    const NiceRange r = niceRange(lo, hi, maxTicks);
    axis->setRange(r.lo, r.hi);
    axis->setTickCount(r.ticks);
}

} // namespace beamscope
