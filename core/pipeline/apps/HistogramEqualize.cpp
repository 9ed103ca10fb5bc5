// histogram_equalize: equalizes the luminance histogram of an RGB image (Halide's apps/hist).
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

PipelineInstance buildHistogramEqualize(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");

    ImageParam input = estimatedInput(UInt(8), "input", {width, height, 3});
    Var x("x"), y("y"), c("c");

    // Convert to YCrCb.
    Expr r = cast<float>(input(x, y, 0));
    Expr g = cast<float>(input(x, y, 1));
    Expr b = cast<float>(input(x, y, 2));
    Func luma("Y"), cr("Cr"), cb("Cb");
    luma(x, y) = 0.299f * r + 0.587f * g + 0.114f * b;
    cr(x, y) = (r - luma(x, y)) * 0.713f + 128;
    cb(x, y) = (b - luma(x, y)) * 0.564f + 128;

    // The luminance bin, in integer arithmetic: a float luminance right on a bin boundary can
    // land in either bin depending on the device's rounding (e.g. fused multiply-adds on a GPU),
    // and one bin more or less moves the equalized value by several levels.
    Func lumaBin("luma_bin");
    Expr ri = cast<int>(input(x, y, 0)), gi = cast<int>(input(x, y, 1)), bi = cast<int>(input(x, y, 2));
    lumaBin(x, y) = clamp((299 * ri + 587 * gi + 114 * bi + 500) / 1000, 0, 255);

    // Histogram of the luminance: per row (a scatter), then over the rows.
    Func histRows("hist_rows");
    histRows(x, y) = 0;
    RDom rx(0, static_cast<int>(width), "rx");
    Expr bin = lumaBin(rx, y);
    histRows(bin, y) += 1;

    Func hist("hist");
    hist(x) = 0;
    RDom ry(0, static_cast<int>(height), "ry");
    hist(x) += histRows(x, ry);

    // Its prefix sum, a sequential scan.
    Func cdf("cdf");
    cdf(x) = hist(0);
    RDom scan(1, 255, "scan");
    cdf(scan.x) = cdf(scan.x - 1) + hist(scan.x);

    // Remap the luminance through the normalized CDF.
    Func eq("equalized");
    eq(x, y) = clamp(cdf(lumaBin(x, y)) * (255.0f / (height * width)), 0, 255);

    // Back to RGB.
    Expr red = eq(x, y) + (cr(x, y) - 128) * 1.4f;
    Expr green = eq(x, y) - 0.343f * (cb(x, y) - 128) - 0.711f * (cr(x, y) - 128);
    Expr blue = eq(x, y) + 1.765f * (cb(x, y) - 128);
    Func output("output");
    output(x, y, c) = cast<uint8_t>(clamp(select(c == 0, red, c == 1, green, blue), 0, 255));
    setOutputEstimates(output, {width, height, 3});
    return makeInstance("histogram_equalize", {output}, {input}, params);
}

} // namespace

AppDefinition histogramEqualize() {
    return {"histogram_equalize",
            "Histogram equalization of the luminance: scatter histogram, scan CDF, remap",
            {{"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"}},
            buildHistogramEqualize};
}

} // namespace beamscope::apps
