// bgu: bilateral guided upsampling: fit per-cell affine colour models on a grid, slice at full res.
#include "pipeline/apps/Apps.h"

namespace beamscope::apps {

namespace {

constexpr int kTerms = 4;        // sr, sg, sb, 1: the affine model's inputs
constexpr int kOutputs = 3;      // output colour channels
constexpr int kMatrixTerms = 10; // distinct entries of the symmetric 4x4 normal matrix
constexpr int kChannels = kMatrixTerms + kTerms * kOutputs; // accumulated grid channels

// Grid channel of entry (i, j) of the symmetric normal matrix, upper triangle row by row.
Halide::Expr matrixChannel(Halide::Expr i, Halide::Expr j) {
    using namespace Halide;
    Expr lo = min(i, j), hi = max(i, j);
    return lo * kTerms - lo * (lo - 1) / 2 + (hi - lo);
}

// The 1-4-6-4-1 blur of `f` along dimension `dim` of (x, y, z, c).
Halide::Func blur5(const Halide::Func &f, int dim, const std::string &name) {
    using namespace Halide;
    Var x("x"), y("y"), z("z"), c("c");
    auto at = [&](int offset) {
        std::vector<Expr> args = {x, y, z, c};
        args[dim] = args[dim] + offset;
        return f(args);
    };
    Func blurred(name);
    blurred(x, y, z, c) = at(-2) + 4.0f * at(-1) + 6.0f * at(0) + 4.0f * at(1) + at(2);
    return blurred;
}

PipelineInstance buildBgu(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const int64_t lowWidth = params.at("low_width");
    const int64_t lowHeight = params.at("low_height");
    const int sSigma = static_cast<int>(params.at("s_sigma"));
    const float rSigma = 1.0f / 8.0f;
    const int gridDepth = static_cast<int>(1.0f / rSigma + 0.5f) + 1;
    const float lambda = 1e-3f, epsilon = 1e-4f;

    ImageParam splatLoc = estimatedInput(Float(32), "splat_loc", {lowWidth, lowHeight, 3});
    ImageParam values = estimatedInput(Float(32), "values", {lowWidth, lowHeight, 3});
    ImageParam guide = estimatedInput(Float(32), "guide", {width, height, 3});
    Var x("x"), y("y"), z("z"), c("c"), i("i"), j("j");

    // Named edge-repeating views (two BoundaryConditions::repeat_edge Funcs would share the name
    // "repeat_edge", and an exported schedule finds Funcs by name).
    Func clampedValues = repeatEdge(values, "clamped_values");
    Func clampedSplatLoc = repeatEdge(splatLoc, "clamped_splat_loc");
    Func graySplatLoc("gray_splat_loc");
    graySplatLoc(x, y) = 0.25f * clampedSplatLoc(x, y, 0) + 0.5f * clampedSplatLoc(x, y, 1) +
                         0.25f * clampedSplatLoc(x, y, 2);
    Func grayGuide("gray_guide");
    grayGuide(x, y) = 0.25f * guide(x, y, 0) + 0.5f * guide(x, y, 1) + 0.25f * guide(x, y, 2);

    // Grid construction: each cell accumulates the normal equations of a least-squares fit of
    // the low-res output against the low-res input (s^T s and v s^T), in its intensity bin.
    Func histogram("histogram");
    RDom r(0, sSigma, 0, sSigma, "r");
    Expr sx = x * sSigma + r.x - sSigma / 2, sy = y * sSigma + r.y - sSigma / 2;
    Expr pos = clamp(graySplatLoc(sx, sy), 0.0f, 1.0f);
    Expr zi = cast<int>(round(pos * (1.0f / rSigma)));
    std::vector<Expr> s = {clampedSplatLoc(sx, sy, 0), clampedSplatLoc(sx, sy, 1),
                           clampedSplatLoc(sx, sy, 2), 1.0f};
    std::vector<Expr> v = {clampedValues(sx, sy, 0), clampedValues(sx, sy, 1),
                           clampedValues(sx, sy, 2)};
    std::vector<Expr> terms;
    for (int a = 0; a < kTerms; ++a) {
        for (int b = a; b < kTerms; ++b)
            terms.push_back(s[a] * s[b]);
    }
    for (int o = 0; o < kOutputs; ++o) {
        for (int a = 0; a < kTerms; ++a)
            terms.push_back(v[o] * s[a]);
    }
    histogram(x, y, z, c) = 0.0f;
    histogram(x, y, zi, c) += mux(c, terms);

    // Blur the grid in z, x and y.
    Func blurz = blur5(histogram, 2, "blurz");
    Func blurx = blur5(blurz, 0, "blurx");
    Func blury = blur5(blurx, 1, "blury");

    // Regularize towards a pure gain (output over input luminance) where data are scarce.
    Func gain("gain");
    Expr inputLuma = blury(x, y, z, matrixChannel(0, 3)) +
                     2.0f * blury(x, y, z, matrixChannel(1, 3)) +
                     blury(x, y, z, matrixChannel(2, 3));
    Expr outputLuma = blury(x, y, z, kMatrixTerms + 3) +
                      2.0f * blury(x, y, z, kMatrixTerms + kTerms + 3) +
                      blury(x, y, z, kMatrixTerms + 2 * kTerms + 3);
    gain(x, y, z) = (outputLuma + epsilon) / (inputLuma + epsilon);

    // The augmented system [A | B] per cell: 4 rows, 4 + 3 columns.
    Func augmented("augmented");
    {
        Expr count = blury(x, y, z, matrixChannel(3, 3));
        Expr aChannel = matrixChannel(i, min(j, kTerms - 1));
        Expr bChannel = kMatrixTerms + (j - kTerms) * kTerms + i;
        Expr channel = clamp(select(j < kTerms, aChannel, bChannel), 0, kChannels - 1);
        Expr weight = lambda * (count + 1.0f);
        Expr reg = select(i == j, weight, j - kTerms == i, weight * gain(x, y, z), 0.0f);
        augmented(x, y, z, i, j) = blury(x, y, z, channel) + reg;
    }

    // Gauss-Jordan elimination, one Func per pivot.
    Func solved = augmented;
    for (int k = 0; k < kTerms; ++k) {
        Func step("solve_pivot_" + std::to_string(k));
        Expr pivotRow = solved(x, y, z, k, j) / solved(x, y, z, k, k);
        step(x, y, z, i, j) =
            select(i == k, pivotRow, solved(x, y, z, i, j) - solved(x, y, z, i, k) * pivotRow);
        solved = step;
    }

    // The affine models: channel c = 4 o + t is the coefficient of term t for output o.
    Func line("line");
    line(x, y, z, c) = solved(x, y, z, c % kTerms, kTerms + c / kTerms);

    // Slicing: bilinear in x and y at full resolution, then linear in z at the guide's bin.
    const float toGridX = static_cast<float>(lowWidth) / (static_cast<float>(width) * sSigma);
    const float toGridY = static_cast<float>(lowHeight) / (static_cast<float>(height) * sSigma);
    Expr gx = (x + 0.5f) * toGridX, gy = (y + 0.5f) * toGridY;
    Expr xi = cast<int>(floor(gx)), yi = cast<int>(floor(gy));
    Expr xf = gx - xi, yf = gy - yi;
    Func upsampledX("upsampled_x");
    upsampledX(x, y, z, c) = lerp(line(xi, y, z, c), line(xi + 1, y, z, c), xf);
    Func upsampledY("upsampled_y");
    upsampledY(x, y, z, c) = lerp(upsampledX(x, yi, z, c), upsampledX(x, yi + 1, z, c), yf);

    Expr zv = clamp(grayGuide(x, y), 0.0f, 1.0f) * (1.0f / rSigma);
    Expr zInt = clamp(cast<int>(zv), 0, gridDepth - 2);
    Expr zFrac = zv - zInt;
    Func sliced("sliced");
    sliced(x, y, c) = lerp(upsampledY(x, y, zInt, c), upsampledY(x, y, zInt + 1, c), zFrac);

    // Apply each pixel's affine model to the full-resolution guide.
    Func output("output");
    output(x, y, c) = sliced(x, y, kTerms * c) * guide(x, y, 0) +
                      sliced(x, y, kTerms * c + 1) * guide(x, y, 1) +
                      sliced(x, y, kTerms * c + 2) * guide(x, y, 2) + sliced(x, y, kTerms * c + 3);
    setOutputEstimates(output, {width, height, 3});
    return makeInstance("bgu", {output}, {splatLoc, values, guide}, params);
}

} // namespace

AppDefinition bgu() {
    return {"bgu",
            "Bilateral guided upsampling: grid of affine fits (normal equations, solve), slice",
            {{"width", 1536, 16, 1 << 16, "full-resolution width (guide and output)"},
             {"height", 2560, 16, 1 << 16, "full-resolution height"},
             {"low_width", 192, 4, 1 << 16, "low-resolution width (splat_loc and values)"},
             {"low_height", 320, 4, 1 << 16, "low-resolution height"},
             {"s_sigma", 8, 1, 64, "grid cell size in low-resolution pixels"}},
            buildBgu};
}

} // namespace beamscope::apps
