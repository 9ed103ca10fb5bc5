#!/usr/bin/env python3
"""The catalog table of docs/performance.md ("On a CUDA GPU") from benchmarks/cuda_catalog.sh.

Input: either the folder cuda_catalog.sh wrote (APP.json per app) or a JSON-lines file of
{"app", "rc", "wall_s", "report"} (docs/cuda-h100/catalog-oneshot.jsonl). Per app: the
measured median of Beamscope's chosen schedule (one-shot: the best predicted that passed the
spill filter; top-k: the fastest correct) and of each baseline, or why it has none (wrong
output, a CUDA error, not finished before the app's time limit). The ratios are Beamscope's time
over Anderson2021's, in Halide's default configuration and in the paper's (anderson2021-paper:
sampling and freezing on); below 1, Beamscope's schedule is faster.
    benchmarks/cuda_catalog_table.py OUT_DIR | FILE.jsonl
With --fig7 ON_DIR OFF_DIR it instead prints, for the apps of ON_DIR, the JSON lines
{"app", "config": "on"|"off", "rc", "report"} that fig7_table.py reads."""
import json
import math
import os
import sys

BASELINES = ["anderson2021", "anderson2021-paper", "li2018", "mullapudi2016", "naive"]


def runs(path):
    if os.path.isdir(path):
        for name in sorted(os.listdir(path)):
            if name.endswith(".json"):
                try:
                    report = json.load(open(os.path.join(path, name)))
                except ValueError:
                    report = None
                yield {"app": name[:-5], "rc": None, "wall_s": None, "report": report}
        return
    for line in open(path):
        if line.strip():
            yield json.loads(line)


def cell(row, finished=True):
    """The measured median in ms, else a short reason."""
    if row is None:
        return "not run" if finished else "not finished"
    if row.get("measured_ms") and row.get("correct"):
        return f"{row['measured_ms']['median']:.3f}"
    failure = row.get("failure") or ""
    if row.get("correct") is False or failure.startswith("wrong output"):
        return "wrong output"
    if "CUDA_ERROR_" in failure:
        return failure[failure.index("CUDA_ERROR_"):].split()[0]
    if "nested GPU block loops" in failure or "GPU block loop" in failure:
        return "compile error (GPU block loops)"
    return "failed" if failure else "not finished"


def main(path):
    print("| app | Beamscope (ms) | Anderson2021 | Anderson2021 paper | Li2018 | Mullapudi2016 "
          "| naive | Beamscope / Anderson2021 | Beamscope / Anderson2021 paper | search (s) "
          "| bench wall (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    ratios = {"anderson2021": [], "anderson2021-paper": []}
    for run in runs(path):
        report = run["report"]
        if not report:
            print(f"| {run['app']} | no report | | | | | | | | | |")
            continue
        chosen = next((c for c in report["candidates"] if c["label"] == report.get("chosen")), None)
        if chosen is not None and not chosen.get("measured_ms"):
            chosen = None
        by_name = {b["label"].split(":", 1)[1]: b for b in report.get("baselines", [])}
        ours = cell(chosen) if chosen else "not finished"
        ratio = {}
        for name, found in ratios.items():
            a21 = by_name.get(name)
            ratio[name] = ""
            if (chosen and chosen.get("correct") and a21 and a21.get("correct")
                    and a21.get("measured_ms")):
                r = chosen["measured_ms"]["median"] / a21["measured_ms"]["median"]
                found.append(r)
                ratio[name] = f"{r:.2f}"
        wall = f"{run['wall_s']:.0f}" if run.get("wall_s") else ""
        if run.get("rc") not in (None, 0):
            wall += f" (limit, rc {run['rc']})"
        finished = run.get("rc") in (None, 0)
        cells = [ours] + [cell(by_name.get(b), finished) for b in BASELINES] + [
            ratio["anderson2021"], ratio["anderson2021-paper"],
            f"{report['beam_search_ms'] / 1000:.2f}", wall]
        print(f"| {run['app']} | " + " | ".join(cells) + " |")
    means = []
    for found in ratios.values():
        g = math.exp(sum(map(math.log, found)) / len(found)) if found else None
        means.append(f"**{g:.2f}** ({len(found)} apps)" if g else "")
    if any(means):
        print("| **geomean** | | | | | | | " + " | ".join(means) + " | | |")


def fig7_lines(on_dir, off_dir):
    off = {r["app"]: r["report"] for r in runs(off_dir)}
    for run in runs(on_dir):
        for config, report in (("on", run["report"]), ("off", off.get(run["app"]))):
            print(json.dumps({"app": run["app"], "config": config, "rc": 0 if report else 1,
                              "report": report}))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--fig7":
        fig7_lines(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        sys.exit("usage: cuda_catalog_table.py OUT_DIR | FILE.jsonl | --fig7 ON_DIR OFF_DIR")
