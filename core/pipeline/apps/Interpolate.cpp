// interpolate: multiscale interpolation of an RGBA image's missing (transparent) pixels.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

PipelineInstance buildInterpolate(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const int levels = static_cast<int>(params.at("levels"));

    ImageParam input = estimatedInput(Float(32), "input", {width, height, 4});
    Var x("x"), y("y"), c("c");

    Func clamped = BoundaryConditions::repeat_edge(input);

    // Premultiply by alpha, then downsample with a 1-2-1 filter, level by level.
    std::vector<Func> downsampled(levels);
    downsampled[0] = Func("downsampled_0");
    downsampled[0](x, y, c) = select(c < 3, clamped(x, y, c) * clamped(x, y, 3), clamped(x, y, 3));
    for (int l = 1; l < levels; ++l) {
        Func prev = downsampled[l - 1];
        if (l == 4) {
            // A boundary condition midway keeps the footprint of the deeper levels from
            // reaching far beyond the image.
            Expr w = input.width() / (1 << l), h = input.height() / (1 << l);
            Func clampedLevel("clamped_level_" + std::to_string(l));
            clampedLevel(x, y, c) = prev(clamp(x, 0, w), clamp(y, 0, h), c);
            prev = clampedLevel;
        }
        Func downx("downx_" + std::to_string(l));
        downx(x, y, c) =
            (prev(x * 2 - 1, y, c) + 2.0f * prev(x * 2, y, c) + prev(x * 2 + 1, y, c)) * 0.25f;
        downsampled[l] = Func("downsampled_" + std::to_string(l));
        downsampled[l](x, y, c) =
            (downx(x, y * 2 - 1, c) + 2.0f * downx(x, y * 2, c) + downx(x, y * 2 + 1, c)) * 0.25f;
    }

    // Upsample from the coarsest level, filling each level's holes from the level below.
    std::vector<Func> interpolated(levels);
    interpolated[levels - 1] = downsampled[levels - 1];
    for (int l = levels - 2; l >= 0; --l) {
        Func upsampledX("upsampledx_" + std::to_string(l));
        upsampledX(x, y, c) =
            (interpolated[l + 1](x / 2, y, c) + interpolated[l + 1]((x + 1) / 2, y, c)) / 2.0f;
        Func upsampled("upsampled_" + std::to_string(l));
        upsampled(x, y, c) = (upsampledX(x, y / 2, c) + upsampledX(x, (y + 1) / 2, c)) / 2.0f;
        Expr alpha = 1.0f - downsampled[l](x, y, 3);
        interpolated[l] = Func("interpolated_" + std::to_string(l));
        interpolated[l](x, y, c) = downsampled[l](x, y, c) + alpha * upsampled(x, y, c);
    }

    // Un-premultiply.
    Func normalize("normalize");
    normalize(x, y, c) = interpolated[0](x, y, c) / interpolated[0](x, y, 3);
    Func output("output");
    output(x, y, c) = normalize(x, y, c);
    setOutputEstimates(output, {width, height, 3});
    return makeInstance("interpolate", {output}, {input}, params);
}

} // namespace

AppDefinition interpolate() {
    return {"interpolate",
            "Multiscale interpolation: premultiplied alpha pyramid down, then fill holes going up",
            {{"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"},
             {"levels", 10, 2, 16, "number of pyramid levels"}},
            buildInterpolate};
}

} // namespace beamscope::apps
