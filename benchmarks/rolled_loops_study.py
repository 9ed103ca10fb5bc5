#!/usr/bin/env python3
"""Which of a thread's rolled points the compilers unroll, over the measured rows: for every root
Func of a catalog row's schedule whose kernel computes it alone (no Func at its blocks or
threads) from one pure stage with 16 or more serial points a thread (Beamscope leaves those
loops rolled, `kUnrollLimit`), the stage's kernel is compiled to SASS (benchmarks/sass_loops.py's
route: `export --lang ptx`, ptxas, cuobjdump) and the stores in its innermost loop's body counted:
the points a thread issues together, against the serial tile. The featurizer guesses 4 points a
round for every rolled loop (Featurizer.cpp: kRolledIterationsPerRound); this is what the code
does. No GPU needed; about a second per distinct (app, Func, tile).

    benchmarks/rolled_loops_study.py CLI DB [--limit N]

Prints one line per distinct serial tile: the tile (innermost first), how many kernels have it,
and the points per innermost loop body seen (0: no loop left, fully unrolled).
"""
import argparse
import collections
import json
import math
import os
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_loops  # noqa: E402

CATALOG_GPU = {"H100": "h100", "H200": "h200"}


def candidates(db):
    """(app, params, GPU preset, Func, serial tile, schedule) of each rolled lone root stage."""
    seen = set()
    query = ("select app, params, device_name, schedule from measurements where correct = 1 and "
             "schedule is not null and app not like 'random:%' and device_kind like '%cuda%'")
    for app, params, device, schedule in db.execute(query):
        gpu = next((preset for key, preset in CATALOG_GPU.items() if key in device), None)
        if not gpu:
            continue
        funcs = json.loads(schedule)
        hosts = {f.get("consumer") for f in funcs if f["decision"] in ("block", "thread")}
        for f in funcs:
            if f["decision"] != "root" or f["name"] in hosts or len(f["stages"]) != 1:
                continue
            serial = f["stages"][0]["serial"]
            if math.prod(serial) < 16:
                continue
            key = (app, params, f["name"], tuple(serial), tuple(f["stages"][0]["thread"]))
            if key in seen:
                continue
            seen.add(key)
            yield app, json.loads(params or "[]"), gpu, f["name"], serial, funcs


def innermost_points(cli, app, params, gpu, func, funcs):
    """Stores in the innermost loop body of FUNC's kernel (0: no loop), or None (no kernel)."""
    with tempfile.TemporaryDirectory() as tmp:
        path, ptx, cubin = (os.path.join(tmp, n) for n in ("s.json", "k.ptx", "k.cubin"))
        json.dump(funcs, open(path, "w"))
        flags = [x for p in params for x in ("-p", p)]
        run = subprocess.run([cli, "export", app, *flags, "--gpu", gpu, "--schedule", path, "--lang", "ptx",
                              "--out", ptx], capture_output=True, text=True)
        if run.returncode != 0:
            return None
        subprocess.run([sass_loops.PTXAS, "--gpu-name", "sm_90", ptx, "-o", cubin], check=True)
        sass = subprocess.run([sass_loops.cuobjdump(), "-sass", cubin], capture_output=True, text=True,
                              check=True).stdout
    for name, instructions in sass_loops.kernels_of(sass).items():
        if not name.startswith(f"_kernel_{func}_"):
            continue
        loops = [loop for loop in sass_loops.loops_of(instructions) if loop["encloses"] == 0]
        return loops[0]["STG"] if loops else 0
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cli")
    parser.add_argument("db")
    parser.add_argument("--limit", type=int, default=0, help="at most this many kernels")
    args = parser.parse_args()
    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    seen = collections.defaultdict(collections.Counter)
    count = 0
    for app, params, gpu, func, serial, funcs in candidates(db):
        points = innermost_points(args.cli, app, params, gpu, func, funcs)
        if points is None:
            continue
        trimmed = [s for s in serial]
        while len(trimmed) > 1 and trimmed[-1] == 1:
            trimmed.pop()
        seen[tuple(trimmed)][points] += 1
        print(f"{app} {func} serial {serial}: {points} points a body", file=sys.stderr, flush=True)
        count += 1
        if args.limit and count >= args.limit:
            break
    print("serial tile (innermost first) | kernels | points a thread issues in its innermost loop body "
          "(0: fully unrolled): kernels")
    for tile in sorted(seen, key=lambda t: (math.prod(t), t)):
        counts = ", ".join(f"{p}: {n}" for p, n in sorted(seen[tile].items()))
        print(f"{list(tile)} | {sum(seen[tile].values())} | {counts}")


if __name__ == "__main__":
    main()
