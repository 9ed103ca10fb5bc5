// depthwise_separable_conv: a 3x3 depthwise convolution, then a 1x1 pointwise one, bias, ReLU.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

PipelineInstance buildDepthwiseSeparableConv(const AppParams &params) {
    using namespace Halide;
    const int64_t batch = params.at("batch");
    const int64_t inChannels = params.at("in_channels");
    const int64_t outChannels = params.at("out_channels");
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const int filterSize = 3;

    // Layouts, innermost first: input (ci, x, y, n), depthwise filter (ci, fx, fy),
    // pointwise filter (co, ci), bias (co).
    ImageParam input = estimatedInput(Float(32), "input", {inChannels, width, height, batch});
    ImageParam depthwiseFilter =
        estimatedInput(Float(32), "depthwise_filter", {inChannels, filterSize, filterSize});
    ImageParam pointwiseFilter =
        estimatedInput(Float(32), "pointwise_filter", {outChannels, inChannels});
    ImageParam bias = estimatedInput(Float(32), "bias", {outChannels});
    Var c("c"), d("d"), x("x"), y("y"), n("n");

    Func inBounded = BoundaryConditions::constant_exterior(input, 0.0f,
                                                           {{0, static_cast<int>(inChannels)},
                                                            {0, static_cast<int>(width)},
                                                            {0, static_cast<int>(height)},
                                                            {0, static_cast<int>(batch)}});

    // Each input channel convolved with its own 3x3 filter.
    Func depthwise("depthwise_convolved");
    RDom filterDom(0, filterSize, 0, filterSize, "filter_dom");
    depthwise(d, x, y, n) = 0.0f;
    depthwise(d, x, y, n) +=
        depthwiseFilter(d, filterDom.x, filterDom.y) *
        inBounded(d, x + filterDom.x - filterSize / 2, y + filterDom.y - filterSize / 2, n);

    // A 1x1 convolution mixing the channels, plus bias.
    Func pointwise("pointwise_convolved");
    RDom depthDom(0, static_cast<int>(inChannels), "depth_dom");
    pointwise(c, x, y, n) = bias(c);
    pointwise(c, x, y, n) += pointwiseFilter(c, depthDom) * depthwise(depthDom, x, y, n);

    Func output("output");
    output(c, x, y, n) = max(pointwise(c, x, y, n), 0.0f);
    setOutputEstimates(output, {outChannels, width, height, batch});
    return makeInstance("depthwise_separable_conv", {output},
                        {input, depthwiseFilter, pointwiseFilter, bias}, params);
}

} // namespace

AppDefinition depthwiseSeparableConv() {
    return {"depthwise_separable_conv",
            "Depthwise separable convolution: per-channel 3x3, then 1x1 across channels, ReLU",
            {{"batch", 4, 1, 1024, "batch size N"},
             {"in_channels", 32, 1, 4096, "input channels CI"},
             {"out_channels", 16, 1, 4096, "output channels CO"},
             {"width", 112, 1, 1 << 14, "image width"},
             {"height", 112, 1, 1 << 14, "image height"}},
            buildDepthwiseSeparableConv};
}

} // namespace beamscope::apps
