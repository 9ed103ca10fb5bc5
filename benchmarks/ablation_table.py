#!/usr/bin/env python3
"""Turns the JSON lines of benchmarks/ablation.sh into the Markdown tables of docs/ablation.md.

    benchmarks/ablation_table.py RESULTS.jsonl [--wall]

Times are each run's process CPU time, or with --wall the search's wall time (idle machine)."""
import json
import math
import os
import sys

# Table 1 of the paper: states evaluated with sampling and freezing on, as a percentage of both
# off, per app (the catalog's names); the same file `beamscope-cli ablate` is built with.
TABLE1_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "paper",
                           "anderson2021_table1.json")
with open(TABLE1_FILE) as table1:
    PAPER_TABLE1 = json.load(table1)["states_percent_both_on"]

COMBOS = [("", "S F M"), ("--no-memo", "S F -"), ("--no-freezing", "S - M"),
          ("--no-freezing --no-memo", "S - -"), ("--no-sampling", "- F M"),
          ("--no-sampling --no-memo", "- F -"), ("--no-sampling --no-freezing", "- - M"),
          ("--no-sampling --no-freezing --no-memo", "- - -")]


def main(path, wall=False):
    rows = {}
    for line in open(path):
        d = json.loads(line)
        rows.setdefault(d["app"], {})[d.get("flags", d.get("combination"))] = d
    apps = list(rows)
    # Table 1: states evaluated (memoization does not change them: S F and - - columns).
    print("| app | S+F on | S on, F off | S off, F on | both off | on/off | paper on/off | ratio to paper |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    ratios = []
    for app in apps:
        r = rows[app]
        # Memoization does not change the states: both off is "- - M" or, in a QUICK run, "- - -".
        off = "--no-sampling --no-freezing"
        if off not in r:
            off += " --no-memo"
        ev = [r.get(k, {}).get("evaluated") for k in ("", "--no-freezing", "--no-sampling", off)]
        runs = [r.get(k) for k in ("", "--no-freezing", "--no-sampling", off)]
        cells = [f"{v:,}" if v else (f"> {d['timeout_s']} s" if d else "not run") for v, d in zip(ev, runs)]
        ratio, paper, versus = "", "", ""
        if ev[0] and ev[3]:
            ratios.append(ev[0] / ev[3])
            ratio = f"{100 * ev[0] / ev[3]:.1f}%"
            if app in PAPER_TABLE1:
                paper = f"{PAPER_TABLE1[app]:.2f}%"
                versus = f"{100 * ev[0] / ev[3] / PAPER_TABLE1[app]:.2f}x"
        print(f"| {app} | " + " | ".join(cells) + f" | {ratio} | {paper} | {versus} |")
    if ratios:
        g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"| **geomean** | | | | | **{100 * g:.1f}%** | 5.19% | {100 * g / 5.19:.2f}x |")
    print()
    # Tables 2-3: search time for every combination, and Anderson2021. A run's time is its
    # process CPU time (cpu_s) when recorded, else the search's wall time (search_ms).
    # With --wall, the search's own wall time (search_ms), for a run on an idle machine.
    def seconds(d):
        if "cpu_s" in d and not wall:
            return d["cpu_s"]
        return d["search_ms"] / 1000 if "search_ms" in d else None

    timed = any("cpu_s" in d for r in rows.values() for d in r.values())
    unit = "process CPU s" if timed and not wall else "search wall s"
    # Halide 21 runs Anderson2021 with sampling and freezing off unless asked; ablation.sh runs it
    # both ways ("anderson2021-both-on"), and ours is compared with its faster mode.
    both_modes = any("anderson2021-both-on" in r for r in rows.values())
    print(f"Table 2 ({unit}):")
    print()
    if both_modes:
        print("| app | " + " | ".join(name for _, name in COMBOS) +
              " | Anderson2021 (default: S, F off) | Anderson2021 S, F on | ours (S F M) / its faster mode |")
    else:
        print("| app | " + " | ".join(name for _, name in COMBOS) + " | Anderson2021 | ours (S F M) / Anderson2021 |")
    print("|---|" + "---:|" * (len(COMBOS) + 2 + both_modes))
    ours, both, speedups = [], [], {name: [] for _, name in COMBOS}
    table3 = []
    for app in apps:
        r = rows[app]
        cells, times = [], []
        for flags, _ in COMBOS:
            d = r.get(flags, {})
            t = seconds(d)
            times.append(t)
            if t is not None:
                cells.append(f"{t:.2f}")
            else:
                cells.append(f"> {d['timeout_s']}" if "timeout_s" in d else "not run")
        on = times[0]
        if on is not None:
            ours.append(max(on, 0.005))  # below the 10 ms resolution of cpu_s
        # Each mode's time, or its limit as a lower bound (exact=False) when it hit it.
        modes = ["anderson2021"] + (["anderson2021-both-on"] if both_modes else [])
        theirs = []
        for mode in modes:
            a = r.get(mode, {})
            at = seconds(a) if not a.get("error") else None
            if at is not None:
                cells.append(f"{at:.2f}")
                theirs.append((max(at, 0.005), True))
            else:
                limit = a.get("timeout_s", 60)
                cells.append(f"> {limit}")
                theirs.append((limit, False))
        if theirs and on is not None:
            fastest, exact = min(theirs)
            ratio = max(on, 0.005) / fastest
            both.append(ratio)
            cells.append(f"{ratio:.3f}" if exact else f"< {ratio:.3f}")
        else:
            cells.append("")
        print(f"| {app} | " + " | ".join(cells) + " |")
        # Table 3: speed-up of each combination over all off (a lower bound when all off hit the limit).
        off = times[-1]
        off_limit = r.get(COMBOS[-1][0], {}).get("timeout_s")
        row = []
        for (flags, name), t in zip(COMBOS, times):
            if t is None:
                row.append("")
            elif off is not None:
                row.append(f"{off / max(t, 0.005):.1f}")
                speedups[name].append(off / max(t, 0.005))
            elif off_limit:
                row.append(f"> {off_limit / max(t, 0.005):.1f}")
            else:
                row.append("")
        table3.append((app, row))
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
    print()
    print(f"Geomean time with all strategies on: {geo(ours):.2f} s over {len(ours)} apps; "
          f"ours / Anderson2021{' (its faster mode)' if both_modes else ''} geomean {geo(both):.3f} "
          f"(an upper bound where Anderson2021 hit its limit).")
    print()
    print("Table 3 (speed-up over all off, same runs; '>' where all off hit the limit):")
    print()
    print("| app | " + " | ".join(name for _, name in COMBOS) + " |")
    print("|---|" + "---:|" * len(COMBOS))
    for app, row in table3:
        print(f"| {app} | " + " | ".join(row) + " |")
    print("| **geomean** (apps where all off finished) | " +
          " | ".join(f"**{geo(v):.1f}**" if v else "" for v in speedups.values()) + " |")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--wall"]
    if len(args) != 1:
        sys.exit("usage: ablation_table.py RESULTS.jsonl [--wall]")
    main(args[0], wall="--wall" in sys.argv[1:])
