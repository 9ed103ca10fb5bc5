#!/usr/bin/env python3
"""Search time of two builds side by side (the companion of benchmarks/quality_old_new.sh).

run OLD_CLI NEW_CLI [APP...]: per app, at its small size (tests/data/catalog_small_sizes.sh),
`search APP --gpu pocl-cpu --seed SEED --json` (beam 32 x 5, sampling and freezing on) with each
build, interleaved (old, new; new, old the next round), ROUNDS rounds (default 21). Prints one
JSON line per search: app, build, round, the search's own time (`stats.search_ms`: the search
alone, not the pipeline's construction), the process's wall time, the best predicted cost and
the search's counters (the same counters say both builds did the same work), and the process's
CPU time (user + system; the pipeline's construction included), which a busy machine disturbs
less than the wall times. Compare builds of
the same CMAKE_BUILD_TYPE (the ci preset's RelWithDebInfo is -O2, Release -O3).
Environment: GPU (the preset, default pocl-cpu), SIZE=default for the catalog's default sizes
instead of the small ones, SEARCH_ARGS (more search options, e.g. "--cost-model pretrained").

table FILE: per app the medians (and ranges) of both builds' search times, new/old, the same
for the processes' CPU times, geomeans."""
import json
import math
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_APPS = ["matmul", "conv_layer", "unsharp_mask", "harris", "bilateral_grid", "stencil_chain"]


def small_sizes():
    script = os.path.join(HERE, "..", "tests", "data", "catalog_small_sizes.sh")
    out = subprocess.run(["bash", "-c", f'source "{script}"; for a in "${{!catalog_small_sizes[@]}}"; '
                          'do echo "$a ${catalog_small_sizes[$a]}"; done'],
                         capture_output=True, text=True, check=True).stdout
    return {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.strip()}


def run(old, new, apps):
    sizes = small_sizes()
    rounds = int(os.environ.get("ROUNDS", "21"))
    for app in apps:
        if os.environ.get("SIZE") == "default":
            sizes[app] = []
        elif app not in sizes:
            sys.exit(f"search_time_old_new.py: no small size for {app}")
        for r in range(rounds):
            for tag in (("old", "new") if r % 2 == 0 else ("new", "old")):
                cli = old if tag == "old" else new
                cmd = [cli, "search", app, *sizes[app], "--gpu", os.environ.get("GPU", "pocl-cpu"),
                       "--seed", os.environ.get("SEED", "0"), "--json",
                       *shlex.split(os.environ.get("SEARCH_ARGS", ""))]
                start, before = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
                out = subprocess.run(cmd, capture_output=True, text=True)
                wall, after = time.monotonic() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
                if out.returncode != 0:
                    sys.exit(f"search_time_old_new.py: {shlex.join(cmd)} failed: "
                             f"{(out.stderr.strip().splitlines() or ['?'])[-1]}")
                d = json.loads(out.stdout)
                stats = d["stats"]
                print(json.dumps({"app": app, "build": tag, "round": r + 1,
                                  "search_ms": stats["search_ms"], "wall_s": round(wall, 4), "cpu_s": round(cpu, 4),
                                  "cost": d["cost"],
                                  "counters": {k: stats.get(k) for k in
                                               ("enumerated", "evaluated", "featurizations", "pruned")}}),
                      flush=True)


def table(path):
    runs = {}
    for line in open(path):
        if line.strip():
            d = json.loads(line)
            runs.setdefault(d["app"], {}).setdefault(d["build"], []).append(d)
    print("| app | runs | search old (ms) | search new (ms) | new/old | CPU old (s) | CPU new (s) | new/old "
          "| same work | best predicted old / new (ms) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|:---:|---|")
    ratios, cpu_ratios = [], []
    for app, r in runs.items():
        o, n = ([x["search_ms"] for x in r[t]] for t in ("old", "new"))
        mo, mn = statistics.median(o), statistics.median(n)
        ratios.append(mn / mo)
        co, cn = (statistics.median(x["cpu_s"] for x in r[t]) for t in ("old", "new"))
        cpu_ratios.append(cn / co)
        same = "yes" if len({json.dumps(x["counters"], sort_keys=True) for x in r["old"] + r["new"]}) == 1 else "no"
        print(f"| {app} | {len(o)} | {mo:.1f} ({min(o):.1f}-{max(o):.1f}) | {mn:.1f} ({min(n):.1f}-{max(n):.1f}) "
              f"| {mn / mo:.2f} | {co:.3f} | {cn:.3f} | {cn / co:.2f} | {same} | {r['old'][0]['cost']:.4f} / {r['new'][0]['cost']:.4f} |")
    if ratios:
        g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
        print(f"| **geomean** | | | | **{g(ratios):.2f}** | | | **{g(cpu_ratios):.2f}** | | |")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3], sys.argv[4:] or DEFAULT_APPS)
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        sys.exit("usage: search_time_old_new.py run OLD_CLI NEW_CLI [APP...] | table FILE")
