#!/usr/bin/env python3
"""Turns the reports of benchmarks/fig7.sh into the Fig. 7 table of docs/ablation.md.

One-shot: the measured median time of the best-predicted correct candidate (on PoCL there is no
ptxas report, so the spill filter passes every candidate). Top-5: the fastest measured median of
the 5 best-predicted correct candidates (beam and greedy samples together). Ratios are both-off
over both-on (above 1: both-on found the faster schedule)."""
import json
import math
import sys


def reports(path):
    text, pos, dec = open(path).read(), 0, json.JSONDecoder()
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return
        obj, pos = dec.raw_decode(text, pos)
        yield obj


def choices(report):
    rows = [r for r in report["candidates"] if r.get("correct") and r.get("measured_ms")]
    rows.sort(key=lambda r: r["predicted"])
    if not rows:
        return None, None
    return rows[0]["measured_ms"]["median"], min(r["measured_ms"]["median"] for r in rows[:5])


def main(path):
    runs = {}
    for d in reports(path):
        runs.setdefault(d["app"], {})[d["config"]] = d["report"]
    print("| app | one-shot on (ms) | one-shot off (ms) | off/on | top-5 on (ms) | top-5 off (ms) | off/on "
          "| Anderson2021 (ms) | search on / off (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    one, top = [], []
    for app, r in runs.items():
        on, off = r.get("on"), r.get("off")
        if not on or not off:
            print(f"| {app} | " + " | ".join(["failed"] * 8) + " |")
            continue
        (o1, t1), (o0, t0) = choices(on), choices(off)
        a = [b for b in on.get("baselines", []) if b.get("correct") and b.get("measured_ms")]
        a21 = f"{a[0]['measured_ms']['median']:.3f}" if a else "failed"
        cells = [f"{o1:.3f}", f"{o0:.3f}", f"{o0 / o1:.2f}", f"{t1:.3f}", f"{t0:.3f}", f"{t0 / t1:.2f}", a21,
                 f"{on['beam_search_ms'] / 1000:.2f} / {off['beam_search_ms'] / 1000:.2f}"]
        one.append(o0 / o1)
        top.append(t0 / t1)
        print(f"| {app} | " + " | ".join(cells) + " |")
    if one:
        g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
        print(f"| **geomean** | | | **{g(one):.2f}** | | | **{g(top):.2f}** | | |")


if __name__ == "__main__":
    main(sys.argv[1])
