#!/usr/bin/env python3
"""Where an update keeps its accumulators on a GPU: compiles matmul's `prod` (pure init, then
`prod(x, y) += A(k, y) * B(x, k)`) to PTX with Halide's CUDA backend, as Beamscope's applier
schedules it (serial points inside the RVar inside the threads), at the root (global memory) and
at the consumer's block level (shared memory), with the serial points unrolled or rolled, the
output's size known at compile time (`bound`) or not (as Beamscope's applier compiles a pipeline),
and counts the accumulator loads and stores inside the RVar loop. The featurizer's rule (an
update writes its points once unless a rolled serial loop sits inside its RVars, or its unrolled
points of a global Func lie along a row stride known only at run time; docs/design-notes.md,
"An update's stores") rests on what this prints. No GPU needed (PTX only).

    .venv/bin/python benchmarks/ptx_accumulators.py
"""
import os
import re
import subprocess
import sys
import tempfile

import halide as hl

N = 1024


def build(level, ser_x, ser_y, unroll, bounded=True):
    a = hl.ImageParam(hl.Float(32), 2, "A")
    b = hl.ImageParam(hl.Float(32), 2, "B")
    x, y = hl.Var("x"), hl.Var("y")
    k = hl.RDom([(0, N)], "k")
    prod, out = hl.Func("prod"), hl.Func("out")
    prod[x, y] = 0.0
    prod[x, y] += a[k.x, y] * b[x, k.x]
    out[x, y] = prod[x, y]
    xo, yo, xt, yt, xs, ys = [hl.Var(n) for n in "xo yo xt yt xs ys".split()]
    tx, ty = 32, 4
    if level == "block":
        out.tile(x, y, xo, yo, xs, ys, tx * ser_x, ty * ser_y).tile(xs, ys, xt, yt, xs, ys, ser_x, ser_y)
        out.reorder(xs, ys, xt, yt, xo, yo).gpu_blocks(xo, yo).gpu_threads(xt, yt)
        prod.compute_at(out, xo).store_in(hl.MemoryType.GPUShared)
        for stage, is_update in ((prod, False), (prod.update(), True)):
            stage.split(x, xt, xs, ser_x, hl.TailStrategy.GuardWithIf)
            stage.split(y, yt, ys, ser_y, hl.TailStrategy.GuardWithIf)
            stage.reorder(*([xs, ys, k.x, xt, yt] if is_update else [xs, ys, xt, yt]))
            stage.gpu_threads(xt, yt)
            if unroll:
                stage.unroll(xs).unroll(ys)
    else:
        out.gpu_tile(x, y, xo, yo, xt, yt, tx, ty)
        prod.compute_root()
        for stage, is_update in ((prod, False), (prod.update(), True)):
            stage.tile(x, y, xo, yo, xs, ys, tx * ser_x, ty * ser_y).tile(xs, ys, xt, yt, xs, ys, ser_x, ser_y)
            stage.reorder(*([xs, ys, k.x, xt, yt, xo, yo] if is_update else [xs, ys, xt, yt, xo, yo]))
            stage.gpu_blocks(xo, yo).gpu_threads(xt, yt)
            if unroll:
                stage.unroll(xs).unroll(ys)
    if bounded:
        out.bound(x, 0, N).bound(y, 0, N)
    else:
        for p in (a, b):
            p.set_estimates([(0, N), (0, N)])
    return out, [a, b]


def ptx_of(level, ser_x, ser_y, unroll, bounded=True):
    """The PTX Halide's CUDA backend writes at HL_DEBUG_CODEGEN=2 (run in a child: the level is
    read when libHalide loads)."""
    code = (f"import sys; sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r}); "
            f"import ptx_accumulators as p, halide as hl, tempfile; "
            f"out, args = p.build({level!r}, {ser_x}, {ser_y}, {unroll}, {bounded}); "
            f"d = tempfile.mkdtemp(); "
            f"out.compile_to({{hl.OutputFileType.stmt: d + '/o.stmt'}}, args, 'mm', "
            f"hl.Target('host-cuda-cuda_capability_86'))")
    env = dict(os.environ, HL_DEBUG_CODEGEN="2")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    return run.stdout + run.stderr


def accesses_in_rvar_loop(ptx, space):
    """Loads and stores of `space` (shared or global, not the read-only .nc loads of the
    inputs) between the RVar loop's label and the branch back to it."""
    lines = ptx.splitlines()
    start = next((i for i, l in enumerate(lines) if re.match(r"^\$L__\w+:.*prod\.s1\.k\$x", l)), None)
    if start is None:
        return None  # the loop was not found (fully unrolled or renamed)
    label = lines[start].split(":")[0]
    end = next(i for i in range(start + 1, len(lines)) if re.search(rf"bra(\.uni)?\s+{re.escape(label)};", lines[i]))
    body = lines[start:end]
    loads = sum(1 for l in body if re.search(rf"\bld\.{space}\.(?!nc)", l))
    stores = sum(1 for l in body if re.search(rf"\bst\.{space}\.", l))
    return loads, stores


def main():
    print("level  serial  unrolled  output size  accumulator loads/stores inside the RVar loop")
    cases = [("root", "global", 4, 2, True, True), ("root", "global", 8, 2, False, True),
             ("root", "global", 4, 2, True, False), ("root", "global", 8, 1, True, False),
             ("root", "global", 1, 8, True, False),
             ("block", "shared", 4, 2, True, True), ("block", "shared", 8, 2, False, True),
             ("block", "shared", 4, 2, True, False)]
    for level, space, ser_x, ser_y, unroll, bounded in cases:
        found = accesses_in_rvar_loop(ptx_of(level, ser_x, ser_y, unroll, bounded), space)
        what = "loop not found" if found is None else f"{found[0]} ld.{space} / {found[1]} st.{space}"
        size = "constant" if bounded else "run time"
        print(f"{level:6s} {ser_x}x{ser_y:<5d} {str(unroll):9s} {size:12s} {what}")


if __name__ == "__main__":
    main()
