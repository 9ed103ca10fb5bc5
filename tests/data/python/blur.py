"""A separable box blur of a float image, blended with the input by a scalar strength: the
first Halide generator most people write. `radius` is a generator param (-p radius=2)."""
import halide as hl


@hl.generator(name="py_blur")
class PyBlur:
    radius = hl.GeneratorParam(1)

    input = hl.InputBuffer(hl.Float(32), 2)
    strength = hl.InputScalar(hl.Float(32))
    output = hl.OutputBuffer(hl.Float(32), 2)

    def generate(self):
        x, y = hl.vars("x y")
        clamped = hl.BoundaryConditions.repeat_edge(self.input)
        taps = 2 * self.radius + 1

        blur_x = hl.Func("blur_x")
        blur_x[x, y] = sum(clamped[x + d, y] for d in range(-self.radius, self.radius + 1)) / taps
        blur_y = hl.Func("blur_y")
        blur_y[x, y] = sum(blur_x[x, y + d] for d in range(-self.radius, self.radius + 1)) / taps

        self.output[x, y] = self.input[x, y] + self.strength * (blur_y[x, y] - self.input[x, y])

        self.strength.set_estimate(0.75)
        self.input.set_estimates([(0, 64), (0, 48)])
        self.output.set_estimates([(0, 64), (0, 48)])
