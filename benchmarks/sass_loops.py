#!/usr/bin/env python3
"""The loops a GPU runs for a schedule, read off the machine code (SASS) rather than the PTX:
`beamscope-cli export --lang ptx` writes Halide's PTX of the schedule, ptxas assembles it for
sm_90 (or --arch), cuobjdump disassembles it, and each kernel's loops (backward branches) are
listed with the global and shared loads and stores in their bodies. How many points of a rolled
loop a thread issues before it waits is what the featurizer's load rounds guess
(Featurizer.cpp: kRolledIterationsPerRound); LLVM and ptxas decide it, and this shows what they
decided. No GPU needed.

    benchmarks/sass_loops.py CLI APP SCHEDULE.json [--gpu h100] [-p key=value ...]
        [--serial FUNC=JSON ...] [--kernel NAME]

SCHEDULE.json: a schedule as Beamscope writes it (e.g. `sqlite3 DB "select schedule from
measurements where id=451" > s.json`, or a `search --json` report). --serial FUNC=[4,4,1] replaces
the serial tile of FUNC's first stage (repeatable, each a variant of its own) to see how the loops
change with it. Needs cuobjdump: `.venv/bin/pip install nvidia-cuda-cuobjdump` (CUDA 13's, from
PyPI) or one on PATH.
"""
import argparse
import copy
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PTXAS = "/usr/local/cuda/bin/ptxas"


def cuobjdump():
    found = shutil.which("cuobjdump")
    if found:
        return found
    venv = glob.glob(os.path.join(HERE, "..", ".venv", "lib", "python3*", "site-packages", "nvidia", "cu*",
                                  "bin", "cuobjdump"))
    if venv:
        return venv[0]
    sys.exit("sass_loops.py: no cuobjdump (install it: .venv/bin/pip install nvidia-cuda-cuobjdump)")


def kernels_of(sass):
    """{kernel name: [(address, instruction text)]} of cuobjdump -sass output."""
    out = {}
    for part in re.split(r"\n\s*Function : ", sass)[1:]:
        name = part.split("\n", 1)[0].strip()
        out[name] = [(int(m.group(1), 16), m.group(2))
                     for m in re.finditer(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", part)]
    return out


def loops_of(instructions):
    """Each backward branch's body: start, end and its memory instructions by kind."""
    loops = []
    for address, text in instructions:
        m = re.search(r"\bBRA (0x[0-9a-f]+)", text)
        if not m or int(m.group(1), 16) >= address:
            continue
        start = int(m.group(1), 16)
        body = [t for a, t in instructions if start <= a <= address]
        count = lambda op: sum(1 for t in body if re.search(rf"\b{op}(\.|\s)", t))
        loops.append({"start": hex(start), "end": hex(address), "LDG": count("LDG"), "STG": count("STG"),
                      "LDS": count("LDS"), "STS": count("STS")})
    for loop in loops:  # an outer loop's body holds its inner loops' instructions once
        loop["encloses"] = sum(1 for other in loops if other is not loop and
                               int(loop["start"], 16) <= int(other["start"], 16) and
                               int(other["end"], 16) <= int(loop["end"], 16))
    return loops


def report(cli, app, schedule, args, label):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.json")
        json.dump(schedule, open(path, "w"))
        ptx, cubin = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
        params = [x for p in args.param for x in ("-p", p)]
        run = subprocess.run([cli, "export", app, *params, "--gpu", args.gpu, "--schedule", path,
                              "--lang", "ptx", "--out", ptx], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{label}: export failed: {run.stderr.strip()}")
            return
        subprocess.run([PTXAS, "--gpu-name", args.arch, ptx, "-o", cubin], check=True)
        sass = subprocess.run([cuobjdump(), "-sass", cubin], capture_output=True, text=True, check=True).stdout
    print(label)
    for name, instructions in kernels_of(sass).items():
        if args.kernel and args.kernel not in name:
            continue
        total = {k: sum(1 for _, t in instructions if re.search(rf"\b{k}(\.|\s)", t)) for k in ("LDG", "STG")}
        print(f"  {name}: {len(instructions)} instructions, {total['LDG']} LDG, {total['STG']} STG")
        for loop in loops_of(instructions):
            print(f"    loop {loop['start']}-{loop['end']}: {loop['LDG']} LDG, {loop['STG']} STG, "
                  f"{loop['LDS']} LDS, {loop['STS']} STS in its body" +
                  (f" (with the {loop['encloses']} loops inside it)" if loop["encloses"] else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cli")
    parser.add_argument("app")
    parser.add_argument("schedule")
    parser.add_argument("--gpu", default="h100")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("-p", "--param", action="append", default=[])
    parser.add_argument("--serial", action="append", default=[], help="FUNC=[tile]: a variant")
    parser.add_argument("--kernel", default="", help="only the kernels whose name contains this")
    args = parser.parse_args()
    schedule = json.load(open(args.schedule))
    if isinstance(schedule, dict) and "schedule" in schedule:
        schedule = schedule["schedule"]
    report(args.cli, args.app, schedule, args, "as given")
    for variant in args.serial:
        func, _, tile = variant.partition("=")
        changed = copy.deepcopy(schedule)
        funcs = [f for f in changed if f.get("name") == func]
        if not funcs or not funcs[0].get("stages"):
            sys.exit(f"sass_loops.py: no Func {func} with a stage in the schedule")
        funcs[0]["stages"][0]["serial"] = json.loads(tile)
        report(args.cli, args.app, changed, args, f"{func} serial {tile}")


if __name__ == "__main__":
    main()
