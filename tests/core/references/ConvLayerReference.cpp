// conv_layer: a 3x3 convolution layer (Halide's apps/conv_layer): for output channel co at
// (x, y) of image n, bias[co] plus the sum over input channels ci and taps (fx, fy) of
// filter[co, fx, fy, ci] * input[ci, x + fx, y + fy, n] (the input carries the 2-pixel
// border, no boundary condition), then ReLU.
#include "AppReference.h"

namespace beamscope::references {

AppReference convLayerReference() {
    AppReference reference;
    reference.app = "conv_layer";
    reference.params = {
        {"batch", 2}, {"in_channels", 5}, {"out_channels", 4}, {"width", 9}, {"height", 7}};
    reference.absTolerance = 1e-5;
    reference.relTolerance = 1e-5;
    reference.fill = [](size_t, Halide::Buffer<> &buffer, Lcg &rng) {
        // Signed weights and activations, so that ReLU clips some outputs.
        buffer.as<float>().for_each_value([&](float &v) { v = float(rng.next() * 2.0 - 1.0); });
    };
    reference.prepare = [](const std::vector<Halide::Buffer<>> &inputs) -> Evaluate {
        const Halide::Buffer<float> input = inputs.at(0).as<float>();
        const Halide::Buffer<float> filter = inputs.at(1).as<float>();
        const Halide::Buffer<float> bias = inputs.at(2).as<float>();
        return [=](const std::vector<int> &at) {
            const int co = at[0], x = at[1], y = at[2], n = at[3];
            double sum = bias(co);
            for (int ci = 0; ci < input.dim(0).extent(); ++ci) {
                for (int fy = 0; fy < 3; ++fy) {
                    for (int fx = 0; fx < 3; ++fx)
                        sum += double(filter(co, fx, fy, ci)) * input(ci, x + fx, y + fy, n);
                }
            }
            return sum > 0.0 ? sum : 0.0;
        };
    };
    return reference;
}

} // namespace beamscope::references
