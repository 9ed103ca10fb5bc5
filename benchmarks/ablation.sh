#!/usr/bin/env bash
# Runs the ablation of docs/ablation.md: per catalog app, the beam search (32 x 5) with every
# combination of sampling/freezing/memoization, and Halide's Anderson2021 plugin on the same app
# and GPU parameters. JSON lines on stdout.
#   benchmarks/ablation.sh build/release/app/cli/beamscope-cli [LIMIT] [APP...]
# Each run is limited to LIMIT seconds of CPU time (ulimit -t, so the limit does not depend on
# what else runs on the machine) and records cpu_s, its process's user + system time (the search
# runs on one thread: on a busy machine this is the figure that compares), beside search_ms, the
# wall time of the search alone. ANDERSON_LIMIT (default LIMIT) limits the Anderson2021 runs.
# QUICK=1 runs only all-on and all-off (Table 1's on/off column and the two time columns).
# Halide 21 runs Anderson2021 with sampling and freezing off by default; it is also run with both
# on (its randomize_tilings=1 freeze_inline_compute_root=1), as "anderson2021-both-on", unless
# ANDERSON_BOTH_ON=0.
set -u
cli="$1"; shift
limit="${1:-120}"; shift || true
apps=("$@")
cpu_file=$(mktemp)
trap 'rm -f "$cpu_file"' EXIT
[ ${#apps[@]} -gt 0 ] || mapfile -t apps < <("$cli" apps | awk '{print $1}')
for app in "${apps[@]}"; do
  combos=("" "--no-memo" "--no-freezing" "--no-freezing --no-memo" "--no-sampling"
          "--no-sampling --no-memo" "--no-sampling --no-freezing"
          "--no-sampling --no-freezing --no-memo")
  [ "${QUICK:-0}" = 1 ] && combos=("" "--no-sampling --no-freezing --no-memo")
  for combo in "${combos[@]}"; do
    # The analytic model, pinned: the search algorithm is measured, not the ranking model; and
    # freezing, when on, on every pipeline as in the paper's tables.
    # shellcheck disable=SC2086
    out=$( (ulimit -t "$limit"; /usr/bin/time -f '%U %S' -o "$cpu_file" "$cli" search "$app" $combo --freeze-min-funcs 0 --cost-model analytic --json) 2>/dev/null)
    if [ $? -eq 0 ]; then
      python3 -c 'import json,sys; d=json.loads(sys.argv[3]); s=d["stats"]; u,k=open(sys.argv[4]).read().split()[-2:]; print(json.dumps({"app": sys.argv[1], "flags": sys.argv[2], "evaluated": s["evaluated"], "search_ms": round(s["search_ms"]), "cpu_s": round(float(u)+float(k), 2), "cost": d["cost"]}))' "$app" "$combo" "$out" "$cpu_file"
    else
      echo "{\"app\": \"$app\", \"flags\": \"$combo\", \"timeout_s\": $limit}"
    fi
  done
  alimit="${ANDERSON_LIMIT:-$limit}"
  modes=("anderson2021")
  [ "${ANDERSON_BOTH_ON:-1}" = 1 ] && modes+=("anderson2021-both-on")
  for mode in "${modes[@]}"; do
    params=()
    [ "$mode" = anderson2021-both-on ] && params=(--anderson2021-param randomize_tilings=1
                                                  --anderson2021-param freeze_inline_compute_root=1)
    out=$( (ulimit -t "$alimit"; /usr/bin/time -f '%U %S' -o "$cpu_file" "$cli" ablate "$app" --anderson2021-only "${params[@]}" --json) 2>/dev/null | grep anderson2021)
    if [ -n "$out" ]; then
      python3 -c 'import json,sys; d=json.loads(sys.argv[1]); u,k=open(sys.argv[2]).read().split()[-2:]; d["cpu_s"]=round(float(u)+float(k), 2); d["combination"]=sys.argv[3]; print(json.dumps(d))' "$out" "$cpu_file" "$mode"
    else
      echo "{\"app\": \"$app\", \"combination\": \"$mode\", \"timeout_s\": $alimit}"
    fi
  done
done
