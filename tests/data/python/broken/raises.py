"""A generator whose generate() raises on line 12 (a typo in a Func's name, as users make)."""
import halide as hl


@hl.generator(name="py_raises")
class PyRaises:
    input = hl.InputBuffer(hl.Float(32), 2)
    output = hl.OutputBuffer(hl.Float(32), 2)

    def generate(self):
        x, y = hl.vars("x y")
        self.output[x, y] = self.inptu[x, y] * 2
