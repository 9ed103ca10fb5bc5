#!/usr/bin/env python3
"""Measures and tabulates the schedule quality of two builds (benchmarks/quality_old_new.sh).

measure WORK NEW_CLI APP...: WORK holds, per app, each build's `bench --device none --mode topk`
report (old-APP.json, new-APP.json) and the app's size flags (params-APP.txt), and device.json (a
bench report naming the OpenCL device). Each distinct schedule among each build's 5
best-predicted candidates (and the next ones where one of those fails in round 1) becomes one
beamscope-worker job of the NEW build (the job the bench itself would write: same target, GPU
model, repeats, warm-ups, input seed and tolerances, the device lock the benches share), run
ROUNDS times, the builds' schedules interleaved (old's best predicted, new's best, old's second,
...; reversed every other round). Prints one JSON line per app and build: its candidates, each
with its per-round medians (none for a candidate that was not measured).

table FILE: per app, each build's one-shot (measured time of its best-predicted correct
candidate) and top-5 (fastest of its 5 best-predicted correct candidates), as benchmarks/
fig7_table.py defines them; a candidate's time is the median of its per-round medians. Ratios
are new over old (below 1: the new build's choice is faster), marked ~ where the two schedules'
ranges of round medians overlap; the last column is the widest such range (max/min) of the four."""
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import tempfile


def fnv1a64_hex(text):
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) % (1 << 64)
    return f"{h:016x}"


def device_lock(device):
    """The lock file beamscope's bench uses for device 0 (ParallelWorkers.cpp, DeviceDetect.cpp)."""
    text = (f"OpenCL {device['opencl_type']}: {device['name']} ({device['platform']}, "
            f"{device['compute_units']} compute units)")
    if device.get("notes"):
        text += "; " + ", ".join(device["notes"])
    return os.path.join(os.environ.get("TMPDIR") or "/tmp",
                        f"beamscope-device-{os.getuid()}-{fnv1a64_hex(text)}.lock")


def first_existing(paths, what):
    for p in paths:
        if os.path.isfile(p):
            return p
    sys.exit(f"quality_old_new.py: {what} not found (looked at {', '.join(paths)})")


def params_of(path):
    words = shlex.split(open(path).read())
    return [words[i + 1] for i in range(len(words) - 1) if words[i] == "-p"]


def run_job(job, worker, env, work):
    fd, path = tempfile.mkstemp(suffix=".json", dir=work)
    with os.fdopen(fd, "w") as f:
        json.dump(job, f)
    try:
        out = subprocess.run([worker, path], env=env, capture_output=True, text=True,
                             timeout=job["timeout_s"] + 60)
        lines = [line for line in out.stdout.splitlines() if line.strip()]
        return json.loads(lines[-1]) if lines else {"failure": f"worker exit {out.returncode}, no output"}
    except subprocess.TimeoutExpired:
        return {"failure": "worker timed out"}
    finally:
        os.unlink(path)


def measure(work, new_cli, apps):
    rounds = int(os.environ.get("ROUNDS", "3"))
    repeats = int(os.environ.get("REPEATS", "10"))
    warmup = int(os.environ.get("WARMUP", "2"))
    cli_dir = os.path.dirname(os.path.abspath(new_cli))
    worker = first_existing([os.path.join(cli_dir, p) for p in
                             ("beamscope-worker", "../worker/beamscope-worker",
                              "../app/worker/beamscope-worker")], "the new build's beamscope-worker")
    gpu = json.load(open(first_existing(
        [os.path.join(cli_dir, p) for p in ("../share/beamscope/gpus/pocl-cpu.json",
                                            "../../share/beamscope/gpus/pocl-cpu.json")],
        "the pocl-cpu GPU preset")))
    device = json.load(open(os.path.join(work, "device.json")))["device"]
    if device.get("kind") != "opencl":
        sys.exit("quality_old_new.py: the new build found no OpenCL device")
    env = dict(os.environ, HL_OCL_PLATFORM_NAME=device["platform"],
               HL_OCL_DEVICE_TYPE=device["opencl_type"].lower(), HL_GPU_DEVICE="0")
    lock = device_lock(device)

    plan = {}  # app -> {"builds": {tag: [candidate]}, "schedules": [schedule], "order": [id]}
    for app in apps:
        entry = {"builds": {}, "schedules": [], "limits": [], "order": []}
        keys = {}
        for tag in ("old", "new"):
            report = json.load(open(os.path.join(work, f"{tag}-{app}.json")))
            # The unroll limit a build's schedules are lowered with (the job's
            # max_unrolled_points); OLD_MAX_UNROLLED_POINTS runs the old build's as it lowered
            # them (15 before the forty-ninth session). A schedule is one per limit.
            limit = os.environ.get(tag.upper() + "_MAX_UNROLLED_POINTS")
            limit = int(limit) if limit else None
            cands = []
            for c in report["candidates"]:
                key = json.dumps([c["schedule"], limit], sort_keys=True)
                if key not in keys:
                    keys[key] = len(entry["schedules"])
                    entry["schedules"].append(c["schedule"])
                    entry["limits"].append(limit)
                cands.append({"label": c["label"], "predicted": c["predicted"],
                              "schedule_id": keys[key]})
            entry["builds"][tag] = {"candidates": cands,
                                    "beam_search_ms": report.get("beam_search_ms")}
        # Only the 5 best-predicted of each build decide its one-shot and top-5; more are
        # measured (best predicted first) only where one of those fails (see `needed`).
        entry["ranked"] = {tag: sorted(entry["builds"][tag]["candidates"], key=lambda c: c["predicted"])
                           for tag in ("old", "new")}
        old, new = entry["ranked"]["old"][:5], entry["ranked"]["new"][:5]
        for i in range(5):
            for side in (old, new):
                if i < len(side) and side[i]["schedule_id"] not in entry["order"]:
                    entry["order"].append(side[i]["schedule_id"])
        entry["params"] = params_of(os.path.join(work, f"params-{app}.txt"))
        entry["results"] = [[] for _ in entry["schedules"]]
        plan[app] = entry

    for r in range(rounds):
        for app in apps:
            entry = plan[app]
            order = entry["order"] if r % 2 == 0 else list(reversed(entry["order"]))
            queue = list(order)
            while queue:
                sid = queue.pop(0)
                job = {"label": f"{app}#{sid}", "pipeline": {"app": app, "params": entry["params"]},
                       "schedule": entry["schedules"][sid], "gpu": gpu, "target": device["halide_target"],
                       "stage_producers": True, "warmup": warmup, "repeats": repeats,
                       "timeout_s": 300.0, "seed": 1,
                       "reference_cache": os.path.join(work, f"ref-{app}.bin"), "device_lock": lock}
                if entry["limits"][sid] is not None:
                    job["max_unrolled_points"] = entry["limits"][sid]
                m = run_job(job, worker, env, work)
                entry["results"][sid].append(m)
                ms = (m.get("measured_ms") or {}).get("median")
                print(f"round {r + 1}/{rounds} {app} schedule {sid}: "
                      f"{ms if ms is not None else m.get('failure')}", file=sys.stderr, flush=True)
                if r == 0 and not queue:
                    queue = needed(entry)
                    entry["order"] += queue

    for app in apps:
        entry = plan[app]
        for tag in ("old", "new"):
            cands = []
            for c in entry["builds"][tag]["candidates"]:
                runs = entry["results"][c["schedule_id"]]
                if not runs:  # not among the best predicted: not measured
                    cands.append(dict(c, correct=None, failure=None, round_medians_ms=[],
                                      median_ms=None))
                    continue
                medians = [(m.get("measured_ms") or {}).get("median") for m in runs]
                correct = all(m.get("correct") is True for m in runs) and None not in medians
                failures = sorted({m["failure"] for m in runs if m.get("failure")})
                cands.append(dict(c, correct=correct, failure="; ".join(failures) or None,
                                  round_medians_ms=medians,
                                  median_ms=statistics.median(medians) if correct else None))
            print(json.dumps({"app": app, "build": tag, "flags": os.environ.get(tag.upper() + "_FLAGS", ""),
                              "rounds": rounds, "repeats": repeats,
                              "beam_search_ms": entry["builds"][tag]["beam_search_ms"],
                              "candidates": cands}), flush=True)


def needed(entry):
    """Schedules to add in round 1 where a build has fewer than 5 correct among its measured
    candidates: its next best-predicted unmeasured ones (called again until none is needed)."""
    extra = []
    for tag in ("old", "new"):
        ranked = entry["ranked"][tag]
        ok = sum(1 for c in ranked if entry["results"][c["schedule_id"]]
                 and entry["results"][c["schedule_id"]][0].get("correct") is True)
        for c in ranked:
            if ok >= 5:
                break
            if not entry["results"][c["schedule_id"]] and c["schedule_id"] not in extra:
                extra.append(c["schedule_id"])
                ok += 1
    return extra


def choices(cands):
    rows = sorted((c for c in cands if c["correct"]), key=lambda c: c["predicted"])
    if not rows:
        return None, None
    return rows[0], min(rows[:5], key=lambda c: c["median_ms"])


def spread(c):
    return max(c["round_medians_ms"]) / min(c["round_medians_ms"])


def ratio(old, new):
    """new/old, marked '~' when the two schedules' ranges of round medians overlap (a difference
    the rounds cannot tell from noise); a schedule both sides chose is 1 by construction."""
    r = new["median_ms"] / old["median_ms"]
    a, b = old["round_medians_ms"], new["round_medians_ms"]
    noise = old["schedule_id"] != new["schedule_id"] and max(min(a), min(b)) <= min(max(a), max(b))
    return r, f"{r:.2f}" + (" ~" if noise else "")


def table(path):
    runs = {}
    for line in open(path):
        if line.strip():
            d = json.loads(line)
            runs.setdefault(d["app"], {})[d["build"]] = d
    first = next(iter(runs.values()), {})
    # A side run with flags (OLD_FLAGS, NEW_FLAGS) is named by them, e.g. "old --no-sampling".
    o, n = (" ".join([t, first.get(t, {}).get("flags", "")]).strip() for t in ("old", "new"))
    print(f"| app | one-shot {o} (ms) | one-shot {n} (ms) | new/old | same schedule | top-5 {o} (ms) "
          f"| top-5 {n} (ms) | new/old | same schedule | round spread (max/min) |")
    print("|---|---:|---:|---:|:---:|---:|---:|---:|:---:|---:|")
    one, top = [], []
    for app, r in runs.items():
        (o_old, t_old), (o_new, t_new) = choices(r["old"]["candidates"]), choices(r["new"]["candidates"])
        if not (o_old and o_new):
            print(f"| {app} | " + " | ".join(["failed"] * 9) + " |")
            continue
        same = lambda a, b: "yes" if a["schedule_id"] == b["schedule_id"] else "no"
        worst = max(spread(c) for c in (o_old, o_new, t_old, t_new))
        (r1, c1), (r5, c5) = ratio(o_old, o_new), ratio(t_old, t_new)
        one.append(r1)
        top.append(r5)
        print(f"| {app} | {o_old['median_ms']:.3f} | {o_new['median_ms']:.3f} | {c1} | "
              f"{same(o_old, o_new)} | {t_old['median_ms']:.3f} | {t_new['median_ms']:.3f} | "
              f"{c5} | {same(t_old, t_new)} | {worst:.2f} |")
    if one:
        g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
        print(f"| **geomean** | | | **{g(one):.2f}** | | | | **{g(top):.2f}** | | |")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "measure":
        measure(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        sys.exit("usage: quality_old_new.py measure WORK NEW_CLI APP... | table FILE")
