// histogram_equalize (Halide's apps/hist): equalizes the luminance of an 8-bit RGB image. The
// luminance bin of a pixel is round(0.299 R + 0.587 G + 0.114 B) (ours in integer arithmetic,
// see HistogramEqualize.cpp); the image's histogram of bins, its cumulative sum cdf, and the
// equalized luminance cdf(bin) * 255 / (W H); colour goes to YCrCb (float luma, Cr = 0.713
// (R - Y) + 128, Cb = 0.564 (B - Y) + 128) and back with the equalized luminance
// (R = Y' + 1.4 (Cr - 128), G = Y' - 0.343 (Cb - 128) - 0.711 (Cr - 128), B = Y' + 1.765
// (Cb - 128)), clamped to [0, 255] and truncated to 8 bits.
#include "AppReference.h"

#include <array>

namespace beamscope::references {

AppReference histogramEqualizeReference() {
    AppReference reference;
    reference.app = "histogram_equalize";
    reference.params = {{"width", 32}, {"height", 24}};
    reference.fill = [](size_t, Halide::Buffer<> &buffer, Lcg &rng) {
        // A skewed histogram (dark image), so that equalization moves values a lot.
        buffer.as<uint8_t>().for_each_value([&](uint8_t &v) {
            const double u = rng.next();
            v = uint8_t(255.0 * u * u);
        });
    };
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<uint8_t> input = inputs.at(0).as<uint8_t>();
        const int width = input.width(), height = input.height();
        const auto bin = [input](int x, int y) {
            const int sum = 299 * input(x, y, 0) + 587 * input(x, y, 1) + 114 * input(x, y, 2);
            return std::min((sum + 500) / 1000, 255);
        };
        std::array<int, 256> cdf{};
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x)
                ++cdf[bin(x, y)];
        }
        for (int i = 1; i < 256; ++i)
            cdf[i] += cdf[i - 1];
        const float scale = 255.0f / float(width * height);
        return [=](const std::vector<int> &at) -> double {
            const int x = at[0], y = at[1], c = at[2];
            const float r = input(x, y, 0), g = input(x, y, 1), b = input(x, y, 2);
            const float luma = 0.299f * r + 0.587f * g + 0.114f * b;
            const float cr = (r - luma) * 0.713f + 128, cb = (b - luma) * 0.564f + 128;
            const float equalized = std::clamp(float(cdf[bin(x, y)]) * scale, 0.0f, 255.0f);
            const float rgb[3] = {equalized + (cr - 128) * 1.4f,
                                  equalized - 0.343f * (cb - 128) - 0.711f * (cr - 128),
                                  equalized + 1.765f * (cb - 128)};
            return double(uint8_t(std::clamp(rgb[c], 0.0f, 255.0f)));
        };
    };
    return reference;
}

} // namespace beamscope::references
