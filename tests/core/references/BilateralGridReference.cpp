// bilateral_grid (Chen, Paris and Durand 2007; Halide's apps/bilateral_grid), with s_sigma = 8
// and r_sigma = 0.1. Splat: grid cell (gx, gy) gathers the s x s pixels (gx s + i - s/2,
// gy s + j - s/2), i, j in [0, s) (repeat_edge, values clamped to [0, 1]), each into intensity
// bin round(v / r_sigma), summing the values and counting them. Blur: the grid convolved with
// the separable [1 4 6 4 1] kernel in x, y and z (here as one 5x5x5 kernel). Slice: trilinear
// interpolation of the blurred sum and count at (x / s, y / s, v / r_sigma), as in Halide's
// app with the lower cell floor(x / s) and fraction (x mod s) / s; the output is sum / count.
#include "AppReference.h"

namespace beamscope::references {

AppReference bilateralGridReference() {
    AppReference reference;
    reference.app = "bilateral_grid";
    reference.params = {{"width", 64}, {"height", 48}, {"s_sigma", 8}};
    reference.absTolerance = 1e-5;
    reference.relTolerance = 1e-4;
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<float> input = inputs.at(0).as<float>();
        const int s = 8;
        // histogram(gx, gy, z, 0): sum of the values in bin z; (..., 1): their count.
        auto histogram = std::make_shared<Lazy>([input, s](int gx, int gy, int z, int c, int) {
            float sum = 0.0f;
            for (int j = 0; j < s; ++j) {
                for (int i = 0; i < s; ++i) {
                    const float v = std::clamp(
                        clampedAt(input, {gx * s + i - s / 2, gy * s + j - s / 2}), 0.0f, 1.0f);
                    if (int(v * 10.0f + 0.5f) == z) sum += c == 0 ? v : 1.0f;
                }
            }
            return sum;
        });
        auto blurred = std::make_shared<Lazy>([histogram](int gx, int gy, int z, int c, int) {
            const double w[5] = {1, 4, 6, 4, 1};
            double sum = 0.0;
            for (int k = -2; k <= 2; ++k) {
                for (int j = -2; j <= 2; ++j) {
                    for (int i = -2; i <= 2; ++i)
                        sum +=
                            w[i + 2] * w[j + 2] * w[k + 2] * (*histogram)(gx + i, gy + j, z + k, c);
                }
            }
            return float(sum);
        });
        return [input, blurred, s](const std::vector<int> &at) -> double {
            const int x = at[0], y = at[1];
            const float zv = std::clamp(input(x, y), 0.0f, 1.0f) * 10.0f;
            const int gx = x / s, gy = y / s, gz = int(zv);
            const double fx = double(x % s) / s, fy = double(y % s) / s, fz = zv - gz;
            double value[2] = {0.0, 0.0};
            for (int c = 0; c < 2; ++c) {
                for (int corner = 0; corner < 8; ++corner) {
                    const int i = corner & 1, j = (corner >> 1) & 1, k = corner >> 2;
                    const double weight = (i ? fx : 1 - fx) * (j ? fy : 1 - fy) * (k ? fz : 1 - fz);
                    value[c] += weight * (*blurred)(gx + i, gy + j, gz + k, c);
                }
            }
            return value[0] / value[1];
        };
    };
    return reference;
}

} // namespace beamscope::references
