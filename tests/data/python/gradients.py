"""Two outputs from one generator: the gradient magnitude of an 8-bit image (float) and an edge
mask thresholded from it (uint8), sharing the Sobel stages."""
import halide as hl


@hl.generator(name="py_gradients")
class PyGradients:
    input = hl.InputBuffer(hl.UInt(8), 2)
    threshold = hl.InputScalar(hl.Float(32))
    magnitude = hl.OutputBuffer(hl.Float(32), 2)
    edges = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(self):
        x, y = hl.vars("x y")
        clamped = hl.BoundaryConditions.mirror_image(self.input)
        value = hl.Func("value")
        value[x, y] = hl.cast(hl.Float(32), clamped[x, y])

        gx = hl.Func("gx")
        gx[x, y] = (value[x + 1, y - 1] + 2 * value[x + 1, y] + value[x + 1, y + 1]) - (
            value[x - 1, y - 1] + 2 * value[x - 1, y] + value[x - 1, y + 1])
        gy = hl.Func("gy")
        gy[x, y] = (value[x - 1, y + 1] + 2 * value[x, y + 1] + value[x + 1, y + 1]) - (
            value[x - 1, y - 1] + 2 * value[x, y - 1] + value[x + 1, y - 1])

        self.magnitude[x, y] = hl.sqrt(gx[x, y] * gx[x, y] + gy[x, y] * gy[x, y])
        self.edges[x, y] = hl.select(self.magnitude[x, y] > self.threshold, hl.u8(255), hl.u8(0))

        self.threshold.set_estimate(96.0)
        self.input.set_estimates([(0, 64), (0, 48)])
        self.magnitude.set_estimates([(0, 64), (0, 48)])
        self.edges.set_estimates([(0, 64), (0, 48)])
