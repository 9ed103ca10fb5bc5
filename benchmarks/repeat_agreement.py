#!/usr/bin/env python3
"""How far apart two measurements of one schedule come, by the minimum and by the median of
their timed runs (docs/pretrained.md, "Thirty-third session": why models train on the minimum).

    python3 benchmarks/repeat_agreement.py DB... [--device SUBSTRING]

DB: measurement database files (.sqlite, or .sqlite.xz as kept in docs/cuda-h100/). Every
correct row of a searched schedule (no baseline) on a device whose name contains SUBSTRING
(default: every device) counts. A schedule measured more than once (same pipeline key, schedule
hash and device, in one file or across files) gives one ratio per statistic: its slowest over its
fastest measurement. Prints the percentiles of both ratios, then per app with at least 2 rows
Kendall's tau between the rows' medians and their minima (how much the two orders differ), and
the median relative spread (median - min) / median of its rows; random pipelines in one line
(their mean tau)."""
import argparse
import collections
import lzma
import os
import shutil
import sqlite3
import sys
import tempfile

QUERY = """SELECT pipeline_key, app, schedule_hash, device_key, device_name, median_ms, min_ms
           FROM measurements
           WHERE correct = 1 AND failure = '' AND baseline = '' AND median_ms > 0 AND min_ms > 0"""


def read_rows(path, tmpdir):
    if path.endswith(".xz"):
        plain = os.path.join(tmpdir, os.path.basename(path)[:-3])
        with lzma.open(path) as src, open(plain, "wb") as dst:
            shutil.copyfileobj(src, dst)
        path = plain
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return connection.execute(QUERY).fetchall()
    finally:
        connection.close()


def percentile(values, q):
    values = sorted(values)
    return values[int(q * (len(values) - 1))]


def kendall_tau(a, b):
    concordant = discordant = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            if a[i] == a[j] or b[i] == b[j]:
                continue
            if (a[i] - a[j]) * (b[i] - b[j]) > 0:
                concordant += 1
            else:
                discordant += 1
    pairs = concordant + discordant
    return (concordant - discordant) / pairs if pairs else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("databases", nargs="+")
    parser.add_argument("--device", default="", help="part of the device's name")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmpdir:
        for path in args.databases:
            try:
                rows += read_rows(path, tmpdir)
            except (OSError, sqlite3.Error, lzma.LZMAError) as e:
                sys.exit(f"error: {path}: {e}")
    rows = [r for r in rows if args.device in r[4]]
    if not rows:
        sys.exit("error: no correct searched rows" + (f" on a device matching '{args.device}'" if args.device else ""))

    by_schedule = collections.defaultdict(list)
    for pipeline, app, schedule, device, _, median, minimum in rows:
        by_schedule[(pipeline, schedule, device)].append((median, minimum))
    repeated = [v for v in by_schedule.values() if len(v) > 1]
    print(f"{len(rows)} rows; {len(repeated)} schedules measured more than once")
    if repeated:
        quantiles = (0.5, 0.75, 0.9, 1.0)
        print("slowest / fastest measurement of a schedule, at percentiles "
              + " / ".join(f"{int(q * 100)}" for q in quantiles) + ":")
        for name, index in (("minimum", 1), ("median", 0)):
            ratios = [max(x[index] for x in v) / min(x[index] for x in v) for v in repeated]
            print(f"  by its {name:7s} " + " / ".join(f"{percentile(ratios, q):.3f}" for q in quantiles))

    by_app = collections.defaultdict(list)
    for _, app, _, _, _, median, minimum in rows:
        by_app[app].append((median, minimum))
    print("app: rows, tau(median, minimum), median spread (median - min) / median")
    random_taus, random_rows = [], 0
    for app in sorted(by_app):
        members = by_app[app]
        if len(members) < 2:
            continue
        tau = kendall_tau([m for m, _ in members], [n for _, n in members])
        if app.startswith("random:"):  # many small pipelines: one line for all of them
            random_rows += len(members)
            if tau == tau:
                random_taus.append(tau)
            continue
        spread = percentile([(m - n) / m for m, n in members], 0.5)
        print(f"  {app:26s} {len(members):4d}  {tau:6.3f}  {spread:.3f}")
    if random_taus:
        print(f"  {len(random_taus)} random pipelines {random_rows:4d}  {sum(random_taus) / len(random_taus):6.3f} (mean)")

if __name__ == "__main__":
    main()
