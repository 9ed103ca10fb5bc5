// unsharp_mask: sharpens an RGB image by its luminance's difference from a Gaussian blur.
#include "pipeline/apps/Apps.h"

#include <cmath>

namespace beamscope::apps {

namespace {

PipelineInstance buildUnsharpMask(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const int radius = static_cast<int>(params.at("radius"));
    const float sigma = 1.5f;

    ImageParam input = estimatedInput(Float(32), "input", {width, height, 3});
    Var x("x"), y("y"), c("c");

    // The Gaussian weights, as a Func of the offset.
    Func kernel("kernel");
    const float twoSigmaSq = 2.0f * sigma * sigma;
    const float norm = 1.0f / (std::sqrt(2.0f * 3.14159265f) * sigma);
    kernel(x) = exp(-cast<float>(x * x) / twoSigmaSq) * norm;

    Func bounded = BoundaryConditions::repeat_edge(input);
    Func gray("gray");
    gray(x, y) = 0.299f * bounded(x, y, 0) + 0.587f * bounded(x, y, 1) + 0.114f * bounded(x, y, 2);

    // Separable Gaussian blur of the luminance.
    Func blurY("blur_y");
    Expr sumY = kernel(0) * gray(x, y);
    for (int i = 1; i <= radius; ++i)
        sumY += kernel(i) * (gray(x, y - i) + gray(x, y + i));
    blurY(x, y) = sumY;
    Func blurX("blur_x");
    Expr sumX = kernel(0) * blurY(x, y);
    for (int i = 1; i <= radius; ++i)
        sumX += kernel(i) * (blurY(x - i, y) + blurY(x + i, y));
    blurX(x, y) = sumX;

    // Sharpen the luminance, and scale the colour channels by the ratio.
    Func sharpen("sharpen");
    sharpen(x, y) = 2.0f * gray(x, y) - blurX(x, y);
    Func ratio("ratio");
    ratio(x, y) = sharpen(x, y) / gray(x, y);
    Func output("output");
    output(x, y, c) = ratio(x, y) * input(x, y, c);
    setOutputEstimates(output, {width, height, 3});
    return makeInstance("unsharp_mask", {output}, {input}, params);
}

} // namespace

AppDefinition unsharpMask() {
    return {"unsharp_mask",
            "Unsharp masking: luminance, separable Gaussian blur, sharpen ratio applied to RGB",
            {{"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"},
             {"radius", 3, 1, 32, "blur radius in pixels (the kernel has 2 radius + 1 taps)"}},
            buildUnsharpMask};
}

} // namespace beamscope::apps
