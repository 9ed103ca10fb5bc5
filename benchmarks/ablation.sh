#!/usr/bin/env bash
# Runs the ablation of docs/ablation.md: per catalog app, the beam search (32 x 5) with every
# combination of sampling/freezing/memoization (each run limited to LIMIT seconds), and Halide's
# Anderson2021 plugin on the same app and GPU parameters. JSON lines on stdout.
#   benchmarks/ablation.sh build/release/app/cli/beamscope-cli [LIMIT] [APP...]
# ANDERSON_LIMIT (default LIMIT) limits the Anderson2021 runs.
# QUICK=1 runs only all-on and all-off (Table 1's on/off column and the two time columns).
set -u
cli="$1"; shift
limit="${1:-120}"; shift || true
apps=("$@")
[ ${#apps[@]} -gt 0 ] || mapfile -t apps < <("$cli" apps | awk '{print $1}')
for app in "${apps[@]}"; do
  combos=("" "--no-memo" "--no-freezing" "--no-freezing --no-memo" "--no-sampling"
          "--no-sampling --no-memo" "--no-sampling --no-freezing"
          "--no-sampling --no-freezing --no-memo")
  [ "${QUICK:-0}" = 1 ] && combos=("" "--no-sampling --no-freezing --no-memo")
  for combo in "${combos[@]}"; do
    # shellcheck disable=SC2086
    out=$(timeout "$limit" "$cli" search "$app" $combo --json 2>/dev/null)
    if [ $? -eq 0 ]; then
      python3 -c 'import json,sys; d=json.loads(sys.argv[3]); s=d["stats"]; print(json.dumps({"app": sys.argv[1], "flags": sys.argv[2], "evaluated": s["evaluated"], "search_ms": round(s["search_ms"]), "cost": d["cost"]}))' "$app" "$combo" "$out"
    else
      echo "{\"app\": \"$app\", \"flags\": \"$combo\", \"timeout_s\": $limit}"
    fi
  done
  alimit="${ANDERSON_LIMIT:-$limit}"
  out=$(timeout "$alimit" "$cli" ablate "$app" --anderson2021-only --json 2>/dev/null | grep anderson2021)
  [ -n "$out" ] && echo "$out" || echo "{\"app\": \"$app\", \"combination\": \"anderson2021\", \"timeout_s\": $alimit}"
done
