#!/usr/bin/env python3
"""Per-kernel predicted and measured times beside the registers ptxas gave each kernel: does the
occupancy that registers allow explain where the analytic model is wrong?

kernels CLI DB DEVICE PRESET OUT.jsonl: for every correct, non-baseline row of DEVICE (a part of
the device name, e.g. H200) at its default size, `CLI compare APP --with SCHEDULE --json` costs the
row's schedule with the analytic model on PRESET; the stages' costs are summed per root Func (a
root Func's stages and the Funcs computed at its blocks or threads are one kernel, or one per
update definition). One JSON line per kernel: row, app, the row's measured time, the kernel's
predicted time, its CUPTI time (rows that have per-kernel times: the H200 rows), its widest phase's
threads per block and its registers.

occupancy OUT.jsonl [MAX_THREADS_PER_SM REGISTERS_PER_SM MAX_BLOCKS_PER_SM] (default H100/H200's
2048 65536 32): (1) the measured/predicted ratio of kernels by the share of the thread limit's
occupancy their registers leave (registers allocated 8 at a time); (2) the per-app Kendall tau and
one-shot regret of the rows when each kernel's prediction is divided by that share to the power
alpha (0: the model as it is; 1: a kernel at half occupancy takes twice as long), for the catalog
apps and the random pipelines. Rows without ptxas's registers (collect records none) are left
out. Uses what ptxas measured, so it bounds what a register estimate in
the featurizer could give."""
import collections
import itertools
import json
import math
import sqlite3
import subprocess
import sys
import tempfile


def kernels(cli, db, device, preset, out_path):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute(
        "SELECT id, app, schedule, measurement, min_ms FROM measurements WHERE device_name LIKE ? "
        "AND correct = 1 AND baseline = '' AND params = '[]' AND schedule IS NOT NULL "
        "ORDER BY app, id", (f"%{device}%",)).fetchall()
    with open(out_path, "w") as out, tempfile.NamedTemporaryFile("w", suffix=".json") as sched_file:
        for row_id, app, schedule, measurement, row_ms in rows:
            sched_file.seek(0)
            sched_file.truncate()
            sched_file.write(schedule)
            sched_file.flush()
            run = subprocess.run([cli, "compare", app, "--gpu", preset, "--cost-model", "analytic",
                                  "--with", sched_file.name, "--beam", "1", "--passes", "1", "--json"],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print(f"row {row_id} ({app}): {run.stderr.strip()}", file=sys.stderr)
                continue
            funcs = {f["name"]: f for f in json.loads(schedule)}

            def root_of(name):
                f = funcs[name]
                while f["decision"] in ("block", "thread"):
                    f = funcs[f["consumer"]]
                return f["name"]

            predicted = collections.defaultdict(float)
            for stage in json.loads(run.stdout)["cost"]["stages"]:
                if stage["theirs"] is not None:
                    predicted[root_of(stage["stage"].split(".")[0])] += stage["theirs"]["total"]
            threads = collections.defaultdict(lambda: 1)
            for name, f in funcs.items():
                if f["decision"] in ("root", "block"):
                    for tile in f["stages"]:
                        threads[root_of(name)] = max(threads[root_of(name)], math.prod(tile["thread"]))

            def func_of(kernel_name):  # _kernel_<func>_s0_... -> the longest root Func it names
                name = kernel_name[len("_kernel_"):]
                return max((f for f in predicted if name.startswith(f + "_")), key=len, default=None)

            m = json.loads(measurement)
            registers, measured = {}, collections.defaultdict(float)
            for k in m.get("kernels", []):
                func = func_of(k["name"])
                registers[func] = max(registers.get(func, 0), k["registers"])
            for k in m.get("kernel_times") or []:
                measured[func_of(k["name"])] += k["ms"]
            for func, ms in sorted(predicted.items()):
                out.write(json.dumps({"row": row_id, "app": app, "row_ms": row_ms, "kernel": func,
                                      "predicted_ms": ms, "measured_ms": measured.get(func),
                                      "threads": threads[func], "registers": registers.get(func)}) + "\n")


def occupancy(path, max_threads=2048, registers_per_sm=65536, max_blocks=32):
    every = [json.loads(line) for line in open(path)]
    # Only rows whose kernels all have ptxas's registers (collect's rows record none).
    unknown = {k["row"] for k in every if not k["registers"]}
    ks = [k for k in every if k["row"] not in unknown]

    def share(k):  # occupancy the registers allow over what the threads allow
        threads = math.ceil(k["threads"] / 32) * 32
        by_threads = min(max_blocks, max_threads // threads)
        by_registers = max(1, registers_per_sm // (math.ceil(k["registers"] / 8) * 8 * threads))
        return min(by_threads, by_registers) / by_threads

    def tau(p, m):
        c = d = 0
        for i, j in itertools.combinations(range(len(p)), 2):
            s = (p[i] - p[j]) * (m[i] - m[j])
            c += s > 0
            d += s < 0
        return (c - d) / max(1, c + d)

    timed = [k for k in ks if k["measured_ms"] and k["predicted_ms"] > 0]
    print(f"{len(ks)} kernels of {len({k['row'] for k in ks})} rows with registers "
          f"({len(unknown)} rows without left out), {sum(share(k) < 1 for k in ks)} register-limited; "
          f"{len(timed)} with CUPTI times")
    if timed:
        print("| occupancy registers allow / threads allow | kernels | median measured/predicted |")
        print("|---|---:|---:|")
        for lo, hi in [(1.0, 1.01), (0.6, 1.0), (0.0, 0.6)]:
            ratios = sorted(k["measured_ms"] / k["predicted_ms"] for k in timed if lo <= share(k) < hi)
            if ratios:
                label = "1 (not limited)" if lo == 1.0 else f"{lo:.1f}-{hi:.1f}"
                print(f"| {label} | {len(ratios)} | {ratios[len(ratios) // 2]:.2f} |")
    rows = collections.defaultdict(list)
    for k in ks:
        rows[(k["app"], k["row"])].append(k)
    for random in (False, True):
        for alpha in (0.0, 0.5, 1.0):
            apps = collections.defaultdict(list)
            for (app, _), kk in rows.items():
                if app.startswith("random:") == random:
                    apps[app].append((sum(k["predicted_ms"] * share(k) ** -alpha for k in kk),
                                      kk[0]["row_ms"]))
            if not apps:
                continue
            taus, regrets = [], []
            for v in apps.values():
                p, m = [x[0] for x in v], [x[1] for x in v]
                taus.append(tau(p, m))
                regrets.append(m[p.index(min(p))] / min(m))
            print(f"{'random pipelines' if random else 'catalog apps'} ({len(apps)}), alpha {alpha}: "
                  f"mean tau {sum(taus) / len(taus):.3f}, geomean regret "
                  f"{math.exp(sum(map(math.log, regrets)) / len(regrets)):.3f}")


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "kernels":
        kernels(*sys.argv[2:])
    elif len(sys.argv) in (3, 6) and sys.argv[1] == "occupancy":
        occupancy(sys.argv[2], *map(int, sys.argv[3:]))
    else:
        sys.exit(__doc__)
