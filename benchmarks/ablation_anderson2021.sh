#!/usr/bin/env bash
# Table 1 measured on Halide's own Anderson2021 (the authors' implementation, as shipped in the
# Halide package): per catalog app, the states its cost model evaluated with sampling and freezing
# on (randomize_tilings=1 freeze_inline_compute_root=1) and off (both 0, Halide 21's default),
# beam 32, the same GPU parameters as our search. The count is the plugin's own statistic
# ("Number of schedules evaluated by cost model", printed at HL_DEBUG_AUTOSCHEDULE=1). JSON lines
# on stdout, one per app and mode; a run past LIMIT seconds is a timeout row.
#   benchmarks/ablation_anderson2021.sh build/release/app/cli/beamscope-cli [LIMIT] [APP...]
set -u
cli="$1"; shift
limit="${1:-120}"; shift || true
apps=("$@")
[ ${#apps[@]} -gt 0 ] || mapfile -t apps < <("$cli" apps | awk '{print $1}')
for app in "${apps[@]}"; do
  for mode in on off; do
    v=0; [ "$mode" = on ] && v=1
    log=$(HL_DEBUG_AUTOSCHEDULE=1 timeout "$limit" "$cli" ablate "$app" --anderson2021-only --json \
          --anderson2021-param "randomize_tilings=$v" \
          --anderson2021-param "freeze_inline_compute_root=$v" 2>&1)
    rc=$?
    n=$(printf '%s\n' "$log" | grep -a 'Number of schedules evaluated by cost model:' | tail -n 1 | awk '{print $NF}')
    ms=$(printf '%s\n' "$log" | grep -a '"combination":"anderson2021"' | python3 -c \
         'import json,sys; print(round(json.loads(sys.stdin.read())["search_ms"]))' 2>/dev/null)
    if [ $rc -eq 0 ] && [ -n "$n" ]; then
      echo "{\"app\": \"$app\", \"anderson2021\": \"$mode\", \"evaluated\": $n, \"search_ms\": ${ms:-null}}"
    else
      echo "{\"app\": \"$app\", \"anderson2021\": \"$mode\", \"timeout_s\": $limit, \"exit\": $rc}"
    fi
  done
done
