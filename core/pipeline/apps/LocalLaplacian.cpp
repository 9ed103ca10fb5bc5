// local_laplacian: detail enhancement by local Laplacian pyramids (Paris et al.), as Halide's app.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

// A 1-3-3-1 downsampling by two in x then y; extra dimensions pass through.
Halide::Func downsample(const Halide::Func &f, const std::string &name) {
    using namespace Halide;
    Var x("x"), y("y");
    Func downx(name + "_downx"), downy(name);
    downx(x, y, _) =
        (f(2 * x - 1, y, _) + 3.0f * (f(2 * x, y, _) + f(2 * x + 1, y, _)) + f(2 * x + 2, y, _)) /
        8.0f;
    downy(x, y, _) =
        (downx(x, 2 * y - 1, _) + 3.0f * (downx(x, 2 * y, _) + downx(x, 2 * y + 1, _)) +
         downx(x, 2 * y + 2, _)) /
        8.0f;
    return downy;
}

// A linear upsampling by two in x then y; extra dimensions pass through.
Halide::Func upsample(const Halide::Func &f, const std::string &name) {
    using namespace Halide;
    Var x("x"), y("y");
    Func upx(name + "_upx"), upy(name);
    upx(x, y, _) = lerp(f((x + 1) / 2, y, _), f((x - 1) / 2, y, _), ((x % 2) * 2 + 1) / 4.0f);
    upy(x, y, _) = lerp(upx(x, (y + 1) / 2, _), upx(x, (y - 1) / 2, _), ((y % 2) * 2 + 1) / 4.0f);
    return upy;
}

PipelineInstance buildLocalLaplacian(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const int levels = static_cast<int>(params.at("levels"));
    const int intensityLevels = static_cast<int>(params.at("intensity_levels"));
    const float alpha = 1.0f / (intensityLevels - 1);
    const float beta = 1.0f;

    ImageParam input = estimatedInput(UInt(16), "input", {width, height, 3});
    Var x("x"), y("y"), c("c"), k("k");

    // The remapping function, tabulated: a detail-boosting curve around each intensity level.
    Func remap("remap");
    Expr fx = cast<float>(x) / 256.0f;
    remap(x) = alpha * fx * exp(-fx * fx / 2.0f);

    Func clamped = BoundaryConditions::repeat_edge(input);
    Func floating("floating");
    floating(x, y, c) = clamped(x, y, c) / 65535.0f;
    Func gray("gray");
    gray(x, y) =
        0.299f * floating(x, y, 0) + 0.587f * floating(x, y, 1) + 0.114f * floating(x, y, 2);

    // One processed copy of the image per intensity level k, and its Gaussian pyramid.
    std::vector<Func> gPyramid(levels);
    gPyramid[0] = Func("gPyramid_0");
    Expr level = k * (1.0f / (intensityLevels - 1));
    Expr idx = gray(x, y) * cast<float>(intensityLevels - 1) * 256.0f;
    idx = clamp(cast<int>(idx), 0, (intensityLevels - 1) * 256);
    gPyramid[0](x, y, k) = beta * (gray(x, y) - level) + level + remap(idx - 256 * k);
    for (int j = 1; j < levels; ++j) {
        gPyramid[j] = downsample(gPyramid[j - 1], "gPyramid_" + std::to_string(j));
    }

    // The Laplacian pyramid of each processed copy.
    std::vector<Func> lPyramid(levels);
    lPyramid[levels - 1] = gPyramid[levels - 1];
    for (int j = levels - 2; j >= 0; --j) {
        Func up = upsample(gPyramid[j + 1], "gPyramid_up_" + std::to_string(j));
        lPyramid[j] = Func("lPyramid_" + std::to_string(j));
        lPyramid[j](x, y, k) = gPyramid[j](x, y, k) - up(x, y, k);
    }

    // The Gaussian pyramid of the input's luminance.
    std::vector<Func> inGPyramid(levels);
    inGPyramid[0] = Func("inGPyramid_0");
    inGPyramid[0](x, y) = gray(x, y);
    for (int j = 1; j < levels; ++j) {
        inGPyramid[j] = downsample(inGPyramid[j - 1], "inGPyramid_" + std::to_string(j));
    }

    // The output Laplacian pyramid: at each level, pick between the two processed copies
    // whose intensity levels bracket the input's luminance there.
    std::vector<Func> outLPyramid(levels);
    for (int j = 0; j < levels; ++j) {
        outLPyramid[j] = Func("outLPyramid_" + std::to_string(j));
        Expr li = clamp(inGPyramid[j](x, y) * (intensityLevels - 1), 0.0f,
                        cast<float>(intensityLevels - 1));
        Expr liInt = clamp(cast<int>(li), 0, intensityLevels - 2);
        Expr liFrac = li - liInt;
        outLPyramid[j](x, y) =
            (1.0f - liFrac) * lPyramid[j](x, y, liInt) + liFrac * lPyramid[j](x, y, liInt + 1);
    }

    // Collapse the output pyramid.
    std::vector<Func> outGPyramid(levels);
    outGPyramid[levels - 1] = outLPyramid[levels - 1];
    for (int j = levels - 2; j >= 0; --j) {
        Func up = upsample(outGPyramid[j + 1], "outGPyramid_up_" + std::to_string(j));
        outGPyramid[j] = Func("outGPyramid_" + std::to_string(j));
        outGPyramid[j](x, y) = up(x, y) + outLPyramid[j](x, y);
    }

    // Reintroduce colour by the ratio of the new luminance to the old.
    const float eps = 0.01f;
    Func color("color");
    color(x, y, c) = outGPyramid[0](x, y) * (floating(x, y, c) + eps) / (gray(x, y) + eps);
    Func output("local_laplacian");
    output(x, y, c) = cast<uint16_t>(clamp(color(x, y, c), 0.0f, 1.0f) * 65535.0f);
    setOutputEstimates(output, {width, height, 3});
    return makeInstance("local_laplacian", {output}, {input}, params);
}

} // namespace

AppDefinition localLaplacian() {
    return {"local_laplacian",
            "Local Laplacian filter: per-intensity Gaussian/Laplacian pyramids, then collapse",
            {{"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"},
             {"levels", 8, 2, 16, "number of pyramid levels"},
             {"intensity_levels", 8, 2, 64, "number of intensity levels processed"}},
            buildLocalLaplacian};
}

} // namespace beamscope::apps
