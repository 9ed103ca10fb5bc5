// max_filter (Halide's apps/max_filter): a max filter of (approximately) circular support of
// radius r, every channel alone, on the input with repeat_edge. The published app builds it
// from log-step vertical max slices: for each column offset dx in [-r, r] it takes the
// vertical max over rows [y - h, y + h], with h the number of rows dy in [0, r] for which
// dx^2 + dy^2 < (r + 1/4)^2 (one more than the circle's half height), and then the max over
// dx. Here that support is scanned directly.
#include "AppReference.h"

#include <limits>

namespace beamscope::references {

AppReference maxFilterReference(int radius) {
    AppReference reference;
    reference.app = "max_filter";
    reference.variant = "radius_" + std::to_string(radius);
    reference.params = {{"width", 32}, {"height", 24}, {"radius", radius}};
    reference.prepare = [radius](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<float> input = inputs.at(0).as<float>();
        std::vector<int> halfHeight(2 * radius + 1, 0);
        const float limit = (radius + 0.25f) * (radius + 0.25f);
        for (int dx = -radius; dx <= radius; ++dx) {
            for (int dy = 0; dy <= radius; ++dy)
                halfHeight[dx + radius] += float(dx * dx + dy * dy) < limit ? 1 : 0;
        }
        return [=](const std::vector<int> &at) -> double {
            float best = -std::numeric_limits<float>::infinity();
            for (int dx = -radius; dx <= radius; ++dx) {
                const int h = halfHeight[dx + radius];
                for (int dy = -h; dy <= h; ++dy)
                    best = std::max(best, clampedAt(input, {at[0] + dx, at[1] + dy, at[2]}));
            }
            return best;
        };
    };
    return reference;
}

} // namespace beamscope::references
