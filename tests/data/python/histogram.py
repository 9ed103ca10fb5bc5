"""Histogram equalization of an 8-bit grey image: an RDom scatter builds per-row histograms, an
RDom sums them, a second RDom scans them into the cumulative distribution, and the image is
remapped through it (a data-dependent gather)."""
import halide as hl

WIDTH, HEIGHT = 64, 48


@hl.generator(name="py_histogram")
class PyHistogram:
    input = hl.InputBuffer(hl.UInt(8), 2)
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(self):
        x, y, i = hl.vars("x y i")
        level = hl.Func("level")
        level[x, y] = hl.cast(hl.Int(32), self.input[x, y])

        hist_rows = hl.Func("hist_rows")
        hist_rows[i, y] = 0
        rx = hl.RDom([(0, WIDTH)], "rx")
        hist_rows[level[rx.x, y], y] = hist_rows[level[rx.x, y], y] + 1

        hist = hl.Func("hist")
        hist[i] = 0
        ry = hl.RDom([(0, HEIGHT)], "ry")
        hist[i] = hist[i] + hist_rows[i, ry.x]

        cdf = hl.Func("cdf")
        cdf[i] = hist[0]
        scan = hl.RDom([(1, 255)], "scan")
        cdf[scan.x] = cdf[scan.x - 1] + hist[scan.x]

        scale = 255.0 / (WIDTH * HEIGHT)
        self.output[x, y] = hl.cast(
            hl.UInt(8), hl.clamp(hl.cast(hl.Float(32), cdf[level[x, y]]) * scale, 0.0, 255.0))

        self.input.set_estimates([(0, WIDTH), (0, HEIGHT)])
        self.output.set_estimates([(0, WIDTH), (0, HEIGHT)])
