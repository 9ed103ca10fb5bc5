#!/usr/bin/env bash
# Random pipeline sweep (issue 31): for each seed, `dag random:SEED`, a greedy search
# (`search --beam 1`) and a greedy schedule compiled and run on the OpenCL device (PoCL here) at a
# small size through the bench worker (`bench --beam 1 --mode oneshot --top 1`: the better
# predicted of the greedy search and one greedy sample with dropout), checked against the CPU
# reference. Each seed is classified
#   pass | dag (dag failed) | search (search failed) | wrong (an output differs) | failed (bench
#   failed or a candidate failed to compile/run)
# and the counts are printed.
#
#   benchmarks/random_sweep.sh BUILD_DIR [FIRST LAST] [OUT_DIR]
# Environment: SIZE input width of the random pipelines [32]; TIMEOUT seconds per worker [120].
# Writes OUT_DIR/rows.txt (one line per seed) and OUT_DIR/summary.txt; OUT_DIR defaults to
# BUILD_DIR/random-sweep. Measurements are never recorded (--no-db).
set -uo pipefail
build="${1:?usage: random_sweep.sh BUILD_DIR [FIRST LAST] [OUT_DIR]}"
first="${2:-0}"
last="${3:-199}"
out="${4:-$build/random-sweep}"
cli="$build/app/cli/beamscope-cli"
[ -x "$cli" ] || { echo "FAIL: $cli not built"; exit 1; }
size="${SIZE:-32}"
timeout="${TIMEOUT:-120}"
mkdir -p "$out"
: >"$out/rows.txt"
declare -A counts=()
for seed in $(seq "$first" "$last"); do
    p="random:$seed"
    verdict=pass
    detail=""
    if ! "$cli" dag "$p" -p size="$size" >"$out/dag.txt" 2>"$out/err.txt"; then
        verdict=dag
        detail=$(tail -n 1 "$out/err.txt")
    elif ! "$cli" search "$p" -p size="$size" --beam 1 --gpu pocl-cpu --json >"$out/search.json" 2>"$out/err.txt"; then
        verdict=search
        detail=$(tail -n 1 "$out/err.txt")
    elif ! "$cli" bench "$p" -p size="$size" --beam 1 --device opencl --mode oneshot --top 1 --no-db \
        --timeout "$timeout" --repeats 1 --json -q >"$out/bench.json" 2>"$out/err.txt"; then
        verdict=failed
        detail=$(tail -n 1 "$out/err.txt")
    else
        read -r verdict detail < <(python3 - "$out/bench.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
rows = [r for r in j["candidates"] if r.get("measured_ms") or r.get("failure")]
if not rows:
    print("failed nothing measured")
elif any(r.get("failure") for r in rows):
    print("failed", next(r["failure"] for r in rows if r.get("failure")).splitlines()[0][:200])
elif not all(r.get("correct") for r in rows):
    print("wrong", ", ".join(r["label"] for r in rows if not r.get("correct")))
else:
    print("pass", " ".join("%s=%.3fms" % (r["label"], r["measured_ms"]["median"]) for r in rows))
PY
)
    fi
    echo "$p $verdict $detail" | tee -a "$out/rows.txt"
    counts[$verdict]=$(( ${counts[$verdict]:-0} + 1 ))
done
{
    echo "random pipelines $first..$last at size $size, greedy schedules on the OpenCL device:"
    for v in pass dag search failed wrong; do echo "  $v: ${counts[$v]:-0}"; done
} | tee "$out/summary.txt"
[ "${counts[pass]:-0}" -eq $(( last - first + 1 )) ]
