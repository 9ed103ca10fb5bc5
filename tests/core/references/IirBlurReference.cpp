// iir_blur (Halide's apps/iir_blur): a first-order recursive filter with alpha = 0.1, run
// causally (top to bottom: out = (1 - alpha) out_prev + alpha in, the first row kept) and then
// anti-causally (bottom to top over the result, the last row kept) along every column, and the
// same along every row of that; every channel alone. Halide's app transposes between the
// passes; here the second pass simply runs along x.
#include "AppReference.h"

namespace beamscope::references {

namespace {

/// The two-pass recursive filter of n values spaced `stride` apart, in place.
void recursivePasses(std::vector<float> &v, size_t first, int n, size_t stride) {
    const float alpha = 0.1f, keep = 1.0f - alpha;
    for (int i = 1; i < n; ++i) {
        float &cur = v[first + i * stride];
        cur = keep * v[first + (i - 1) * stride] + alpha * cur;
    }
    for (int i = n - 2; i >= 0; --i) {
        float &cur = v[first + i * stride];
        cur = keep * v[first + (i + 1) * stride] + alpha * cur;
    }
}

} // namespace

AppReference iirBlurReference() {
    AppReference reference;
    reference.app = "iir_blur";
    reference.params = {{"width", 32}, {"height", 24}, {"channels", 2}};
    reference.absTolerance = 1e-6;
    reference.relTolerance = 1e-5;
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<float> input = inputs.at(0).as<float>();
        const int width = input.width(), height = input.height(), channels = input.channels();
        auto image = std::make_shared<std::vector<float>>(size_t(width) * height * channels);
        std::vector<float> &v = *image;
        for (int c = 0; c < channels; ++c) {
            for (int y = 0; y < height; ++y) {
                for (int x = 0; x < width; ++x)
                    v[(size_t(c) * height + y) * width + x] = input(x, y, c);
            }
            const size_t plane = size_t(c) * height * width;
            for (int x = 0; x < width; ++x)
                recursivePasses(v, plane + x, height, width); // down and up each column
            for (int y = 0; y < height; ++y)
                recursivePasses(v, plane + size_t(y) * width, width, 1); // along each row
        }
        return [image, width, height](const std::vector<int> &at) -> double {
            return (*image)[(size_t(at[2]) * height + at[1]) * width + at[0]];
        };
    };
    return reference;
}

} // namespace beamscope::references
