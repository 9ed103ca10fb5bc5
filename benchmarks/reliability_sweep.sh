#!/usr/bin/env bash
# Reliability sweep (issue 12): every catalog app and every test generator, benchmarked on the
# OpenCL device (PoCL here) with the top 3 of the beam + 3 greedy samples (bench --mode topk
# --top 3), searched for each GPU model and seed; every candidate's row is classified
#   correct | wrong (output differs) | crashed (with CrashTriage's verdict) | failed (other)
# and the counts are printed per app and in total, with the crash verdicts.
#
#   benchmarks/reliability_sweep.sh BUILD_DIR [OUT_DIR]
# Environment (defaults in brackets):
#   MODELS   GPU models the search plans for [v100 a100 pocl-cpu]
#   SEEDS    search seeds [1 2 3]
#   SIZES    small and/or default [small]; "default" runs the apps named in DEFAULT_APPS at
#            their default size (none unless named: most take minutes per candidate on PoCL)
#   APPS     catalog apps [all 16; "-": none]; GENERATORS=0 leaves the test generators out
#   TIMEOUT  seconds per worker [300]
#   REPEATS, WARMUP  timed and untimed runs per candidate [3, 1]; the verdict needs one run
#            (REPEATS=1 WARMUP=0 makes a default-size sweep about 4x cheaper)
# Writes OUT_DIR/rows.jsonl (one line per candidate) and OUT_DIR/summary.txt; OUT_DIR defaults
# to BUILD_DIR/reliability-sweep. Measurements are never reused (--no-db).
set -uo pipefail
build="${1:?usage: reliability_sweep.sh BUILD_DIR [OUT_DIR]}"
out="${2:-$build/reliability-sweep}"
cli="$build/app/cli/beamscope-cli"
[ -x "$cli" ] || { echo "FAIL: $cli not built"; exit 1; }
models=(${MODELS:-v100 a100 pocl-cpu})
seeds=(${SEEDS:-1 2 3})
sizes=(${SIZES:-small})
default_apps=" ${DEFAULT_APPS:-} "
timeout="${TIMEOUT:-300}"
repeats="${REPEATS:-3}"
warmup="${WARMUP:-1}"
mkdir -p "$out"
rows="$out/rows.jsonl"
: >"$rows"

source "$(dirname "$0")/../tests/data/catalog_small_sizes.sh"
# Test generators (tests/data/generators), with the scalar inputs their e2e test gives them.
user_lib="$build/tests/libbeamscope_test_user_generators.so"
test_lib="$build/tests/libbeamscope_test_generators.so"
declare -A generators=(
    [user_tone_map]="--generator-lib $user_lib --input gain=1.25 --input invert=true"
    [user_box_stats]="--generator-lib $user_lib --input scale=0.5 --input bias=7"
    [user_pyramid_4d]="--generator-lib $user_lib"
    [test_blur]="--generator-lib $test_lib"
)

if [ "${APPS:-}" = - ]; then apps=(); elif [ -n "${APPS:-}" ]; then apps=($APPS); else mapfile -t apps < <("$cli" apps | awk '{print $1}'); fi
cases=() # "name|size|arguments"
for app in "${apps[@]}"; do
    for size in "${sizes[@]}"; do
        if [ "$size" = small ]; then
            cases+=("$app|small|${catalog_small_sizes[$app]:-}")
        elif [[ $default_apps == *" $app "* ]]; then
            cases+=("$app|default|")
        fi
    done
done
if [ "${GENERATORS:-1}" = 1 ]; then
    for gen in user_tone_map user_box_stats user_pyramid_4d test_blur; do
        cases+=("$gen|estimates|${generators[$gen]}")
    done
fi

start=$SECONDS
for c in "${cases[@]}"; do
    IFS='|' read -r name size args <<<"$c"
    for model in "${models[@]}"; do
        for seed in "${seeds[@]}"; do
            t0=$SECONDS
            # shellcheck disable=SC2086
            "$cli" bench "$name" $args --device opencl --mode topk --top 3 --gpu "$model" \
                --seed "$seed" --repeats "$repeats" --warmup "$warmup" --timeout "$timeout" \
                --json -q --no-db \
                >"$out/report.json" 2>"$out/err"
            rc=$?
            python3 - "$name" "$size" "$model" "$seed" "$rc" "$((SECONDS - t0))" "$out/err" \
                "$out/report.json" >>"$rows" <<'PY'
import json, sys
name, size, model, seed, rc, secs, errfile, reportfile = sys.argv[1:]
text = open(reportfile, errors="replace").read()
base = {"app": name, "size": size, "model": model, "seed": int(seed), "seconds": int(secs)}
try:
    report = json.loads(text)
except ValueError:
    err = open(errfile, errors="replace").read().strip().splitlines()
    print(json.dumps({**base, "label": "-", "class": "failed",
                      "detail": f"bench exit {rc}: " + (err[-1] if err else "no JSON report")}))
    sys.exit(0)
for r in report.get("candidates", []):
    failure = r.get("failure") or ""
    verdict = r.get("crash_verdict") or ""
    if r.get("correct") is True:
        cls = "correct"
    elif failure.startswith("crash:"):
        cls = "crashed"
    elif r.get("correct") is False:
        cls = "wrong"
    else:
        cls = "failed"
    print(json.dumps({**base, "label": r.get("label", "?"), "class": cls, "verdict": verdict,
                      "detail": failure[:400], "note": r.get("check_note") or ""}))
PY
            echo "$name $size $model seed $seed: exit $rc, $((SECONDS - t0)) s" >&2
        done
    done
done

python3 - "$rows" "$((SECONDS - start))" >"$out/summary.txt" <<'PY'
import collections, json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
classes = ["correct", "wrong", "crashed", "failed"]
per = collections.OrderedDict()
verdicts = collections.Counter()
for r in rows:
    key = f'{r["app"]} ({r["size"]})'
    per.setdefault(key, collections.Counter())[r["class"]] += 1
    if r["class"] == "crashed":
        verdicts[r.get("verdict") or "no verdict"] += 1
print(f'{"app":38} ' + " ".join(f"{c:>8}" for c in classes))
total = collections.Counter()
for key, counts in per.items():
    total.update(counts)
    print(f"{key:38} " + " ".join(f"{counts[c]:>8}" for c in classes))
print(f'{"total":38} ' + " ".join(f"{total[c]:>8}" for c in classes))
print(f"{sum(total.values())} candidates, {int(sys.argv[2])} s")
for v, n in verdicts.most_common():
    print(f"crash verdict: {v}: {n}")
for r in rows:
    if r["class"] != "correct":
        print(f'{r["app"]} {r["size"]} {r["model"]} seed {r["seed"]} {r["label"]}: {r["class"]}: {r["detail"]}')
PY
cat "$out/summary.txt"
