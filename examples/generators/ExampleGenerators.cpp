// Example generator library: two pipelines written the way users write them (Input/Output
// buffers, GeneratorParams, boundary conditions, estimates), used by the autotuning benchmark
// (benchmarks/autotune.sh) as pipelines from outside the catalog. Build it against Beamscope's
// Halide (`beamscope-cli halide-flags`); the build tree has it as
// libbeamscope_example_generators.so.
#include <Halide.h>

namespace {

using namespace Halide;

/// Sobel edge magnitude of an 8-bit RGB image: luminance, both 3x3 gradients, |gx| + |gy|.
class SobelEdges : public Generator<SobelEdges> {
public:
    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 2>> edges{"edges"};

    void generate() {
        Var x("x"), y("y");
        Func bounded = BoundaryConditions::repeat_edge(input);
        Func gray("gray");
        gray(x, y) = cast<int16_t>((77 * cast<int32_t>(bounded(x, y, 0)) +
                                    150 * cast<int32_t>(bounded(x, y, 1)) +
                                    29 * cast<int32_t>(bounded(x, y, 2))) >>
                                   8);
        // Separable Sobel: smooth [1 2 1] across, difference [-1 0 1] along.
        Func smoothX("smooth_x"), smoothY("smooth_y");
        smoothX(x, y) = gray(x - 1, y) + 2 * gray(x, y) + gray(x + 1, y);
        smoothY(x, y) = gray(x, y - 1) + 2 * gray(x, y) + gray(x, y + 1);
        Func gx("gx"), gy("gy");
        gx(x, y) = smoothY(x + 1, y) - smoothY(x - 1, y);
        gy(x, y) = smoothX(x, y + 1) - smoothX(x, y - 1);
        Func magnitude("magnitude");
        magnitude(x, y) = abs(cast<int32_t>(gx(x, y))) + abs(cast<int32_t>(gy(x, y)));
        edges(x, y) = cast<uint8_t>(min(magnitude(x, y) / 4, 255));

        input.set_estimates({{0, 512}, {0, 512}, {0, 3}});
        edges.set_estimates({{0, 512}, {0, 512}});
    }
};

/// Two levels of a Gaussian pyramid of a float RGB image: each level blurs with the binomial
/// [1 3 3 1] / 8 filter in x, then in y, and keeps every other pixel.
class PyramidDown : public Generator<PyramidDown> {
public:
    GeneratorParam<int> levels{"levels", 2, 1, 4};
    Input<Buffer<float, 3>> input{"input"};
    Output<Buffer<float, 3>> output{"output"};

    void generate() {
        Var x("x"), y("y"), c("c");
        Func level = BoundaryConditions::repeat_edge(input);
        for (int l = 0; l < levels; ++l) {
            Func downX("down_x_" + std::to_string(l)), downY("down_y_" + std::to_string(l));
            downX(x, y, c) = (level(2 * x - 1, y, c) + 3.0f * level(2 * x, y, c) +
                              3.0f * level(2 * x + 1, y, c) + level(2 * x + 2, y, c)) /
                             8.0f;
            downY(x, y, c) = (downX(x, 2 * y - 1, c) + 3.0f * downX(x, 2 * y, c) +
                              3.0f * downX(x, 2 * y + 1, c) + downX(x, 2 * y + 2, c)) /
                             8.0f;
            level = downY;
        }
        output(x, y, c) = level(x, y, c);

        const int scale = 1 << int(levels);
        input.set_estimates({{0, 1024}, {0, 1024}, {0, 3}});
        output.set_estimates({{0, 1024 / scale}, {0, 1024 / scale}, {0, 3}});
    }
};

} // namespace

HALIDE_REGISTER_GENERATOR(SobelEdges, sobel_edges)
HALIDE_REGISTER_GENERATOR(PyramidDown, pyramid_down)
