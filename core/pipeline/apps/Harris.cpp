// harris: Harris corner response from Sobel gradients and 3x3 sums of their products.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

// The 3x3 box sum of `f`, as a reduction.
Halide::Func boxSum(const Halide::Func &f, const std::string &name) {
    using namespace Halide;
    Var x("x"), y("y");
    RDom box(-1, 3, -1, 3, name + "_box");
    Func sum(name);
    sum(x, y) = 0.0f;
    sum(x, y) += f(x + box.x, y + box.y);
    return sum;
}

PipelineInstance buildHarris(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const float k = 0.04f;

    ImageParam input = estimatedInput(Float(32), "input", {width, height, 3});
    Var x("x"), y("y");

    Func bounded = BoundaryConditions::repeat_edge(input);
    Func gray("gray");
    gray(x, y) = 0.299f * bounded(x, y, 0) + 0.587f * bounded(x, y, 1) + 0.114f * bounded(x, y, 2);

    // Sobel gradients.
    Func iy("Iy"), ix("Ix");
    iy(x, y) = gray(x - 1, y - 1) * (-1.0f / 12) + gray(x - 1, y + 1) * (1.0f / 12) +
               gray(x, y - 1) * (-2.0f / 12) + gray(x, y + 1) * (2.0f / 12) +
               gray(x + 1, y - 1) * (-1.0f / 12) + gray(x + 1, y + 1) * (1.0f / 12);
    ix(x, y) = gray(x - 1, y - 1) * (-1.0f / 12) + gray(x + 1, y - 1) * (1.0f / 12) +
               gray(x - 1, y) * (-2.0f / 12) + gray(x + 1, y) * (2.0f / 12) +
               gray(x - 1, y + 1) * (-1.0f / 12) + gray(x + 1, y + 1) * (1.0f / 12);

    Func ixx("Ixx"), iyy("Iyy"), ixy("Ixy");
    ixx(x, y) = ix(x, y) * ix(x, y);
    iyy(x, y) = iy(x, y) * iy(x, y);
    ixy(x, y) = ix(x, y) * iy(x, y);

    // The structure tensor summed over a 3x3 window, and the corner response.
    Func sxx = boxSum(ixx, "Sxx");
    Func syy = boxSum(iyy, "Syy");
    Func sxy = boxSum(ixy, "Sxy");
    Func det("det"), trace("trace"), harris("harris");
    det(x, y) = sxx(x, y) * syy(x, y) - sxy(x, y) * sxy(x, y);
    trace(x, y) = sxx(x, y) + syy(x, y);
    harris(x, y) = det(x, y) - k * trace(x, y) * trace(x, y);

    Func output("output");
    output(x, y) = harris(x + 2, y + 2);
    setOutputEstimates(output, {width, height});
    return makeInstance("harris", {output}, {input}, params);
}

} // namespace

AppDefinition harris() {
    return {"harris",
            "Harris corner detection: gradients, structure tensor, corner response",
            {{"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"}},
            buildHarris};
}

} // namespace beamscope::apps
