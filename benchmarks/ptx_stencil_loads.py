#!/usr/bin/env python3
"""How many global load instructions a thread's unrolled points issue: compiles a 3-tap stencil
along x (f(x, y) = in(x, y) + in(x + 1, y) + in(x + 2, y); 32 x 4 GPU threads, U points a thread
along x, unrolled) to PTX with Halide's CUDA backend and counts its ld.global and st.global. The
featurizer's load instruction count (docs/design-notes.md, "L1 wavefronts of global loads": a
thread's unrolled points load each address once) rests on what this prints: U + 2 scalar loads,
not 3 U. No GPU needed (PTX only).

    .venv/bin/python benchmarks/ptx_stencil_loads.py
"""
import os
import subprocess
import sys
import tempfile

CHILD = """
import sys, tempfile
import halide as hl
inp = hl.ImageParam(hl.Float(32), 2, "inp")
x, y = hl.Var("x"), hl.Var("y")
f = hl.Func("f")
f[x, y] = inp[x, y] + inp[x + 1, y] + inp[x + 2, y]
xo, xi, xii, yo, yi = (hl.Var(n) for n in ("xo", "xi", "xii", "yo", "yi"))
unroll = int(sys.argv[1])
f.split(x, xo, xi, 32 * unroll).split(xi, xi, xii, unroll).split(y, yo, yi, 4)
f.reorder(xii, xi, yi, xo, yo).gpu_blocks(xo, yo).gpu_threads(xi, yi)
if unroll > 1:
    f.unroll(xii)
f.bound(x, 0, 1024).bound(y, 0, 1024)
d = tempfile.mkdtemp()
f.compile_to({hl.OutputFileType.stmt: d + "/o.stmt"}, [inp], "st",
             hl.Target("host-cuda-cuda_capability_86"))
"""


def counts(unroll):
    """(ld.global, st.global) in the PTX Halide writes at HL_DEBUG_CODEGEN=2 (a child process:
    the level is read once per process)."""
    env = dict(os.environ, HL_DEBUG_CODEGEN="2")
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "child.py")
        with open(script, "w") as f:
            f.write(CHILD)
        out = subprocess.run([sys.executable, script, str(unroll)], env=env, check=True,
                             capture_output=True, text=True)
    text = out.stdout + out.stderr
    return text.count("ld.global"), text.count("st.global")


def main():
    ok = True
    for unroll in (1, 2, 4, 8):
        loads, stores = counts(unroll)
        print(f"{unroll} points a thread: {loads} ld.global (distinct elements {unroll + 2}, "
              f"taps x points {3 * unroll}), {stores} st.global")
        ok &= loads == unroll + 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
