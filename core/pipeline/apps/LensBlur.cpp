// lens_blur: depth from a stereo pair (cost volume, push-pull pyramid), then synthetic bokeh.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

constexpr int kPyramidLevels = 8;

// A 1-3-3-1 downsampling by two in x then y; extra dimensions pass through.
Halide::Func pyramidDown(const Halide::Func &f, const std::string &name) {
    using namespace Halide;
    Var x("x"), y("y");
    Func downx(name + "_downx"), downy(name + "_downy");
    downx(x, y, _) =
        (f(2 * x - 1, y, _) + 3.0f * (f(2 * x, y, _) + f(2 * x + 1, y, _)) + f(2 * x + 2, y, _)) /
        8.0f;
    downy(x, y, _) =
        (downx(x, 2 * y - 1, _) + 3.0f * (downx(x, 2 * y, _) + downx(x, 2 * y + 1, _)) +
         downx(x, 2 * y + 2, _)) /
        8.0f;
    return downy;
}

// A 1/4-3/4 upsampling by two in x then y; extra dimensions pass through.
Halide::Func pyramidUp(const Halide::Func &f, const std::string &name) {
    using namespace Halide;
    Var x("x"), y("y");
    Func upx(name + "_upx"), upy(name + "_upy");
    upx(x, y, _) = 0.25f * f((x / 2) - 1 + 2 * (x % 2), y, _) + 0.75f * f(x / 2, y, _);
    upy(x, y, _) = 0.25f * upx(x, (y / 2) - 1 + 2 * (y % 2), _) + 0.75f * upx(x, y / 2, _);
    return upy;
}

// A deterministic hash of integer coordinates to [0, 1), standing in for random_float().
Halide::Expr hashToUnit(Halide::Expr a, Halide::Expr b, Halide::Expr seed) {
    using namespace Halide;
    auto u32 = [](uint32_t value) { return Expr(value); };
    Expr h = cast<uint32_t>(a) * u32(0x9E3779B1u) + cast<uint32_t>(b) * u32(0x85EBCA77u) +
             cast<uint32_t>(seed) * u32(0xC2B2AE3Du);
    h = (h ^ (h >> 15)) * u32(0x2C1B3C6Du);
    h = h ^ (h >> 12);
    return cast<float>(h & 0xFFFFFF) / float(1 << 24);
}

PipelineInstance buildLensBlur(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const int slices = static_cast<int>(params.at("slices"));
    const int apertureSamples = static_cast<int>(params.at("aperture_samples"));
    const int maxBlurRadius = static_cast<int>(params.at("max_blur_radius"));
    const float focusDepth = 13.0f;
    const float blurRadiusScale = 0.5f;

    ImageParam leftIm = estimatedInput(UInt(8), "left_im", {width, height, 3});
    ImageParam rightIm = estimatedInput(UInt(8), "right_im", {width, height, 3});
    Var x("x"), y("y"), z("z"), c("c");

    // Edge-repeating views of the two images, named: BoundaryConditions::repeat_edge names both
    // of its Funcs "repeat_edge", and an exported schedule finds Funcs by name.
    Func left = repeatEdge(leftIm, "left");
    Func right = repeatEdge(rightIm, "right");

    // Stereo cost volume: per disparity slice z, the colour mismatch of left and right.
    Func diff("diff");
    diff(x, y, z, c) = min(absd(left(x, y, c), right(x + 2 * z, y, c)),
                           absd(left(x, y, c), right(x + 2 * z + 1, y, c)));
    Func cost("cost");
    cost(x, y, z) = pow(cast<float>(diff(x, y, z, 0)), 2) + pow(cast<float>(diff(x, y, z, 1)), 2) +
                    pow(cast<float>(diff(x, y, z, 2)), 2);

    // Confidence of each pixel's cost: its variance across the slices.
    RDom rSlices(0, slices, "r_slices");
    Func costSumSq("cost_sum_sq"), costSum("cost_sum"), costConfidence("cost_confidence");
    costSumSq(x, y) = 0.0f;
    costSumSq(x, y) += pow(cost(x, y, rSlices), 2);
    costSum(x, y) = 0.0f;
    costSum(x, y) += cost(x, y, rSlices);
    costConfidence(x, y) = costSumSq(x, y) / slices - pow(costSum(x, y) / slices, 2);

    // Push-pull: a confidence-weighted pyramid of the cost volume inpaints weak regions.
    std::vector<Func> push(kPyramidLevels), pull(kPyramidLevels);
    push[0] = Func("cost_pyramid_push_0");
    push[0](x, y, z, c) =
        select(c == 0, cost(x, y, z) * costConfidence(x, y), costConfidence(x, y));
    for (int i = 1; i < kPyramidLevels; ++i) {
        const std::string name = "cost_pyramid_push_" + std::to_string(i);
        Func down = pyramidDown(push[i - 1], name);
        Expr levelWidth = max(leftIm.width() >> i, 1);
        Expr levelHeight = max(leftIm.height() >> i, 1);
        push[i] = Func(name);
        push[i](x, y, z, c) = down(clamp(x, 0, levelWidth - 1), clamp(y, 0, levelHeight - 1), z, c);
    }
    pull[kPyramidLevels - 1] = Func("cost_pyramid_pull_" + std::to_string(kPyramidLevels - 1));
    pull[kPyramidLevels - 1](x, y, z, c) = push[kPyramidLevels - 1](x, y, z, c);
    for (int i = kPyramidLevels - 2; i >= 0; --i) {
        const std::string name = "cost_pyramid_pull_" + std::to_string(i);
        Func up = pyramidUp(pull[i + 1], name);
        pull[i] = Func(name);
        pull[i](x, y, z, c) = lerp(up(x, y, z, c), push[i](x, y, z, c), 0.5f);
    }
    Func filteredCost("filtered_cost");
    filteredCost(x, y, z) = pull[0](x, y, z, 0) / pull[0](x, y, z, 1);

    // Depth: the slice of minimum filtered cost (an argmin as two reductions).
    Func minCost("min_cost");
    minCost(x, y) = Float(32).max();
    minCost(x, y) = min(minCost(x, y), filteredCost(x, y, rSlices));
    Func depth("depth");
    depth(x, y) = slices - 1;
    depth(x, y) = select(filteredCost(x, y, rSlices) <= minCost(x, y), min(depth(x, y), rSlices.x),
                         depth(x, y));

    Func bokehRadius("bokeh_radius");
    bokehRadius(x, y) = abs(cast<float>(depth(x, y)) - focusDepth) * blurRadiusScale;
    Func bokehRadiusSquared("bokeh_radius_squared");
    bokehRadiusSquared(x, y) = pow(bokehRadius(x, y), 2);

    // Worst-case bokeh radius around each pixel: a separable max filter.
    Func worstY("worst_case_bokeh_radius_y"), worst("worst_case_bokeh_radius");
    RDom rMax(-maxBlurRadius, 2 * maxBlurRadius + 1, "r_max");
    worstY(x, y) = 0.0f;
    worstY(x, y) = max(worstY(x, y), bokehRadius(x, y + rMax));
    worst(x, y) = 0.0f;
    worst(x, y) = max(worst(x, y), worstY(x + rMax, y));

    Func inputWithAlpha("input_with_alpha");
    inputWithAlpha(x, y, c) =
        select(c == 0, cast<float>(left(x, y, 0)), c == 1, cast<float>(left(x, y, 1)), c == 2,
               cast<float>(left(x, y, 2)), 255.0f);

    // Pseudo-random sample offsets within the worst-case radius, per pixel and sample z.
    Expr worstRadius = worst(x, y);
    Expr u = (hashToUnit(x, y, 2 * z) - 0.5f) * 2.0f * worstRadius;
    Expr v = (hashToUnit(x, y, 2 * z + 1) - 0.5f) * 2.0f * worstRadius;
    Func sampleU("sample_u"), sampleV("sample_v");
    sampleU(x, y, z) = clamp(cast<int>(u), -maxBlurRadius, maxBlurRadius);
    sampleV(x, y, z) = clamp(cast<int>(v), -maxBlurRadius, maxBlurRadius);

    // A sample counts if its bokeh covers this pixel, or it lies in front, and this pixel's
    // bokeh reaches it.
    Expr su = sampleU(x, y, z), sv = sampleV(x, y, z);
    Expr sx = x + su, sy = y + sv;
    Expr r = cast<float>(su * su + sv * sv);
    Expr sampleCovers = r < bokehRadiusSquared(sx, sy);
    Expr sampleInFront = depth(sx, sy) < depth(x, y);
    Expr pixelReaches = r < bokehRadiusSquared(x, y);
    Func sampleWeight("sample_weight");
    sampleWeight(x, y, z) = select((sampleCovers || sampleInFront) && pixelReaches, 1.0f, 0.0f);

    // Render: accumulate weighted samples (colour and alpha), then normalize by alpha.
    RDom s(0, apertureSamples, "s");
    Func blurred("blurred");
    blurred(x, y, c) = inputWithAlpha(x, y, c);
    blurred(x, y, c) +=
        sampleWeight(x, y, s) * inputWithAlpha(x + sampleU(x, y, s), y + sampleV(x, y, s), c);
    Func output("lens_blur");
    output(x, y, c) = blurred(x, y, c) / blurred(x, y, 3);
    setOutputEstimates(output, {width, height, 3});
    return makeInstance("lens_blur", {output}, {leftIm, rightIm}, params);
}

} // namespace

AppDefinition lensBlur() {
    return {"lens_blur",
            "Synthetic defocus from a stereo pair: cost volume, push-pull, depth, bokeh",
            {{"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"},
             {"slices", 32, 2, 256, "number of disparity slices"},
             {"aperture_samples", 32, 1, 256, "bokeh samples per pixel"},
             {"max_blur_radius", 8, 1, 64, "largest bokeh radius in pixels"}},
            buildLensBlur};
}

} // namespace beamscope::apps
