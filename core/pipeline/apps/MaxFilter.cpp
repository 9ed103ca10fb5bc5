// max_filter: a circular max filter, from a log-step vertical max pyramid and a horizontal max.
#include "pipeline/apps/Apps.h"

#include <cmath>

namespace beamscope::apps {

namespace {

PipelineInstance buildMaxFilter(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const int radius = static_cast<int>(params.at("radius"));

    ImageParam input = estimatedInput(Float(32), "input", {width, height, 3});
    Var x("x"), y("y"), c("c"), t("t");

    Func clamped = BoundaryConditions::repeat_edge(input);

    // Number of slices: slice t is a vertical max over 2^t pixels.
    int slices = 1;
    while ((1 << (slices - 1)) < radius)
        ++slices;
    ++slices;
    // The widest window, 2 (radius + 1) + 1 rows, needs slice floor(log2(2 radius + 3)): one
    // more than the above for radius 1.
    while ((1 << (slices - 1)) * 2 <= 2 * radius + 3)
        ++slices;

    // vert_log(x, y, c, t) = max of clamped over [y, y + 2^t), built slice by slice.
    Func vertLog("vert_log");
    vertLog(x, y, c, t) = clamped(x, y, c);
    RDom r(-radius - 1, static_cast<int>(height) + 2 * radius + 2, 1, slices - 1, "r");
    Expr step = clamp(Expr(1) << (r.y - 1), 0, 1 << (slices - 2));
    vertLog(x, r.x, c, r.y) = max(vertLog(x, r.x, c, r.y - 1), vertLog(x, r.x + step, c, r.y - 1));

    // Which slice covers a window of radius t: floor(log2(2t + 1)).
    Func sliceForRadius("slice_for_radius");
    sliceForRadius(t) = cast<int>(floor(log(2 * t + 1) / std::log(2.0f)));

    // Every vertically max-filtered version, of radius t: two overlapping slice samples.
    Func vert("vert");
    Expr slice = clamp(sliceForRadius(t), 0, slices - 1);
    Expr firstSample = vertLog(x, y - t, c, slice);
    // The two samples of 2^slice rows start at y - t and end at y + t. (Halide's app clamps
    // 2^slice to 2 radius, which for a radius of 2^k - 1 stretches the window of the centre
    // columns, t = radius + 1, past y + t; tests/core/references/MaxFilterReference.cpp.)
    Expr secondSample = vertLog(x, y + t + 1 - (Expr(1) << slice), c, slice);
    vert(x, y, c, t) = max(firstSample, secondSample);

    // The height of the circle at each horizontal offset.
    Func filterHeight("filter_height");
    RDom dy(0, radius + 1, "dy");
    filterHeight(x) = 0;
    filterHeight(x) += select(x * x + dy * dy < (radius + 0.25f) * (radius + 0.25f), 1, 0);

    // Horizontal max of the right vertical max for each offset.
    RDom dx(-radius, 2 * radius + 1, "dx");
    Func output("output");
    output(x, y, c) = Float(32).min();
    output(x, y, c) =
        max(output(x, y, c), vert(x + dx, y, c, clamp(filterHeight(dx), 0, radius + 1)));
    setOutputEstimates(output, {width, height, 3});
    return makeInstance("max_filter", {output}, {input}, params);
}

} // namespace

AppDefinition maxFilter() {
    return {"max_filter",
            "Circular max filter: log-step vertical max slices and a horizontal max",
            {{"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"},
             {"radius", 26, 1, 256, "filter radius in pixels"}},
            buildMaxFilter};
}

} // namespace beamscope::apps
