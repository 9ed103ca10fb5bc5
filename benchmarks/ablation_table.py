#!/usr/bin/env python3
"""Turns the JSON lines of benchmarks/ablation.sh into the Markdown tables of docs/ablation.md."""
import json
import math
import sys

COMBOS = [("", "S F M"), ("--no-memo", "S F -"), ("--no-freezing", "S - M"),
          ("--no-freezing --no-memo", "S - -"), ("--no-sampling", "- F M"),
          ("--no-sampling --no-memo", "- F -"), ("--no-sampling --no-freezing", "- - M"),
          ("--no-sampling --no-freezing --no-memo", "- - -")]


def main(path):
    rows = {}
    for line in open(path):
        d = json.loads(line)
        rows.setdefault(d["app"], {})[d.get("flags", d.get("combination"))] = d
    apps = list(rows)
    # Table 1: states evaluated (memoization does not change them: S F and - - columns).
    print("| app | S+F on | S on, F off | S off, F on | both off | on/off |")
    print("|---|---:|---:|---:|---:|---:|")
    ratios = []
    for app in apps:
        r = rows[app]
        ev = [r.get(k, {}).get("evaluated") for k in ("", "--no-freezing", "--no-sampling", "--no-sampling --no-freezing")]
        cells = [f"{v:,}" if v else "> 60 s" for v in ev]
        ratio = ""
        if ev[0] and ev[3]:
            ratios.append(ev[0] / ev[3])
            ratio = f"{100 * ev[0] / ev[3]:.1f}%"
        print(f"| {app} | " + " | ".join(cells) + f" | {ratio} |")
    if ratios:
        g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"| **geomean** | | | | | **{100 * g:.1f}%** |")
    print()
    # Tables 2-3: search time for every combination, and Anderson2021.
    print("| app | " + " | ".join(name for _, name in COMBOS) + " | Anderson2021 | ours (S F M) / Anderson2021 |")
    print("|---|" + "---:|" * (len(COMBOS) + 2))
    ours, theirs, both = [], [], []
    for app in apps:
        r = rows[app]
        cells = []
        for flags, _ in COMBOS:
            d = r.get(flags, {})
            cells.append(f"{d['search_ms'] / 1000:.2f}" if "search_ms" in d else "> 60")
        a = r.get("anderson2021", {})
        on = r.get("", {}).get("search_ms")
        if on:
            ours.append(on)
        if "search_ms" in a and not a.get("error"):
            cells.append(f"{a['search_ms'] / 1000:.2f}")
            theirs.append(a["search_ms"])
            if on:
                both.append(on / a["search_ms"])
                cells.append(f"{on / a['search_ms']:.2f}")
            else:
                cells.append("")
        else:
            cells += ["> 60", "< " + f"{on / 60000:.2f}" if on else ""]
        print(f"| {app} | " + " | ".join(cells) + " |")
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
    print()
    print(f"Geomean search time with all strategies on: {geo(ours) / 1000:.2f} s over {len(ours)} apps.")
    if both:
        print(f"Geomean of ours / Anderson2021 where Anderson2021 finished within 60 s: {geo(both):.2f} "
              f"({len(both)} apps); on the other {len(apps) - len(both)} apps it did not finish within 60 s.")


if __name__ == "__main__":
    main(sys.argv[1])
