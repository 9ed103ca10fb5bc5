// interpolate (Halide's apps/interpolate): fills the transparent parts of an RGBA image from a
// pyramid. Colour is premultiplied by alpha (repeat_edge input); each coarser level is the
// finer one filtered by [1 2 1]/4 in x and y and subsampled by two; going back up, a level's
// value is its own plus (1 - its alpha) times the coarser level upsampled by averaging the
// (one or two) nearest coarse samples in each dimension; the result is divided by its alpha.
// As in our app, level 4 (when there is one) reads level 3 clamped to [0, W/16] x [0, H/16].
#include "AppReference.h"

namespace beamscope::references {

AppReference interpolateReference() {
    AppReference reference;
    reference.app = "interpolate";
    reference.params = {{"width", 64}, {"height", 48}, {"levels", 5}};
    reference.absTolerance = 1e-5;
    reference.relTolerance = 1e-4;
    reference.fill = [](size_t, Halide::Buffer<> &buffer, Lcg &rng) {
        // Colour in [0, 1); alpha 1 on about a third of the pixels, else small (mostly holes).
        Halide::Buffer<float> rgba = buffer.as<float>();
        rgba.for_each_element([&](int x, int y, int c) {
            rgba(x, y, c) = float(rng.next());
            if (c == 3) rgba(x, y, c) = rgba(x, y, c) < 0.33f ? 1.0f : 0.1f * rgba(x, y, c);
        });
    };
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<float> input = inputs.at(0).as<float>();
        const int levels = 5;
        const int clampWidth = input.width() / 16, clampHeight = input.height() / 16;
        auto down = std::make_shared<std::vector<Lazy>>(levels);
        auto interpolated = std::make_shared<std::vector<Lazy>>(levels);
        (*down)[0] = Lazy([input](int x, int y, int c, int, int) {
            const float alpha = clampedAt(input, {x, y, 3});
            return c < 3 ? clampedAt(input, {x, y, c}) * alpha : alpha;
        });
        for (int l = 1; l < levels; ++l) {
            const Lazy *finer = &(*down)[l - 1];
            const bool clampFiner = l == 4;
            (*down)[l] = Lazy([=](int x, int y, int c, int, int) {
                const float weight[3] = {1.0f, 2.0f, 1.0f};
                double sum = 0.0;
                for (int j = -1; j <= 1; ++j) {
                    for (int i = -1; i <= 1; ++i) {
                        int fx = 2 * x + i, fy = 2 * y + j;
                        if (clampFiner) {
                            fx = std::clamp(fx, 0, clampWidth);
                            fy = std::clamp(fy, 0, clampHeight);
                        }
                        sum += weight[i + 1] * weight[j + 1] * (*finer)(fx, fy, c);
                    }
                }
                return float(sum / 16.0);
            });
        }
        (*interpolated)[levels - 1] = (*down)[levels - 1];
        for (int l = levels - 2; l >= 0; --l) {
            const Lazy *coarser = &(*interpolated)[l + 1];
            const Lazy *own = &(*down)[l];
            (*interpolated)[l] = Lazy([=](int x, int y, int c, int, int) {
                // Fine x lies between coarse floor(x / 2) and floor((x + 1) / 2).
                const int xs[2] = {floorDiv(x, 2), floorDiv(x + 1, 2)};
                const int ys[2] = {floorDiv(y, 2), floorDiv(y + 1, 2)};
                double up = 0.0;
                for (int j = 0; j < 2; ++j) {
                    for (int i = 0; i < 2; ++i)
                        up += (*coarser)(xs[i], ys[j], c);
                }
                return float((*own)(x, y, c) + (1.0 - (*own)(x, y, 3)) * up / 4.0);
            });
        }
        return [down, interpolated](const std::vector<int> &at) -> double {
            const Lazy &finest = (*interpolated)[0];
            return double(finest(at[0], at[1], at[2])) / finest(at[0], at[1], 3);
        };
    };
    return reference;
}

} // namespace beamscope::references
