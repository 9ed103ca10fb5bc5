// bilateral_grid: edge-preserving blur by splatting into a 3-D grid, blurring it and slicing.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

PipelineInstance buildBilateralGrid(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const int sSigma = static_cast<int>(params.at("s_sigma"));
    const float rSigma = 0.1f;

    ImageParam input = estimatedInput(Float(32), "input", {width, height});
    Var x("x"), y("y"), z("z"), c("c");

    Func clamped = BoundaryConditions::repeat_edge(input);

    // Splat: every grid cell accumulates the intensities (c = 0) and a count (c = 1) of the
    // s_sigma x s_sigma pixels it covers, into the intensity bin of each pixel.
    Func histogram("histogram");
    RDom r(0, sSigma, 0, sSigma, "r");
    Expr val = clamped(x * sSigma + r.x - sSigma / 2, y * sSigma + r.y - sSigma / 2);
    val = clamp(val, 0.0f, 1.0f);
    Expr zi = cast<int>(val * (1.0f / rSigma) + 0.5f);
    histogram(x, y, z, c) = 0.0f;
    histogram(x, y, zi, c) += select(c == 0, val, 1.0f);

    // Blur the grid with a 1-4-6-4-1 filter along z, x and y.
    Func blurz("blurz"), blurx("blurx"), blury("blury");
    blurz(x, y, z, c) = histogram(x, y, z - 2, c) + 4.0f * histogram(x, y, z - 1, c) +
                        6.0f * histogram(x, y, z, c) + 4.0f * histogram(x, y, z + 1, c) +
                        histogram(x, y, z + 2, c);
    blurx(x, y, z, c) = blurz(x - 2, y, z, c) + 4.0f * blurz(x - 1, y, z, c) +
                        6.0f * blurz(x, y, z, c) + 4.0f * blurz(x + 1, y, z, c) +
                        blurz(x + 2, y, z, c);
    blury(x, y, z, c) = blurx(x, y - 2, z, c) + 4.0f * blurx(x, y - 1, z, c) +
                        6.0f * blurx(x, y, z, c) + 4.0f * blurx(x, y + 1, z, c) +
                        blurx(x, y + 2, z, c);

    // Slice: trilinear interpolation of the blurred grid at each pixel's position.
    Expr pixel = clamp(input(x, y), 0.0f, 1.0f);
    Expr zv = pixel * (1.0f / rSigma);
    Expr zInt = cast<int>(zv);
    Expr zFrac = zv - zInt;
    Expr xFrac = cast<float>(x % sSigma) / sSigma;
    Expr yFrac = cast<float>(y % sSigma) / sSigma;
    Expr xInt = x / sSigma;
    Expr yInt = y / sSigma;
    Func interpolated("interpolated");
    interpolated(x, y, c) =
        lerp(lerp(lerp(blury(xInt, yInt, zInt, c), blury(xInt + 1, yInt, zInt, c), xFrac),
                  lerp(blury(xInt, yInt + 1, zInt, c), blury(xInt + 1, yInt + 1, zInt, c), xFrac),
                  yFrac),
             lerp(lerp(blury(xInt, yInt, zInt + 1, c), blury(xInt + 1, yInt, zInt + 1, c), xFrac),
                  lerp(blury(xInt, yInt + 1, zInt + 1, c), blury(xInt + 1, yInt + 1, zInt + 1, c),
                       xFrac),
                  yFrac),
             zFrac);

    // Normalize by the interpolated count.
    Func output("bilateral_grid");
    output(x, y) = interpolated(x, y, 0) / interpolated(x, y, 1);
    setOutputEstimates(output, {width, height});
    return makeInstance("bilateral_grid", {output}, {input}, params);
}

} // namespace

AppDefinition bilateralGrid() {
    return {"bilateral_grid",
            "Bilateral filter through a bilateral grid: splat histogram, 3-D blur, slice",
            {{"width", 1536, 16, 1 << 16, "image width"},
             {"height", 2560, 16, 1 << 16, "image height"},
             {"s_sigma", 8, 1, 64, "spatial size of a grid cell in pixels"}},
            buildBilateralGrid};
}

} // namespace beamscope::apps
