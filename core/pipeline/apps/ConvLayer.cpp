// conv_layer: a 3x3 convolution layer with bias and ReLU over a batch of feature maps.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

PipelineInstance buildConvLayer(const AppParams &params) {
    using namespace Halide;
    const int64_t batch = params.at("batch");
    const int64_t inChannels = params.at("in_channels");
    const int64_t outChannels = params.at("out_channels");
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");

    // Layouts, innermost first: input (ci, x, y, n), filter (co, fx, fy, ci), bias (co).
    ImageParam input =
        estimatedInput(Float(32), "input", {inChannels, width + 2, height + 2, batch});
    ImageParam filter = estimatedInput(Float(32), "filter", {outChannels, 3, 3, inChannels});
    ImageParam bias = estimatedInput(Float(32), "bias", {outChannels});
    Var c("c"), x("x"), y("y"), n("n");

    Func conv("conv");
    RDom r(0, static_cast<int>(inChannels), 0, 3, 0, 3, "r");
    conv(c, x, y, n) = bias(c);
    conv(c, x, y, n) += filter(c, r.y, r.z, r.x) * input(r.x, x + r.y, y + r.z, n);

    Func relu("relu");
    relu(c, x, y, n) = max(0.0f, conv(c, x, y, n));
    setOutputEstimates(relu, {outChannels, width, height, batch});
    return makeInstance("conv_layer", {relu}, {input, filter, bias}, params);
}

} // namespace

AppDefinition convLayer() {
    return {"conv_layer",
            "Convolution layer: 3x3 conv over all input channels, plus bias, then ReLU",
            {{"batch", 5, 1, 1024, "batch size N"},
             {"in_channels", 128, 1, 4096, "input channels CI"},
             {"out_channels", 128, 1, 4096, "output channels CO"},
             {"width", 100, 1, 1 << 14, "output width"},
             {"height", 80, 1, 1 << 14, "output height"}},
            buildConvLayer};
}

} // namespace beamscope::apps
