"""A 3-D image pyramid: a float image with channels is downsampled `levels` times (a 2x2 box
filter) and upsampled back, each level's detail added to the result. `levels` is a generator
param (-p levels=3)."""
import halide as hl


@hl.generator(name="py_pyramid")
class PyPyramid:
    levels = hl.GeneratorParam(2)

    input = hl.InputBuffer(hl.Float(32), 3)
    output = hl.OutputBuffer(hl.Float(32), 3)

    def generate(self):
        x, y, c = hl.vars("x y c")
        clamped = hl.BoundaryConditions.repeat_edge(self.input)

        down = [clamped]
        for level in range(1, self.levels + 1):
            prev = down[-1]
            f = hl.Func("down_%d" % level)
            f[x, y, c] = (prev[2 * x, 2 * y, c] + prev[2 * x + 1, 2 * y, c] +
                          prev[2 * x, 2 * y + 1, c] + prev[2 * x + 1, 2 * y + 1, c]) * 0.25
            down.append(f)

        up = down[-1]
        for level in range(self.levels - 1, -1, -1):
            f = hl.Func("up_%d" % level)
            f[x, y, c] = down[level][x, y, c] * 0.5 + up[x // 2, y // 2, c] * 0.5
            up = f

        self.output[x, y, c] = up[x, y, c]

        self.input.set_estimates([(0, 64), (0, 64), (0, 3)])
        self.output.set_estimates([(0, 64), (0, 64), (0, 3)])
