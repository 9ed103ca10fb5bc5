"""A generator file with a syntax error on line 9, as a user saves it mid-edit."""
import halide as hl


@hl.generator(name="py_broken")
class PyBroken:
    output = hl.OutputBuffer(hl.Float(32), 2)

    def generate(self)
        x, y = hl.vars("x y")
        self.output[x, y] = hl.f32(x + y)
