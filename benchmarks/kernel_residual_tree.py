#!/usr/bin/env python3
"""Which kernels the analytic model prices wrong, found by a regression tree: each timed kernel's
measured time over its analytic body (its stages' terms without the launch term), against its
root stage's features and a few sums over its stages (docs/design-notes.md, "The L1 serves its
own SM's wavefronts", where the first split of this tree led).

    benchmarks/kernel_residual_tree.py CLI DB [--min-body-us 5] [--depth 4] [--min-leaf 100]

CLI is beamscope-cli, DB a measurement database with CUDA rows measured with per-kernel times
(CUPTI's `kernel_times`, e.g. benchmarks/pretrained_data.sh's merged rows: the H200's). Every
row is featurized for its own GPU (`models --every-device --stage-features-csv`); Beamscope's
kernels are paired with CUDA's by name (kernel_times.py). Kernels whose body or measured time is
below --min-body-us are left out (below a few microseconds a kernel's time is its launch, not its
body: "Kernels against their own times"). The tree (scikit-learn's, squared error on
log(measured / body), each kernel weighted by its body so that the time at stake counts) prints
with each leaf's median ratio; then, for the leaves furthest from the median kernel, which apps'
stages fill them. A leaf well below the median holds kernels the model overprices against the
rest, one well above kernels it underprices; a ranking suffers where such kernels differ between
schedules of one pipeline. Needs scikit-learn and numpy: `.venv/bin/pip install scikit-learn`.
"""
import argparse
import collections
import json
import math
import os
import sqlite3
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_times  # noqa: E402  (stage rows and the CUDA-name pairing)

# Stage CSV columns that are not features.
NOT_FEATURES = {"app", "record", "measured_ms", "kernel", "kernel_root", "node", "stage",
                "stage_name"}
ANALYTIC = [t for t in kernel_times.TERMS if t != "analytic_parallelism"]


def timed_kernels(cli, db, min_body_ms):
    """(feature names, rows of features, log ratios, bodies, (app, record, root stage))."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    times = {}
    for rid, text in con.execute("SELECT id, measurement FROM measurements WHERE correct = 1"):
        kt = json.loads(text).get("kernel_times")
        if kt:
            times[rid] = {k["name"]: k["ms"] / max(1, k["launches"]) for k in kt}
    stages = collections.defaultdict(lambda: collections.defaultdict(list))
    for row in kernel_times.every_stage_row(cli, db):
        rid = int(row["record"])
        if rid in times:
            stages[rid][int(row["kernel"])].append(row)
    names, features, ratios, bodies, where = None, [], [], [], []
    for rid, kernels in sorted(stages.items()):
        roots = {}
        for index, rows in kernels.items():
            root = [r for r in rows if r["kernel_root"] == "1"]
            if root:
                roots[index] = {"root": kernel_times.root_of(root[-1])}
        paired = kernel_times.match(list(times[rid]), roots) if len(roots) == len(kernels) else None
        if paired is None:
            continue
        for index, rows in kernels.items():
            body = sum(float(r[t]) for r in rows for t in ANALYTIC)
            measured = times[rid][paired[index]]
            if body < min_body_ms or measured < min_body_ms:
                continue
            root = [r for r in rows if r["kernel_root"] == "1"][-1]
            own = [c for c in root if c not in NOT_FEATURES]
            sums = {
                "stages": len(rows),
                "sum_load_instructions": sum(
                    float(r["num_global_mem_load_instructions_per_block"]) for r in rows),
                "sum_load_wavefronts": sum(
                    float(r["num_global_mem_load_wavefronts_per_block"]) for r in rows),
                "max_threads_per_block": max(float(r["num_threads_per_block"]) for r in rows),
                "any_shared": float(any(float(r["shared_bytes_at_task"]) > 0 for r in rows)),
            }
            if names is None:
                names = own + list(sums)
            features.append([float(root[c]) for c in own] + list(sums.values()))
            ratios.append(math.log(measured / body))
            bodies.append(body)
            app = root["app"] if not root["app"].startswith("random:") else "random"
            where.append((app, rid, root["stage_name"]))
    return names, features, ratios, bodies, where


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cli")
    ap.add_argument("db")
    ap.add_argument("--min-body-us", type=float, default=5.0)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--min-leaf", type=int, default=100)
    args = ap.parse_args()
    try:
        import numpy as np
        from sklearn.tree import DecisionTreeRegressor, export_text
    except ImportError:
        print("kernel_residual_tree.py needs scikit-learn: .venv/bin/pip install scikit-learn",
              file=sys.stderr)
        return 2
    names, features, ratios, bodies, where = timed_kernels(args.cli, args.db,
                                                           args.min_body_us * 1e-3)
    if not ratios:
        print("no timed kernel paired with Beamscope's (rows measured on CUDA with CUPTI)",
              file=sys.stderr)
        return 1
    x, y, w = np.array(features), np.array(ratios), np.array(bodies)
    median = statistics.median(ratios)
    print(f"{len(ratios)} kernels, measured / body: median x{math.exp(median):.2f}")
    tree = DecisionTreeRegressor(max_depth=args.depth, min_samples_leaf=args.min_leaf,
                                 random_state=0).fit(x, y, sample_weight=w)
    print(export_text(tree, feature_names=names, decimals=3))
    leaves = tree.apply(x)
    members = collections.defaultdict(list)
    for i, leaf in enumerate(leaves):
        members[leaf].append(i)
    for leaf, rows in sorted(members.items(),
                             key=lambda kv: -abs(statistics.median(y[kv[1]]) - median))[:3]:
        ratio = math.exp(statistics.median(y[rows]))
        print(f"leaf {leaf}: {len(rows)} kernels, measured / body x{ratio:.2f} (median kernel "
              f"x{math.exp(median):.2f}); most frequent app / root stage:")
        stages = collections.Counter((where[i][0], where[i][2].split(".")[0]) for i in rows)
        for (app, stage), n in stages.most_common(8):
            print(f"  {n:4d}  {app:26s} {stage}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
