// stencil_chain: a chain of 5x5 box-like stencils (paper section 2, Fig. 1), length a parameter.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

PipelineInstance buildStencilChain(const AppParams &params) {
    using namespace Halide;
    const int64_t length = params.at("length");
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");

    ImageParam input = estimatedInput(UInt(16), "input", {width, height});
    Var x("x"), y("y");

    // Boundary handling happens once, on the input; every stage reads a 5x5 window.
    Func bounded = BoundaryConditions::repeat_edge(input);
    Func previous("stage_0");
    previous(x, y) = cast<float>(bounded(x, y));
    for (int64_t s = 1; s <= length; ++s) {
        Func stage("stage_" + std::to_string(s));
        Expr sum = 0.0f;
        for (int dy = -2; dy <= 2; ++dy) {
            for (int dx = -2; dx <= 2; ++dx) {
                sum += previous(x + dx, y + dy);
            }
        }
        stage(x, y) = sum * (1.0f / 25.0f);
        previous = stage;
    }
    Func output("output");
    output(x, y) = cast<uint16_t>(clamp(previous(x, y), 0.0f, 65535.0f));
    setOutputEstimates(output, {width, height});
    return makeInstance("stencil_chain", {output}, {input}, params);
}

} // namespace

AppDefinition stencilChain() {
    return {"stencil_chain",
            "A chain of 5x5 stencils over a 16-bit image (paper Fig. 1)",
            {{"length", 32, 1, 512, "number of stencil stages"},
             {"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"}},
            buildStencilChain};
}

} // namespace beamscope::apps
