#!/usr/bin/env python3
"""Turns the JSON lines of benchmarks/ablation.sh into the Markdown tables of docs/ablation.md."""
import json
import math
import sys

# Table 1 of the paper: states evaluated with sampling and freezing on, as a percentage of both
# off, per app (the catalog's names).
PAPER_TABLE1 = {"bilateral_grid": 0.69, "local_laplacian": 3.18, "nl_means": 15.22, "lens_blur": 0.83,
                "camera_pipe": 4.87, "stencil_chain": 8.84, "harris": 30.56, "histogram_equalize": 13.13,
                "max_filter": 17.32, "unsharp_mask": 12.47, "interpolate": 2.52, "conv_layer": 1.29,
                "matmul": 18.38, "iir_blur": 8.26, "bgu": 3.21, "depthwise_separable_conv": 1.78}

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
    # Tables 2-3: search time for every combination, and Anderson2021.
    print("| app | " + " | ".join(name for _, name in COMBOS) + " | Anderson2021 | ours (S F M) / Anderson2021 |")
    print("|---|" + "---:|" * (len(COMBOS) + 2))
    ours, theirs, both = [], [], []
    for app in apps:
        r = rows[app]
        cells = []
        for flags, _ in COMBOS:
            d = r.get(flags, {})
            if "search_ms" in d:
                cells.append(f"{d['search_ms'] / 1000:.2f}")
            else:
                cells.append(f"> {d['timeout_s']}" if "timeout_s" in d else "not run")
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
