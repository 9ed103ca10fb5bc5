#!/usr/bin/env python3
"""The L1 line rate the measured rows imply: each kernel's L1 wavefronts of global loads (the
lines each load instruction of a warp touches, Featurizer) over its measured time, in lines per
SM per clock (docs/design-notes.md, "L1 wavefronts of global loads").

    benchmarks/l1_rate.py CLI DB [--sms 132] [--clock-ghz 1.98] [--top 15]

CLI is beamscope-cli, DB a measurement database (benchmarks/pretrained_data.sh's merged rows).
A kernel with CUPTI's time (the H200 rows) is judged by that time; a row without kernel times
(the H100 rows) by its whole time over all its kernels' wavefronts. No kernel can run faster
than the L1 serves its lines, so the largest rates bound the L1's rate from below; a kernel
whose count overstates its instructions (a load LLVM vectorized, say) shows up there too.
"""
import argparse
import collections
import json
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_times  # noqa: E402  (the CUDA-name pairing)


def wavefronts_of(cli, db):
    """record -> kernel index -> {"root": (func, stage), "wavefronts": lines}."""
    out = collections.defaultdict(dict)
    for row in kernel_times.every_stage_row(cli, db):
        k = out[int(row["record"])].setdefault(
            int(row["kernel"]), {"root": None, "wavefronts": 0.0})
        k["wavefronts"] += (float(row["num_blocks"]) *
                            float(row["num_global_mem_load_wavefronts_per_block"]))
        if row["kernel_root"] == "1":
            k["root"] = kernel_times.root_of(row)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cli")
    ap.add_argument("db")
    ap.add_argument("--sms", type=int, default=132)
    ap.add_argument("--clock-ghz", type=float, default=1.98)
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    per_clock = args.sms * args.clock_ghz * 1e9

    kernels = wavefronts_of(args.cli, args.db)
    con = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    rates = []  # (lines per SM clock, app, record, what, ms)
    for rid, app, text, best in con.execute(
            "SELECT id, app, measurement, COALESCE(min_ms, median_ms) FROM measurements "
            "WHERE median_ms IS NOT NULL AND schedule IS NOT NULL ORDER BY id"):
        ks = kernels.get(rid)
        if not ks:
            continue
        m = json.loads(text)
        times = {k["name"]: k["ms"] for k in m.get("kernel_times", [])}
        names = kernel_times.match(list(times), ks) if times else None
        if names:
            for index, name in names.items():
                if times[name] > 0 and ks[index]["wavefronts"] > 0:
                    rates.append((ks[index]["wavefronts"] / (times[name] * 1e-3 * per_clock),
                                  app, rid, name[:40], times[name]))
        elif best and best > 0:
            total = sum(k["wavefronts"] for k in ks.values())
            if total > 0:
                rates.append((total / (best * 1e-3 * per_clock), app, rid, "whole row", best))
    rates.sort(reverse=True)
    if not rates:
        print("no row with load wavefronts and a time", file=sys.stderr)
        return 1
    values = sorted(r[0] for r in rates)
    pick = lambda p: values[min(len(values) - 1, int(p * len(values)))]  # noqa: E731
    print(f"{len(rates)} kernels or rows; lines per SM clock: median {pick(0.5):.3f}, "
          f"p90 {pick(0.9):.3f}, p99 {pick(0.99):.3f}, max {values[-1]:.3f}")
    for rate, app, rid, what, ms in rates[:args.top]:
        print(f"{rate:7.3f}  {app:26s} record {rid:5d}  {ms:9.4f} ms  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
