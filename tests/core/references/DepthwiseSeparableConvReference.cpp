// depthwise_separable_conv (MobileNet's block, Halide's apps/depthwise_separable_conv): each
// input channel convolved with its own 3x3 filter centred on the pixel, zero outside the
// input; then a 1x1 convolution mixing the channels, plus bias, then ReLU.
#include "AppReference.h"

namespace beamscope::references {

AppReference depthwiseSeparableConvReference() {
    AppReference reference;
    reference.app = "depthwise_separable_conv";
    reference.params = {
        {"batch", 2}, {"in_channels", 5}, {"out_channels", 3}, {"width", 9}, {"height", 7}};
    reference.absTolerance = 1e-5;
    reference.relTolerance = 1e-5;
    reference.fill = [](size_t, Halide::Buffer<> &buffer, Lcg &rng) {
        buffer.as<float>().for_each_value([&](float &v) { v = float(rng.next() * 2.0 - 1.0); });
    };
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<float> input = inputs.at(0).as<float>();
        const Halide::Buffer<float> depthwise = inputs.at(1).as<float>();
        const Halide::Buffer<float> pointwise = inputs.at(2).as<float>();
        const Halide::Buffer<float> bias = inputs.at(3).as<float>();
        const int channels = input.dim(0).extent();
        const auto pixel = [=](int ci, int x, int y, int n) -> double {
            const bool inside =
                x >= 0 && x < input.dim(1).extent() && y >= 0 && y < input.dim(2).extent();
            return inside ? input(ci, x, y, n) : 0.0;
        };
        return [=](const std::vector<int> &at) {
            const int co = at[0], x = at[1], y = at[2], n = at[3];
            double sum = bias(co);
            for (int ci = 0; ci < channels; ++ci) {
                double filtered = 0.0;
                for (int fy = -1; fy <= 1; ++fy) {
                    for (int fx = -1; fx <= 1; ++fx)
                        filtered += depthwise(ci, fx + 1, fy + 1) * pixel(ci, x + fx, y + fy, n);
                }
                sum += pointwise(co, ci) * filtered;
            }
            return sum > 0.0 ? sum : 0.0;
        };
    };
    return reference;
}

} // namespace beamscope::references
