// harris: the Harris-Stephens corner response (Halide's apps/harris): luminance of the RGB
// input (repeat_edge), Sobel gradients scaled by 1/12, the structure tensor summed over a 3x3
// window, det - k trace^2 with k = 0.04; the output is the response shifted by (2, 2), as in
// Halide's app.
#include "AppReference.h"

namespace beamscope::references {

AppReference harrisReference() {
    AppReference reference;
    reference.app = "harris";
    reference.params = {{"width", 32}, {"height", 24}};
    reference.absTolerance = 1e-6;
    reference.relTolerance = 1e-4;
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<float> rgb = inputs.at(0).as<float>();
        auto luma = std::make_shared<Lazy>([rgb](int x, int y, int, int, int) {
            return 0.299f * clampedAt(rgb, {x, y, 0}) + 0.587f * clampedAt(rgb, {x, y, 1}) +
                   0.114f * clampedAt(rgb, {x, y, 2});
        });
        // Sobel: [-1 0 1; -2 0 2; -1 0 1] / 12 across x, its transpose across y.
        const auto gradient = [luma](int x, int y, bool alongX) {
            const int side[3] = {1, 2, 1};
            double sum = 0.0;
            for (int i = -1; i <= 1; ++i) {
                sum += alongX ? side[i + 1] * ((*luma)(x + 1, y + i) - (*luma)(x - 1, y + i))
                              : side[i + 1] * ((*luma)(x + i, y + 1) - (*luma)(x + i, y - 1));
            }
            return sum / 12.0;
        };
        return [gradient](const std::vector<int> &at) {
            const int cx = at[0] + 2, cy = at[1] + 2;
            double sxx = 0.0, syy = 0.0, sxy = 0.0;
            for (int dy = -1; dy <= 1; ++dy) {
                for (int dx = -1; dx <= 1; ++dx) {
                    const double gx = gradient(cx + dx, cy + dy, true);
                    const double gy = gradient(cx + dx, cy + dy, false);
                    sxx += gx * gx;
                    syy += gy * gy;
                    sxy += gx * gy;
                }
            }
            const double trace = sxx + syy;
            return sxx * syy - sxy * sxy - 0.04 * trace * trace;
        };
    };
    return reference;
}

} // namespace beamscope::references
