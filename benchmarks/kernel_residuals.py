#!/usr/bin/env python3
"""How far the analytic model's kernels are from CUPTI's kernel times, and what a kernel's fixed
costs do to the ranking (docs/design-notes.md, "Kernels against their own times").

    benchmarks/kernel_residuals.py CLI DB

CLI is beamscope-cli, DB a measurement database (benchmarks/pretrained_data.sh's merged rows:
rows of CUDA devices measured with per-kernel times, and others). Prints:
1. each timed kernel's measured time over its analytic body (its stages' terms without the
   launch term), median per size of the analytic body;
2. CUPTI's time per launch (percentiles) and the time a row spends outside its kernels (its
   fastest run less the kernels' sum), per kernel count;
3. Kendall's tau and one-shot regret of the analytic model, per GPU, catalog apps and random
   pipelines apart, when each launch costs L us and each launch's body at least F us.
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
import kernel_times  # noqa: E402  (the CUDA-name pairing)

TERMS = kernel_times.TERMS
LAUNCH_US = 5.0  # kernel_launch_overhead_us of the h100 and h200 presets


def kernels_of(cli, db):
    """record -> kernel index -> {"root", "body" ms, "launch" ms}."""
    out = collections.defaultdict(dict)
    for row in kernel_times.every_stage_row(cli, db):
        k = out[int(row["record"])].setdefault(
            int(row["kernel"]), {"root": None, "body": 0.0, "launch": 0.0})
        launch = float(row["analytic_parallelism"])
        k["launch"] += launch
        k["body"] += sum(float(row[t]) for t in TERMS) - launch
        if row["kernel_root"] == "1":
            k["root"] = kernel_times.root_of(row)
    return out


def kendall(predicted, measured):
    """Tau over the pairs more than 2 % apart in measured time (the rank metrics' floor)."""
    c = d = 0
    for i in range(len(predicted)):
        for j in range(i + 1, len(predicted)):
            if abs(measured[i] - measured[j]) <= 0.02 * max(measured[i], measured[j]):
                continue
            s = (predicted[i] - predicted[j]) * (measured[i] - measured[j])
            c += s > 0
            d += s < 0
    return (c - d) / (c + d) if c + d else float("nan")


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cli")
    ap.add_argument("db")
    args = ap.parse_args()
    kernels = kernels_of(args.cli, args.db)
    con = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    rows = []
    for rid, app, key, device, ms, text in con.execute(
            "SELECT id, app, pipeline_key, device_name, min_ms, measurement FROM measurements "
            "WHERE correct = 1 AND baseline = '' AND schedule IS NOT NULL ORDER BY id"):
        if rid in kernels:
            rows.append((rid, app, key, device, ms, json.loads(text)))

    # 1 and 2: the timed kernels.
    by_size = collections.defaultdict(list)
    per_launch, outside = [], collections.defaultdict(list)
    for rid, app, key, device, ms, m in rows:
        times = m.get("kernel_times") or []
        if not times:
            continue
        per_launch += [t["ms"] / max(1, t["launches"]) * 1e3 for t in times]
        outside[len(times)].append((ms - sum(t["ms"] for t in times)) * 1e3)
        names = kernel_times.match([t["name"] for t in times], kernels[rid])
        if names is None:
            continue
        measured = {t["name"]: t["ms"] for t in times}
        for index, k in kernels[rid].items():
            if k["body"] > 0 and measured[names[index]] > 0:
                size = math.floor(math.log10(k["body"] * 1e3))  # decade of the body, us
                by_size[size].append(measured[names[index]] / k["body"])
    if not by_size:
        print("no row with per-kernel times (measured on CUDA with CUPTI)", file=sys.stderr)
        return 1
    print("1. measured kernel time / analytic body, by the body's size")
    for size in sorted(by_size):
        f = by_size[size]
        print(f"   body {10.0 ** size:>8g}-{10.0 ** (size + 1):<8g} us: {len(f):6d} kernels, "
              f"median x{statistics.median(f):.2f}, quartiles x{percentile(f, 25):.2f}"
              f"-x{percentile(f, 75):.2f}")
    print("2. CUPTI's time per launch, us: " + ", ".join(
        f"p{p} {percentile(per_launch, p):.2f}" for p in (0, 1, 10, 25, 50)))
    print("   a row's fastest run outside its kernels (median us), by kernel count: " + ", ".join(
        f"{n}: {statistics.median(v):.1f}" for n, v in sorted(outside.items()) if n <= 12))

    # 3: the analytic model with other fixed costs.
    groups = collections.defaultdict(list)
    for rid, app, key, device, ms, m in rows:
        groups[(key, device)].append((app, ms, list(kernels[rid].values())))
    print("3. analytic model, tau / regret (catalog apps | random pipelines), per GPU, when a "
          "launch costs L us and a launch's body at least F us")
    for launch_us in (LAUNCH_US, 3.0, 1.3):
        for floor_us in (0.0, 1.0, 2.0, 4.0):
            line = []
            for device in sorted({d for _, d in groups}):
                for catalog in (True, False):
                    taus, regrets = [], []
                    for (key, d), items in groups.items():
                        if d != device or len(items) < 3:
                            continue
                        if items[0][0].startswith("random:") == catalog:
                            continue
                        predicted = []
                        for _, _, ks in items:
                            t = 0.0
                            for k in ks:
                                launches = k["launch"] / (LAUNCH_US * 1e-3)
                                t += max(k["body"], launches * floor_us * 1e-3)
                                t += launches * launch_us * 1e-3
                            predicted.append(t)
                        measured = [ms for _, ms, _ in items]
                        taus.append(kendall(predicted, measured))
                        best = min(range(len(items)), key=lambda i: predicted[i])
                        regrets.append(measured[best] / min(measured))
                    taus = [t for t in taus if t == t]
                    if regrets:
                        line.append(f"{sum(taus) / len(taus):.3f} / "
                                    f"{math.exp(sum(map(math.log, regrets)) / len(regrets)):.2f}")
                line.append(device.replace("NVIDIA ", "") + ";")
            print(f"   L {launch_us:3.1f} F {floor_us:3.1f}: " + " ".join(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
