#!/usr/bin/env python3
"""Each kernel's measured time beside the cost model's price for it: where a schedule's time
went on the GPU, and which kernels the analytic model prices wrong (docs/design-notes.md,
"Per-kernel times").

    benchmarks/kernel_times.py CLI DB [--app APP ...] [--record ID ...] [--validate]

CLI is beamscope-cli (its `models --stage-features-csv` gives every stage's kernel and analytic
terms); DB a measurement database whose CUDA rows were measured with per-kernel times (the
worker reads them with CUPTI: `kernel_times` in each row's measurement JSON). Each of Beamscope's
kernels is matched to the CUDA kernel Halide names after its root stage
("_kernel_<func>[__N]_s<stage>_...").

Prints, per app, each row's kernels (longest first): measured ms, predicted ms (the sum of the
analytic terms of the kernel's stages) and their ratio; then per app the Kendall tau between
predicted and measured over all (row, kernel) pairs of the same root stage, the per-kernel view
of the ranking the whole-pipeline table judges. --validate checks the matching alone, on the
ptxas kernel names every CUDA row has (no per-kernel times needed): per app, the rows whose
kernels match one to one.
"""
import argparse
import collections
import csv
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

TERMS = ["analytic_compute", "analytic_load", "analytic_store", "analytic_parallelism",
         "analytic_working_set", "analytic_malloc"]


def stage_rows(cli, db, apps):
    """record -> kernel index -> {"root": (func, stage), "predicted": ms, "stages": [...]}."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stages.csv")
        cmd = [cli, "models", "--db", db, "--stage-features-csv", path]
        for app in apps:
            cmd += ["--pipeline", app]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kernels = collections.defaultdict(dict)
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                k = kernels[int(row["record"])].setdefault(
                    int(row["kernel"]), {"root": None, "predicted": 0.0, "stages": []})
                name = row["stage_name"]
                func, _, update = name.partition(".update(")
                stage = int(update.rstrip(")")) + 1 if update else 0
                k["stages"].append(name)
                k["predicted"] += sum(float(row[t]) for t in TERMS)
                if row["kernel_root"] == "1":
                    k["root"] = (func, stage)
        return kernels


def every_stage_row(cli, db):
    """Each stage row (a dict) of `models --every-device --stage-features-csv`: every row of
    every device featurized for its own GPU."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stages.csv")
        subprocess.run([cli, "models", "--db", db, "--every-device", "--trees", "1",
                        "--stage-features-csv", path], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(path, newline="") as f:
            yield from csv.DictReader(f)


def root_of(row):
    """A kernel root's (func, stage index) from its stage row."""
    func, _, update = row["stage_name"].partition(".update(")
    return func, int(update.rstrip(")")) + 1 if update else 0


def cuda_name_matches(cuda_name, root):
    func, stage = root
    body = cuda_name[len("_kernel_"):] if cuda_name.startswith("_kernel_") else cuda_name
    safe = re.escape(re.sub(r"[^A-Za-z0-9_]", "_", func))
    # Halide numbers its lambdas per process: the measuring one's may not be Beamscope's.
    safe = re.sub(r"^lambda_\d+$", r"lambda_\\d+", safe)
    # Halide's unique names ("depth$1") appear as "depth__1" or "depth_1".
    return re.match(safe + r"(_{1,2}\d+)?_s" + str(stage) + r"_", body) is not None


def match(cuda_names, kernels):
    """Beamscope kernel index -> CUDA kernel name, or None when not one to one."""
    out = {}
    for index, k in kernels.items():
        if k["root"] is None:
            return None
        hits = [n for n in cuda_names if cuda_name_matches(n, k["root"])]
        if len(hits) != 1:
            return None
        out[index] = hits[0]
    return out if len(set(out.values())) == len(out) == len(cuda_names) else None


def kendall(pairs):
    c = d = 0
    for i in range(len(pairs)):
        for j in range(i + 1, len(pairs)):
            s = (pairs[i][0] - pairs[j][0]) * (pairs[i][1] - pairs[j][1])
            c += s > 0
            d += s < 0
    return (c - d) / (c + d) if c + d else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cli")
    ap.add_argument("db")
    ap.add_argument("--app", action="append", default=[])
    ap.add_argument("--record", action="append", type=int, default=[])
    ap.add_argument("--validate", action="store_true")
    args = ap.parse_args()

    kernels = stage_rows(args.cli, args.db, args.app)
    con = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    rows = con.execute("SELECT id, app, measurement FROM measurements WHERE median_ms IS NOT NULL "
                       "AND schedule IS NOT NULL ORDER BY app, id").fetchall()
    per_app = collections.defaultdict(list)
    for rid, app, text in rows:
        if rid not in kernels or (args.record and rid not in args.record):
            continue
        per_app[app].append((rid, json.loads(text), kernels[rid]))

    if args.validate:
        total = matched = 0
        for app, items in sorted(per_app.items()):
            named = [(m, ks) for _, m, ks in items if m.get("kernels")]
            ok = sum(1 for m, ks in named
                     if match([k["name"] for k in m["kernels"]], ks) is not None)
            total += len(named)
            matched += ok
            print(f"{app:28s} {ok:4d} of {len(named):4d} rows matched one to one "
                  f"({len(items) - len(named)} without a PTX report)")
        print(f"all: {matched} of {total}")
        return 0 if matched == total else 1

    timed = 0
    for app, items in sorted(per_app.items()):
        by_root = collections.defaultdict(list)  # root stage -> (predicted, measured)
        lines = []
        for rid, m, ks in items:
            times = {k["name"]: k["ms"] for k in m.get("kernel_times", [])}
            if not times:
                continue
            names = match(list(times), ks)
            if names is None:
                lines.append(f"  row {rid}: kernels do not match Beamscope's one to one")
                continue
            timed += 1
            lines.append(f"  row {rid}: measured {m['measured_ms']['median']:.3f} ms, kernels "
                         f"{sum(times.values()):.3f} ms, predicted {m.get('predicted') or 0:.3f}")
            for index in sorted(ks, key=lambda i: -times[names[i]]):
                k = ks[index]
                t = times[names[index]]
                by_root[k["root"]].append((k["predicted"], t))
                ratio = t / k["predicted"] if k["predicted"] > 0 else float("nan")
                lines.append(f"    {t:9.4f} ms measured {k['predicted']:9.4f} predicted "
                             f"{ratio:6.2f}x  {' + '.join(k['stages'])}")
        if not lines:
            continue
        print(app)
        print("\n".join(lines))
        taus = [kendall(p) for p in by_root.values() if len(p) > 1]
        taus = [t for t in taus if t == t]
        if taus:
            print(f"  per-kernel tau (same root stage, mean over {len(taus)} roots): "
                  f"{sum(taus) / len(taus):.3f}")
    if not timed:
        print("no row with per-kernel times (measured on CUDA with CUPTI)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
