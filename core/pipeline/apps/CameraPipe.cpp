// camera_pipe: raw Bayer data to an 8-bit RGB image (denoise, demosaic, colour, curve, sharpen).
#include "pipeline/apps/Apps.h"

#include <cmath>

namespace beamscope::apps {

namespace {

// Rounding average of two 16-bit values, computed in 32 bits.
Halide::Expr avg(Halide::Expr a, Halide::Expr b) {
    using namespace Halide;
    return cast<int16_t>((cast<int32_t>(a) + cast<int32_t>(b) + 1) >> 1);
}

// Interleaves two Funcs column by column (a on even x, b on odd x).
Halide::Func interleaveX(const Halide::Func &a, const Halide::Func &b, const std::string &name) {
    using namespace Halide;
    Var x("x"), y("y");
    Func out(name);
    out(x, y) = select((x % 2) == 0, a(x / 2, y), b(x / 2, y));
    return out;
}

// Interleaves two Funcs row by row (a on even y, b on odd y).
Halide::Func interleaveY(const Halide::Func &a, const Halide::Func &b, const std::string &name) {
    using namespace Halide;
    Var x("x"), y("y");
    Func out(name);
    out(x, y) = select((y % 2) == 0, a(x, y / 2), b(x, y / 2));
    return out;
}

// Edge-aware demosaic of the four deinterleaved Bayer planes into r, g, b at full resolution.
Halide::Func demosaic(const Halide::Func &deinterleaved) {
    using namespace Halide;
    Var x("x"), y("y"), c("c");
    // x_y: channel x at a site of colour y; gr/gb: green sites in red/blue rows.
    Func gGr("g_gr"), rR("r_r"), bB("b_b"), gGb("g_gb");
    gGr(x, y) = deinterleaved(x, y, 0);
    rR(x, y) = deinterleaved(x, y, 1);
    bB(x, y) = deinterleaved(x, y, 2);
    gGb(x, y) = deinterleaved(x, y, 3);

    // Green at red and blue sites: interpolate in the direction of least change.
    Func gR("g_r"), gB("g_b");
    Expr gvR = avg(gGb(x, y - 1), gGb(x, y)), gvdR = absd(gGb(x, y - 1), gGb(x, y));
    Expr ghR = avg(gGr(x + 1, y), gGr(x, y)), ghdR = absd(gGr(x + 1, y), gGr(x, y));
    gR(x, y) = select(ghdR < gvdR, ghR, gvR);
    Expr gvB = avg(gGr(x, y + 1), gGr(x, y)), gvdB = absd(gGr(x, y + 1), gGr(x, y));
    Expr ghB = avg(gGb(x - 1, y), gGb(x, y)), ghdB = absd(gGb(x - 1, y), gGb(x, y));
    gB(x, y) = select(ghdB < gvdB, ghB, gvB);

    // Red and blue at green sites, corrected by green's second derivative.
    Func rGr("r_gr"), bGr("b_gr"), rGb("r_gb"), bGb("b_gb");
    rGr(x, y) = gGr(x, y) - avg(gR(x, y), gR(x - 1, y)) + avg(rR(x - 1, y), rR(x, y));
    bGr(x, y) = gGr(x, y) - avg(gB(x, y), gB(x, y - 1)) + avg(bB(x, y), bB(x, y - 1));
    rGb(x, y) = gGb(x, y) - avg(gR(x, y), gR(x, y + 1)) + avg(rR(x, y), rR(x, y + 1));
    bGb(x, y) = gGb(x, y) - avg(gB(x, y), gB(x + 1, y)) + avg(bB(x, y), bB(x + 1, y));

    // Red at blue and blue at red: the better of the two diagonals, corrected likewise.
    Func rB("r_b"), bR("b_r");
    Expr rpB = gB(x, y) - avg(gR(x, y), gR(x - 1, y + 1)) + avg(rR(x, y), rR(x - 1, y + 1));
    Expr rpdB = absd(rR(x, y), rR(x - 1, y + 1));
    Expr rnB = gB(x, y) - avg(gR(x - 1, y), gR(x, y + 1)) + avg(rR(x - 1, y), rR(x, y + 1));
    Expr rndB = absd(rR(x - 1, y), rR(x, y + 1));
    rB(x, y) = select(rpdB < rndB, rpB, rnB);
    Expr bpR = gR(x, y) - avg(gB(x, y), gB(x + 1, y - 1)) + avg(bB(x, y), bB(x + 1, y - 1));
    Expr bpdR = absd(bB(x, y), bB(x + 1, y - 1));
    Expr bnR = gR(x, y) - avg(gB(x + 1, y), gB(x, y - 1)) + avg(bB(x + 1, y), bB(x, y - 1));
    Expr bndR = absd(bB(x + 1, y), bB(x, y - 1));
    bR(x, y) = select(bpdR < bndR, bpR, bnR);

    Func r = interleaveY(interleaveX(rGr, rR, "r_top"), interleaveX(rB, rGb, "r_bottom"), "r");
    Func g = interleaveY(interleaveX(gGr, gR, "g_top"), interleaveX(gB, gGb, "g_bottom"), "g");
    Func b = interleaveY(interleaveX(bGr, bR, "b_top"), interleaveX(bB, bGb, "b_bottom"), "b");
    Func demosaiced("demosaiced");
    demosaiced(x, y, c) = select(c == 0, r(x, y), c == 1, g(x, y), b(x, y));
    return demosaiced;
}

PipelineInstance buildCameraPipe(const AppParams &params) {
    using namespace Halide;
    const int64_t width = params.at("width");
    const int64_t height = params.at("height");
    const float colorTemp = 3700.0f, gamma = 2.0f, contrast = 50.0f, sharpenStrength = 1.0f;
    const int blackLevel = 25, whiteLevel = 1023;

    // The raw input carries a 16x12 border beyond the output on each side.
    ImageParam input = estimatedInput(UInt(16), "input", {width + 32, height + 48});
    ImageParam matrix3200 = estimatedInput(Float(32), "matrix_3200", {4, 3});
    ImageParam matrix7000 = estimatedInput(Float(32), "matrix_7000", {4, 3});
    Var x("x"), y("y"), c("c");

    Func shifted("shifted");
    shifted(x, y) = input(x + 16, y + 12);

    // Hot pixel suppression: clamp each pixel to the max of its same-colour neighbours.
    Func denoised("denoised");
    Expr neighbours =
        max(shifted(x - 2, y), shifted(x + 2, y), shifted(x, y - 2), shifted(x, y + 2));
    denoised(x, y) = clamp(shifted(x, y), 0, neighbours);

    Func deinterleaved("deinterleaved");
    deinterleaved(x, y, c) =
        cast<int16_t>(select(c == 0, denoised(2 * x, 2 * y), c == 1, denoised(2 * x + 1, 2 * y),
                             c == 2, denoised(2 * x, 2 * y + 1), denoised(2 * x + 1, 2 * y + 1)));

    Func demosaiced = demosaic(deinterleaved);

    // Colour correction with a matrix interpolated for the colour temperature (Q8.8 fixed point).
    Func matrix("matrix");
    const float kelvin = (1.0f / colorTemp - 1.0f / 3200) / (1.0f / 7000 - 1.0f / 3200);
    matrix(x, y) =
        cast<int16_t>((matrix3200(x, y) * kelvin + matrix7000(x, y) * (1 - kelvin)) * 256.0f);
    Func corrected("corrected");
    Expr ir = cast<int32_t>(demosaiced(x, y, 0));
    Expr ig = cast<int32_t>(demosaiced(x, y, 1));
    Expr ib = cast<int32_t>(demosaiced(x, y, 2));
    Expr rc = matrix(3, 0) + matrix(0, 0) * ir + matrix(1, 0) * ig + matrix(2, 0) * ib;
    Expr gc = matrix(3, 1) + matrix(0, 1) * ir + matrix(1, 1) * ig + matrix(2, 1) * ib;
    Expr bc = matrix(3, 2) + matrix(0, 2) * ir + matrix(1, 2) * ig + matrix(2, 2) * ib;
    corrected(x, y, c) = cast<int16_t>(select(c == 0, rc, c == 1, gc, bc) / 256);

    // Tone curve (gamma and contrast) as a lookup table over the 10-bit range.
    Func curve("curve");
    {
        const float invRange = 1.0f / (whiteLevel - blackLevel);
        const float b = 2.0f - std::pow(2.0f, contrast / 100.0f);
        const float a = 2.0f - 2.0f * b;
        Expr xf = clamp(cast<float>(x - blackLevel) * invRange, 0.0f, 1.0f);
        Expr g = pow(xf, 1.0f / gamma);
        Expr zv = select(g > 0.5f, 1.0f - (a * (1.0f - g) * (1.0f - g) + b * (1.0f - g)),
                         a * g * g + b * g);
        Expr val = cast<uint8_t>(clamp(zv * 255.0f + 0.5f, 0.0f, 255.0f));
        curve(x) = select(x <= blackLevel, cast<uint8_t>(0),
                          select(x > whiteLevel, cast<uint8_t>(255), val));
    }
    Func curved("curved");
    curved(x, y, c) = curve(cast<int32_t>(clamp(corrected(x, y, c), 0, 1023)));

    // Sharpen: add back the difference from a 1-2-1 blur.
    Func unsharpY("unsharp_y"), unsharpX("unsharp_x"), sharpened("sharpened");
    unsharpY(x, y, c) = (cast<int16_t>(curved(x, y - 1, c)) + 2 * cast<int16_t>(curved(x, y, c)) +
                         cast<int16_t>(curved(x, y + 1, c))) /
                        4;
    unsharpX(x, y, c) = (unsharpY(x - 1, y, c) + 2 * unsharpY(x, y, c) + unsharpY(x + 1, y, c)) / 4;
    const int strength = static_cast<int>(sharpenStrength * 32);
    Expr detail = cast<int16_t>(curved(x, y, c)) - unsharpX(x, y, c);
    sharpened(x, y, c) =
        cast<uint8_t>(clamp(cast<int16_t>(curved(x, y, c)) + (detail * strength) / 32, 0, 255));

    Func output("camera_pipe");
    output(x, y, c) = sharpened(x, y, c);
    setOutputEstimates(output, {width, height, 3});
    return makeInstance("camera_pipe", {output}, {input, matrix3200, matrix7000}, params);
}

} // namespace

AppDefinition cameraPipe() {
    return {"camera_pipe",
            "Raw camera pipeline: hot-pixel suppression, demosaic, colour matrix, curve, sharpen",
            {{"width", 2560, 32, 1 << 16, "output width (even; the raw input is 32 wider)"},
             {"height", 1920, 32, 1 << 16, "output height (even; the raw input is 48 taller)"}},
            buildCameraPipe};
}

} // namespace beamscope::apps
