// local_laplacian (Paris, Hasinoff and Kautz 2011; Halide's apps/local_laplacian), with K
// intensity levels and J pyramid levels. For each intensity level k/(K-1), the luminance is
// remapped by g + alpha f exp(-f^2 / 2) (alpha = 1/(K-1), f the signed distance to the level
// in units of 1/256 of a level, tabulated on integers as in Halide's app), and a Gaussian
// pyramid ([1 3 3 1]/8 down by two) and its Laplacian pyramid (differences with the coarser
// level upsampled by the [1/4 3/4] linear filter) are built. The output Laplacian pyramid takes
// at every level and pixel the linear interpolation between the two intensity levels that
// bracket the input's Gaussian pyramid there; it is collapsed and the colour restored by the
// ratio (channel + 0.01) / (luminance + 0.01), to 16 bits (truncated). repeat_edge input.
#include "AppReference.h"

#include <cmath>

namespace beamscope::references {

namespace {

/// [1 3 3 1]/8 downsampling by two in x and y of f(., ., k).
float downsample(const Lazy &f, int x, int y, int k) {
    const double w[4] = {1, 3, 3, 1};
    double sum = 0.0;
    for (int j = 0; j < 4; ++j) {
        for (int i = 0; i < 4; ++i)
            sum += w[i] * w[j] * f(2 * x - 1 + i, 2 * y - 1 + j, k);
    }
    return float(sum / 64.0);
}

/// Linear upsampling by two in x and y of f(., ., k): a fine sample is 3/4 of the coarse sample
/// it lies in and 1/4 of the coarse neighbour on its side.
float upsample(const Lazy &f, int x, int y, int k) {
    const int cx = floorDiv(x, 2), cy = floorDiv(y, 2);
    const int nx = cx + (floorMod(x, 2) ? 1 : -1), ny = cy + (floorMod(y, 2) ? 1 : -1);
    return float(0.5625 * f(cx, cy, k) + 0.1875 * (f(nx, cy, k) + f(cx, ny, k)) +
                 0.0625 * f(nx, ny, k));
}

} // namespace

AppReference localLaplacianReference() {
    AppReference reference;
    reference.app = "local_laplacian";
    const int levels = 3, intensityLevels = 4;
    reference.params = {
        {"width", 64}, {"height", 48}, {"levels", levels}, {"intensity_levels", intensityLevels}};
    reference.absTolerance = 1.0; // one 16-bit level: float rounding before the truncation
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<uint16_t> input = inputs.at(0).as<uint16_t>();
        const int J = levels, K = intensityLevels;
        const float alpha = 1.0f / (K - 1);
        const auto channel = [input](int x, int y, int c) {
            return float(clampedAt(input, {x, y, c})) / 65535.0f;
        };
        const auto luma = [channel](int x, int y) {
            return 0.299f * channel(x, y, 0) + 0.587f * channel(x, y, 1) +
                   0.114f * channel(x, y, 2);
        };
        // Everything lives in shared_ptrs that the evaluator keeps alive.
        auto pyramids = std::make_shared<std::vector<Lazy>>(4 * J);
        Lazy *gaussian = &(*pyramids)[0];  // per intensity level k (third coordinate)
        Lazy *laplacian = &(*pyramids)[J]; // per intensity level k
        Lazy *inputGaussian = &(*pyramids)[2 * J];
        Lazy *output = &(*pyramids)[3 * J]; // output Laplacian, then collapsed in place
        gaussian[0] = Lazy([=](int x, int y, int k, int, int) {
            const float g = luma(x, y), level = float(k) * (1.0f / (K - 1));
            const int index = std::clamp(int(g * float(K - 1) * 256.0f), 0, (K - 1) * 256);
            const float f = float(index - 256 * k) / 256.0f;
            return (g - level) + level + alpha * f * std::exp(-f * f / 2.0f);
        });
        inputGaussian[0] = Lazy([=](int x, int y, int, int, int) { return luma(x, y); });
        for (int j = 1; j < J; ++j) {
            const Lazy *finer = &gaussian[j - 1], *finerInput = &inputGaussian[j - 1];
            gaussian[j] =
                Lazy([=](int x, int y, int k, int, int) { return downsample(*finer, x, y, k); });
            inputGaussian[j] =
                Lazy([=](int x, int y, int, int, int) { return downsample(*finerInput, x, y, 0); });
        }
        laplacian[J - 1] = gaussian[J - 1];
        for (int j = 0; j < J - 1; ++j) {
            const Lazy *own = &gaussian[j], *coarser = &gaussian[j + 1];
            laplacian[j] = Lazy([=](int x, int y, int k, int, int) {
                return (*own)(x, y, k) - upsample(*coarser, x, y, k);
            });
        }
        // The output pyramid, collapsed from the coarsest level down: level j's value is its
        // blended Laplacian plus the collapsed coarser level upsampled.
        for (int j = J - 1; j >= 0; --j) {
            const Lazy *lap = &laplacian[j], *in = &inputGaussian[j];
            const Lazy *coarser = j + 1 < J ? &output[j + 1] : nullptr;
            output[j] = Lazy([=](int x, int y, int, int, int) {
                const float position = std::clamp((*in)(x, y) * float(K - 1), 0.0f, float(K - 1));
                const int lower = std::clamp(int(position), 0, K - 2);
                const float t = position - float(lower);
                float value = (1.0f - t) * (*lap)(x, y, lower) + t * (*lap)(x, y, lower + 1);
                if (coarser) value += upsample(*coarser, x, y, 0);
                return value;
            });
        }
        return [=](const std::vector<int> &at) -> double {
            const int x = at[0], y = at[1], c = at[2];
            const float color =
                (*pyramids)[3 * J](x, y) * (channel(x, y, c) + 0.01f) / (luma(x, y) + 0.01f);
            return double(uint16_t(std::clamp(color, 0.0f, 1.0f) * 65535.0f));
        };
    };
    return reference;
}

} // namespace beamscope::references
