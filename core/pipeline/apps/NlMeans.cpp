// nl_means: non-local means denoising, weighting a search window by patch distances.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

PipelineInstance buildNlMeans(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const int patchSize = static_cast<int>(params.at("patch_size"));
    const int searchArea = static_cast<int>(params.at("search_area"));
    const float sigma = 0.12f;

    ImageParam input = estimatedInput(Float(32), "input", {width, height, 3});
    Var x("x"), y("y"), c("c"), dx("dx"), dy("dy");

    Func clamped = BoundaryConditions::repeat_edge(input);
    const float invSigmaSq = -1.0f / (sigma * sigma * patchSize * patchSize);

    // Squared difference of each pixel with its (dx, dy) neighbour, per channel, then summed.
    Func diff("d");
    diff(x, y, dx, dy, c) = pow(clamped(x, y, c) - clamped(x + dx, y + dy, c), 2);
    Func diffSum("dc");
    RDom channels(0, 3, "channels");
    diffSum(x, y, dx, dy) = 0.0f;
    diffSum(x, y, dx, dy) += diff(x, y, dx, dy, channels);

    // Box-sum the differences over the patch, separably.
    RDom patchDom(-(patchSize / 2), patchSize, "patch_dom");
    Func blurDiffY("blur_d_y");
    blurDiffY(x, y, dx, dy) = 0.0f;
    blurDiffY(x, y, dx, dy) += diffSum(x, y + patchDom, dx, dy);
    Func blurDiff("blur_d");
    blurDiff(x, y, dx, dy) = 0.0f;
    blurDiff(x, y, dx, dy) += blurDiffY(x + patchDom, y, dx, dy);

    // Weight of each offset in the search window.
    Func weight("w");
    weight(x, y, dx, dy) = fast_exp(blurDiff(x, y, dx, dy) * invSigmaSq);

    // Weighted sum of the neighbours (c < 3) and of the weights (c == 3).
    RDom searchDom(-(searchArea / 2), searchArea, -(searchArea / 2), searchArea, "s_dom");
    Func nlmSum("non_local_means_sum");
    nlmSum(x, y, c) = 0.0f;
    nlmSum(x, y, c) += weight(x, y, searchDom.x, searchDom.y) *
                       select(c < 3, clamped(x + searchDom.x, y + searchDom.y, c), 1.0f);

    Func output("non_local_means");
    output(x, y, c) = clamp(nlmSum(x, y, c) / nlmSum(x, y, 3), 0.0f, 1.0f);
    setOutputEstimates(output, {width, height, 3});
    return makeInstance("nl_means", {output}, {input}, params);
}

} // namespace

AppDefinition nlMeans() {
    return {"nl_means",
            "Non-local means denoising over a search window of patch-distance weights",
            {{"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"},
             {"patch_size", 7, 1, 31, "side of the compared patches"},
             {"search_area", 7, 1, 31, "side of the search window"}},
            buildNlMeans};
}

} // namespace beamscope::apps
