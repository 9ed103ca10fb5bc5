// A generator library written the way users write theirs, for the end-to-end tests of pipelines
// that come from outside the catalog (tests/e2e/user_generators.sh, UserGeneratorsTest): scalar
// inputs of several types (with a default, a range, only an estimate, or nothing at all), two
// output buffers, a Tuple-valued output, 3-D and 4-D buffers of uint8, uint16, int32 and float,
// a data-dependent lookup-table gather, an RDom reduction with an update stage, an inline
// reduction, an up/down-sampling pyramid, boundary conditions, and accumulators with two updates
// or an RDom predicate over a pure Var. Estimates are small, so a benchmark run on an OpenCL CPU
// device takes seconds. Built against Beamscope's libHalide.
#include <Halide.h>

#include <vector>

namespace {

using namespace Halide;

/// 8-bit RGB through a sharpening stencil and a tone curve held in a 256-entry lookup table:
/// the colour image and a threshold mask of its luma are two separate outputs.
class UserToneMap : public Generator<UserToneMap> {
public:
    Input<Buffer<uint8_t, 3>> input{"input"};
    Input<float> gain{"gain", 0.9f, 0.0f, 4.0f}; ///< default and range
    Input<int32_t> offset{"offset", 6};          ///< default only
    Input<uint8_t> threshold{"threshold"};       ///< estimate only
    Input<bool> invert{"invert"};                ///< estimate only
    Output<Buffer<uint8_t, 3>> toned{"toned"};
    Output<Buffer<uint8_t, 2>> mask{"mask"};

    void generate() {
        Var x("x"), y("y"), c("c"), i("i");
        Func lut("lut");
        Expr curve = cast<float>(i) * gain + cast<float>(offset);
        lut(i) = cast<uint8_t>(clamp(select(invert, 255.0f - curve, curve), 0.0f, 255.0f));

        Func bounded = BoundaryConditions::mirror_image(input);
        Func sharpened("sharpened");
        Expr centre = cast<int16_t>(bounded(x, y, c));
        Expr around = cast<int16_t>(bounded(x - 1, y, c)) + bounded(x + 1, y, c) +
                      bounded(x, y - 1, c) + bounded(x, y + 1, c);
        sharpened(x, y, c) = cast<uint8_t>(clamp(centre * 2 - around / 4, 0, 255));

        Func mapped("mapped");
        mapped(x, y, c) = lut(cast<int32_t>(sharpened(x, y, c))); // data-dependent gather
        toned(x, y, c) = mapped(x, y, c);
        Expr luma = (cast<uint16_t>(mapped(x, y, 0)) * 77 + cast<uint16_t>(mapped(x, y, 1)) * 150 +
                     cast<uint16_t>(mapped(x, y, 2)) * 29) >>
                    8;
        mask(x, y) = select(luma > cast<uint16_t>(threshold), cast<uint8_t>(255), cast<uint8_t>(0));

        threshold.set_estimate(100);
        invert.set_estimate(false);
        input.set_estimates({{0, 96}, {0, 64}, {0, 3}});
        toned.set_estimates({{0, 96}, {0, 64}, {0, 3}});
        mask.set_estimates({{0, 96}, {0, 64}});
    }
};

/// Windowed statistics of a 16-bit multi-channel image: an RDom reduction with an update stage
/// (sum), an inline reduction (maximum), and one Tuple-valued output (sum as int32, scaled mean
/// as float).
class UserBoxStats : public Generator<UserBoxStats> {
public:
    GeneratorParam<int> radius{"radius", 2, 1, 8};
    Input<Buffer<uint16_t, 3>> input{"input"};
    Input<int16_t> bias{"bias", -3}; ///< default only
    Input<uint16_t> cap{"cap", 900}; ///< default only
    Input<float> scale{"scale"};     ///< no default and no estimate: the user must give it
    Output<Func> stats{"stats", {Int(32), Float(32)}, 3};
    Output<Buffer<int32_t, 3>> peak{"peak"};

    void generate() {
        Var x("x"), y("y"), c("c");
        Func bounded = BoundaryConditions::repeat_edge(input);
        Func capped("capped");
        capped(x, y, c) = min(bounded(x, y, c), cap);
        const int rad = radius;
        RDom r(-rad, 2 * rad + 1, -rad, 2 * rad + 1, "r");
        Func sum("sum");
        sum(x, y, c) = cast<int32_t>(bias);
        sum(x, y, c) += cast<int32_t>(capped(x + r.x, y + r.y, c));
        const int taps = (2 * rad + 1) * (2 * rad + 1);
        stats(x, y, c) = Tuple(sum(x, y, c), cast<float>(sum(x, y, c)) * scale / float(taps));
        peak(x, y, c) = maximum(cast<int32_t>(capped(x + r.x, y + r.y, c)));

        input.set_estimates({{0, 64}, {0, 48}, {0, 2}});
        stats.set_estimates({{0, 64}, {0, 48}, {0, 2}});
        peak.set_estimates({{0, 64}, {0, 48}, {0, 2}});
    }
};

/// A batch of float images (x, y, channel, batch) through a down- and up-sampling pyramid; the
/// output adds back the detail the pyramid lost, scaled by a float input.
class UserPyramid4d : public Generator<UserPyramid4d> {
public:
    GeneratorParam<int> levels{"levels", 2, 1, 4};
    Input<Buffer<float, 4>> input{"input"};
    Input<float> detail{"detail", 1.5f}; ///< default only
    Output<Buffer<float, 4>> output{"output"};

    void generate() {
        Var x("x"), y("y"), c("c"), n("n");
        Func clamped = BoundaryConditions::constant_exterior(input, 0.0f);
        std::vector<Func> down;
        down.emplace_back("down_0");
        down[0](x, y, c, n) = clamped(x, y, c, n);
        for (int l = 1; l <= levels; ++l) {
            const Func &prev = down.back();
            Func downX("down_x_" + std::to_string(l)), next("down_" + std::to_string(l));
            downX(x, y, c, n) = (prev(2 * x - 1, y, c, n) + 2.0f * prev(2 * x, y, c, n) +
                                 prev(2 * x + 1, y, c, n)) *
                                0.25f;
            next(x, y, c, n) = (downX(x, 2 * y - 1, c, n) + 2.0f * downX(x, 2 * y, c, n) +
                                downX(x, 2 * y + 1, c, n)) *
                               0.25f;
            down.push_back(next);
        }
        Func up = down.back();
        for (int l = levels - 1; l >= 0; --l) {
            Func upX("up_x_" + std::to_string(l)), next("up_" + std::to_string(l));
            upX(x, y, c, n) = 0.5f * (up((x - 1) / 2, y, c, n) + up((x + 1) / 2, y, c, n));
            next(x, y, c, n) = 0.5f * (upX(x, (y - 1) / 2, c, n) + upX(x, (y + 1) / 2, c, n));
            up = next;
        }
        output(x, y, c, n) = down[0](x, y, c, n) + detail * (down[0](x, y, c, n) - up(x, y, c, n));

        input.set_estimates({{0, 48}, {0, 32}, {0, 3}, {0, 2}});
        output.set_estimates({{0, 48}, {0, 32}, {0, 3}, {0, 2}});
    }
};

/// Two accumulators of the kind a thread may hold in registers: `acc` sums a 1-D window and then
/// rescales every point in a second update; `tri` sums a row prefix whose length depends on x
/// (an RDom predicate over a pure Var). The output reads both at its own point.
class UserAccumulators : public Generator<UserAccumulators> {
public:
    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        Var x("x"), y("y");
        RDom window(0, 8, "window");
        Func acc("acc");
        acc(x, y) = 0.0f;
        acc(x, y) += input(x + window, y) * 0.5f;
        acc(x, y) = acc(x, y) * 2.0f + 1.0f;
        RDom prefix(0, 16, "prefix");
        prefix.where(prefix <= x % 16);
        Func tri("tri");
        tri(x, y) = 0.0f;
        tri(x, y) += input(prefix, y);
        output(x, y) = acc(x, y) - 0.25f * tri(x, y);

        input.set_estimates({{0, 71}, {0, 32}});
        output.set_estimates({{0, 64}, {0, 32}});
    }
};

} // namespace

HALIDE_REGISTER_GENERATOR(UserToneMap, user_tone_map)
HALIDE_REGISTER_GENERATOR(UserBoxStats, user_box_stats)
HALIDE_REGISTER_GENERATOR(UserPyramid4d, user_pyramid_4d)
HALIDE_REGISTER_GENERATOR(UserAccumulators, user_accumulators)
