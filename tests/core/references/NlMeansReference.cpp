// nl_means (Buades, Coll and Morel 2005; Halide's apps/nl_means): each pixel becomes the
// weighted mean of the pixels in its search window (offsets in [-A/2, A/2]^2, repeat_edge),
// weighted by exp(-D / (sigma^2 P^2)) with sigma = 0.12, where D is the squared RGB distance
// between the P x P patches around the pixel and around the offset pixel; clamped to [0, 1].
// (The app evaluates exp with Halide's fast_exp, hence the tolerance.)
#include "AppReference.h"

#include <cmath>

namespace beamscope::references {

AppReference nlMeansReference() {
    AppReference reference;
    reference.app = "nl_means";
    reference.params = {{"width", 32}, {"height", 24}, {"patch_size", 3}, {"search_area", 5}};
    reference.absTolerance = 2e-4;
    reference.relTolerance = 1e-4;
    reference.fill = [](size_t, Halide::Buffer<> &buffer, Lcg &rng) {
        // A smooth image with a little noise: on uniform noise every patch distance is so large
        // that only the pixel itself has weight, and the filter would be the identity.
        Halide::Buffer<float> image = buffer.as<float>();
        image.for_each_element([&](int x, int y, int c) {
            image(x, y, c) = float(0.5 + 0.3 * std::sin(0.3 * x + c) * std::cos(0.2 * y) +
                                   0.05 * (rng.next() - 0.5));
        });
    };
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<float> input = inputs.at(0).as<float>();
        const int patch = 3, search = 5;
        const double sigma = 0.12;
        const auto at3 = [input](int x, int y, int c) -> double {
            return clampedAt(input, {x, y, c});
        };
        return [=](const std::vector<int> &at) -> double {
            const int x = at[0], y = at[1], c = at[2];
            double weighted = 0.0, total = 0.0;
            for (int sy = -(search / 2); sy < search - search / 2; ++sy) {
                for (int sx = -(search / 2); sx < search - search / 2; ++sx) {
                    double distance = 0.0;
                    for (int py = -(patch / 2); py < patch - patch / 2; ++py) {
                        for (int px = -(patch / 2); px < patch - patch / 2; ++px) {
                            for (int k = 0; k < 3; ++k) {
                                const double d =
                                    at3(x + px, y + py, k) - at3(x + px + sx, y + py + sy, k);
                                distance += d * d;
                            }
                        }
                    }
                    const double w = std::exp(-distance / (sigma * sigma * patch * patch));
                    weighted += w * at3(x + sx, y + sy, c);
                    total += w;
                }
            }
            return std::clamp(weighted / total, 0.0, 1.0);
        };
    };
    return reference;
}

} // namespace beamscope::references
