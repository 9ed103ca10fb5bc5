// iir_blur: a first-order recursive (IIR) blur, run down and up the columns, in x and y.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

// Blurs the columns of `input` (causal scan down, anti-causal scan up) and transposes.
Halide::Func blurColsTranspose(const Halide::Func &input, int height, float alpha,
                               const std::string &prefix) {
    using namespace Halide;
    Var x("x"), y("y"), c("c");
    Func blur(prefix + "_blur");
    blur(x, y, c) = undef<float>();
    // The top row is the input's.
    blur(x, 0, c) = input(x, 0, c);
    // Scan down the columns.
    RDom ry(1, height - 1, prefix + "_ry");
    blur(x, ry, c) = (1 - alpha) * blur(x, ry - 1, c) + alpha * input(x, ry, c);
    // Scan back up.
    Expr flipRy = height - ry - 1;
    blur(x, flipRy, c) = (1 - alpha) * blur(x, flipRy + 1, c) + alpha * blur(x, flipRy, c);

    Func transpose(prefix + "_transpose");
    transpose(x, y, c) = blur(y, x, c);
    return transpose;
}

PipelineInstance buildIirBlur(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const int64_t channels = params.at("channels");
    const float alpha = 0.1f;

    ImageParam input = estimatedInput(Float(32), "input", {width, height, channels});
    Var x("x"), y("y"), c("c");

    // Columns of the input, then columns of the transpose (the input's rows).
    Func blurY = blurColsTranspose(input, static_cast<int>(height), alpha, "blur_y");
    Func blurX = blurColsTranspose(blurY, static_cast<int>(width), alpha, "blur_x");

    Func output("output");
    output(x, y, c) = blurX(x, y, c);
    setOutputEstimates(output, {width, height, channels});
    return makeInstance("iir_blur", {output}, {input}, params);
}

} // namespace

AppDefinition iirBlur() {
    return {"iir_blur",
            "Recursive blur: IIR scans down and up the columns, transpose, and again",
            {{"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"},
             {"channels", 3, 1, 16, "colour channels"}},
            buildIirBlur};
}

} // namespace beamscope::apps
