#!/usr/bin/env python3
"""The table of benchmarks/gpu_check.sh (docs/gpu-check.md).

    benchmarks/gpu_check_table.py [--statistic min|median] [--freeze-dir DIR] REPORTS_DIR DAGS_DIR GPU_PRESET [ANALYTIC_DIR]

REPORTS_DIR holds one `bench --mode topk --top 5 --json` report per app (APP.json), DAGS_DIR the
`dag APP --format json` of the same app and size. Per app:
- one-shot: the measured time of the candidate the model ranks first among those that pass the
  spill filter (the report's `survivors`, in predicted order), as `bench --mode oneshot` picks it;
  a failure of that candidate is the one-shot's failure (no peeking at the others);
- top-5: the fastest correct of the model's first five survivors;
- each baseline's measured time, and one-shot and top-5 over Anderson2021 (Halide's default
  configuration) and over anderson2021-paper;
- the fastest correct schedule of the row (ours or a baseline) and its effective bandwidth: bytes
  of the pipeline's inputs (their required regions) and outputs over its time, as a fraction of
  the preset's peak DRAM bandwidth. 100% is the physical limit of a pipeline that reads each
  input byte and writes each output byte once.
- with ANALYTIC_DIR (one `bench --mode oneshot --cost-model analytic` report per app): the
  analytic model's own one-shot pick, measured, and its time over Anderson2021's, so the learned
  and the analytic one-shot are compared on the same device in the same run.
- with --freeze-dir (a `bench --mode oneshot --freeze-min-funcs 0` report per app, ranked by the
  same model, for the small apps that search without freezing by default): the one-shot with the
  paper's freezing, its time over Anderson2021's and over the default one-shot's on the same apps
  (docs/design-notes.md, "Freezing from ten Funcs").
The last lines give the geomeans and the counts of apps faster than Anderson2021.

A schedule's time is the fastest of its timed runs (--statistic min, the default; Halide's own
benchmark convention and what `train` and `models` rank by): on a GPU machine where the timing
thread cannot run at real-time priority a run that loses the CPU for a scheduler tick reads
milliseconds long (H200, 2026-11-28: harris's Anderson2021 median 10.5 ms, minimum 0.263 ms, its
kernels 0.246 ms by CUPTI). --statistic median gives the earlier tables' figures."""
import argparse
import json
import math
import os

BASELINES = ["anderson2021", "anderson2021-paper", "li2018", "naive"]
STATISTIC = "min"


def measured_ms(row):
    if row and row.get("correct") and row.get("measured_ms"):
        return row["measured_ms"][STATISTIC]
    return None


def io_bytes(dag):
    total = 0
    for f in dag["funcs"]:
        if f["is_input"] or f["is_output"]:
            total += math.prod(f["extents"]) * f.get("bytes_per_point", 0)
    return total


def fmt(x, digits=3):
    return "—" if x is None else f"{x:.{digits}f}"


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def oneshot_time(report_dir, app):
    """The measured time of the schedule `bench --mode oneshot` chose in REPORT_DIR/APP.json (the
    analytic model's, or the one searched with the paper's freezing), or None."""
    if not report_dir:
        return None
    try:
        report = json.load(open(os.path.join(report_dir, app + ".json")))
    except (OSError, ValueError):
        return None
    chosen = [c for c in report.get("candidates", []) if c.get("label") == report.get("chosen")]
    return measured_ms(chosen[0]) if chosen else None


def peak_bandwidth(gpu_path, reports_dir):
    """The preset's peak DRAM bandwidth (GB/s). GPU_PRESET may be a folder of presets: then the
    one named like the GPU model the reports were ranked with (their "gpu")."""
    if not os.path.isdir(gpu_path):
        return json.load(open(gpu_path))["global_memory_bandwidth_gbs"]
    names = set()
    for n in os.listdir(reports_dir):
        try:
            names.add(json.load(open(os.path.join(reports_dir, n))).get("gpu"))
        except (OSError, ValueError):
            pass
    for n in sorted(os.listdir(gpu_path)):
        preset = json.load(open(os.path.join(gpu_path, n)))
        if preset.get("name") in names:
            return preset["global_memory_bandwidth_gbs"]
    raise SystemExit(f"no preset in {gpu_path} is named like the reports' GPU model {sorted(map(str, names))}")


def main(reports_dir, dags_dir, gpu_path, analytic_dir=None, freeze_dir=None):
    peak_gbs = peak_bandwidth(gpu_path, reports_dir)
    cols = ["app", "one-shot (ms)", "top-5 (ms)"] + [f"{b} (ms)" for b in BASELINES] + [
        "one-shot / A2021", "top-5 / A2021", "one-shot / A2021-paper", "fastest", "bandwidth of fastest"]
    if analytic_dir:
        cols += ["analytic one-shot (ms)", "analytic one-shot / A2021"]
    if freeze_dir:
        cols += ["one-shot with freezing (ms)", "with freezing / A2021",
                 "with freezing / one-shot"]
    print(f"Times: the {'fastest' if STATISTIC == 'min' else 'median'} of each schedule's timed runs (ms).")
    print()
    print("| " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * (len(cols) - 1))
    ratios = {"oneshot": [], "top5": [], "oneshot_paper": [], "analytic": [], "freeze": [],
              "freeze_vs_oneshot": []}
    faster = {"oneshot": 0, "top5": 0, "analytic": 0, "freeze": 0}

    def ratio(key, time, reference):
        """time / reference (None when either is missing), kept under `key` with the count of
        ratios below 1 where `faster` counts them."""
        r = time / reference if time and reference else None
        if r:
            ratios[key].append(r)
            if key in faster:
                faster[key] += r < 1
        return r

    apps = sorted(n[:-5] for n in os.listdir(reports_dir) if n.endswith(".json"))
    for app in apps:
        try:
            report = json.load(open(os.path.join(reports_dir, app + ".json")))
        except ValueError:
            print(f"| {app} | not finished |" + " |" * (len(cols) - 2))
            continue
        cands = report.get("candidates", [])
        survivors = [cands[i] for i in report.get("survivors", []) if i < len(cands)]
        oneshot = measured_ms(survivors[0]) if survivors else None
        top5 = [t for t in (measured_ms(c) for c in survivors[:5]) if t is not None]
        top5 = min(top5) if top5 else None
        base = {}
        for row in report.get("baselines", []):
            base[row.get("label", "").removeprefix("baseline:")] = measured_ms(row)
        a21, a21p = base.get("anderson2021"), base.get("anderson2021-paper")
        r1 = ratio("oneshot", oneshot, a21)
        r5 = ratio("top5", top5, a21)
        rp = ratio("oneshot_paper", oneshot, a21p)
        timed = [(measured_ms(c), c["label"]) for c in cands] + [(t, b) for b, t in base.items()]
        timed = [(t, n) for t, n in timed if t is not None]
        fastest = min(timed) if timed else None
        bw = "—"
        dag_path = os.path.join(dags_dir, app + ".json")
        if fastest and os.path.exists(dag_path):
            try:
                gbs = io_bytes(json.load(open(dag_path))) / (fastest[0] * 1e-3) / 1e9
                bw = f"{gbs:.0f} GB/s ({100 * gbs / peak_gbs:.1f}%)"
            except (ValueError, KeyError):
                pass
        cells = [app, fmt(oneshot), fmt(top5)] + [fmt(base.get(b)) for b in BASELINES] + [
            fmt(r1, 2), fmt(r5, 2), fmt(rp, 2), f"{fastest[1]} {fastest[0]:.3f}" if fastest else "—", bw]
        if analytic_dir:
            ana = oneshot_time(analytic_dir, app)
            cells += [fmt(ana), fmt(ratio("analytic", ana, a21), 2)]
        if freeze_dir:
            fr = oneshot_time(freeze_dir, app)
            cells += [fmt(fr), fmt(ratio("freeze", fr, a21), 2),
                      fmt(ratio("freeze_vs_oneshot", fr, oneshot), 2)]
        print("| " + " | ".join(cells) + " |")
    n1, n5 = len(ratios["oneshot"]), len(ratios["top5"])
    print()
    print(f"geomean one-shot / Anderson2021: {fmt(geomean(ratios['oneshot']), 3)} over {n1} apps, "
          f"faster on {faster['oneshot']}")
    print(f"geomean top-5 / Anderson2021: {fmt(geomean(ratios['top5']), 3)} over {n5} apps, "
          f"faster on {faster['top5']}")
    print(f"geomean one-shot / anderson2021-paper: {fmt(geomean(ratios['oneshot_paper']), 3)} over "
          f"{len(ratios['oneshot_paper'])} apps")
    if analytic_dir:
        print(f"geomean analytic one-shot / Anderson2021: {fmt(geomean(ratios['analytic']), 3)} over "
              f"{len(ratios['analytic'])} apps, faster on {faster['analytic']}")
    if freeze_dir:
        print(f"geomean one-shot with freezing / Anderson2021: {fmt(geomean(ratios['freeze']), 3)} "
              f"over {len(ratios['freeze'])} apps, faster on {faster['freeze']}")
        print(f"geomean one-shot with freezing / one-shot: "
              f"{fmt(geomean(ratios['freeze_vs_oneshot']), 3)} over {len(ratios['freeze_vs_oneshot'])} apps")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="The table of benchmarks/gpu_check.sh.")
    parser.add_argument("--statistic", choices=["min", "median"], default="min",
                        help="a schedule's time: the fastest or the median of its timed runs")
    parser.add_argument("reports_dir")
    parser.add_argument("dags_dir")
    parser.add_argument("gpu_preset", help="a GPU preset file, or a folder of them")
    parser.add_argument("analytic_dir", nargs="?")
    parser.add_argument("--freeze-dir",
                        help="one-shot reports searched with the paper's freezing (--freeze-min-funcs 0)")
    args = parser.parse_args()
    STATISTIC = args.statistic
    main(args.reports_dir, args.dags_dir, args.gpu_preset, args.analytic_dir, args.freeze_dir)
