// Fixture generator library for the tests: a box blur with estimates, the same without output
// estimates, and a generator whose generate() fails. Built against Beamscope's libHalide.
#include <Halide.h>

namespace {

using namespace Halide;

/// Horizontal pass of a (2r+1)x(2r+1) box blur of a 16-bit image, as its own Func "blur_x".
Func horizontalPass(const Func &bounded, int radius, const Var &x, const Var &y) {
    Func blurX("blur_x");
    Expr sum = cast<uint32_t>(0);
    for (int dx = -radius; dx <= radius; ++dx)
        sum += cast<uint32_t>(bounded(x + dx, y));
    blurX(x, y) = sum;
    return blurX;
}

/// Vertical pass over blur_x, normalized back to 16 bits.
Expr verticalPass(const Func &blurX, int radius, const Var &x, const Var &y) {
    Expr sum = cast<uint32_t>(0);
    for (int dy = -radius; dy <= radius; ++dy)
        sum += blurX(x, y + dy);
    const int taps = (2 * radius + 1) * (2 * radius + 1);
    return cast<uint16_t>(sum / taps);
}

class TestBlur : public Generator<TestBlur> {
public:
    GeneratorParam<int> radius{"radius", 1, 0, 16};
    Input<Buffer<uint16_t, 2>> input{"input"};
    Output<Buffer<uint16_t, 2>> blur{"blur"};

    void generate() {
        Var x("x"), y("y");
        Func bounded = BoundaryConditions::repeat_edge(input);
        Func blurX = horizontalPass(bounded, radius, x, y);
        blur(x, y) = verticalPass(blurX, radius, x, y);

        input.set_estimates({{0, 1536}, {0, 2560}});
        blur.set_estimates({{0, 1536}, {0, 2560}});
    }
};

class TestNoEstimates : public Generator<TestNoEstimates> {
public:
    Input<Buffer<uint16_t, 2>> input{"input"};
    Output<Buffer<uint16_t, 2>> blur{"blur"};

    void generate() {
        Var x("x"), y("y");
        Func bounded = BoundaryConditions::repeat_edge(input);
        Func blurX = horizontalPass(bounded, 1, x, y);
        blur(x, y) = verticalPass(blurX, 1, x, y);
        input.set_estimates({{0, 1536}, {0, 2560}});
    }
};

class TestThrows : public Generator<TestThrows> {
public:
    Input<Buffer<uint16_t, 2>> input{"input"};
    Output<Buffer<uint16_t, 2>> output{"output"};

    void generate() {
        Var x("x"), y("y");
        Func broken("broken");
        broken(x, y) = input(x, y);
        // Deliberately invalid: redefining a 2-D Func with one argument is a Halide user error.
        broken(x) = input(x, 0);
        output(x, y) = broken(x, y);
    }
};

} // namespace

HALIDE_REGISTER_GENERATOR(TestBlur, test_blur)
HALIDE_REGISTER_GENERATOR(TestNoEstimates, test_no_estimates)
HALIDE_REGISTER_GENERATOR(TestThrows, test_throws)
