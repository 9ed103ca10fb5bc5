#!/usr/bin/env bash
# The one script for a lent GPU machine (issue 31, docs/gpu-check.md). In at most BUDGET_S
# seconds it
#   1. trains, for every catalog app, a model on the shared H100 rows without that app
#      (leave one app out: the app is never seen by the model that ranks it),
#   2. runs `collect` on random pipelines for COLLECT_S seconds alone on the machine (rows for
#      the next model; its throughput is not shared with the benches),
#   3. starts the two apps whose Anderson2021 default-mode search takes minutes (lens_blur,
#      local_laplacian) first (bench runs the plugins' searches beside its own candidates),
#   4. benches the other apps with their leave-one-app-out model, top-5 of the beam and 5 greedy
#      samples measured (so the one-shot pick and the top-5 both come from one call) beside
#      Anderson2021 in both configurations, Li2018 and naive, in the same run; then the analytic
#      model's own one-shot pick (`--mode oneshot --top 1`: its search result or greedy sample),
#      measured too, so that the learned and the analytic one-shot meet on the same device,
#      and on the apps of FREEZE_APPS the learned model's one-shot with the paper's freezing
#      (`--freeze-min-funcs 0`: these pipelines of fewer than 10 Funcs search without it by
#      default; docs/design-notes.md, "Freezing from ten Funcs"),
#   5. writes the table (benchmarks/gpu_check_table.py: one-shot and top-5 over Anderson2021,
#      and the fastest schedule's effective bandwidth over the device's peak) and leaves
#      everything in at most 8 files in OUT.
#
#   benchmarks/gpu_check.sh pack BUILD_DIR     here: the bundle into device-bundle/ (git-ignored;
#                                              carry it), with the shared H100 database
#   benchmarks/gpu_check.sh run OUT            there (or here with DEVICE=opencl SIZES=small)
#   benchmarks/gpu_check.sh collect OUT        there, next, while the machine is warm: COLLECT_S
#                                              [300] more of collect on RANDOM_N [1261..2000]
#
# Environment (defaults in brackets): DEVICE [cuda]; SIZES [default] or small
# (tests/data/catalog_small_sizes.sh, for PoCL); BUDGET_S [540] for the whole run; COLLECT_S
# [150]; RANDOM_N [400] random pipeline seeds offered to collect (at small sizes, --size 32);
# APPS [every catalog app];
# SLOW_APPS [lens_blur local_laplacian]; BASELINES
# [anderson2021,anderson2021-paper,li2018,naive]; PARALLEL [4] apps benched at once;
# CLI [the bundle's beamscope-cli; set it to use a build tree]; TRAIN_DB [the bundle's
# h100.sqlite]; GPU [the preset the device fits]; FREEZE_APPS [the nine apps of at most 9
# Funcs: matmul conv_layer iir_blur depthwise_separable_conv max_filter bilateral_grid
# histogram_equalize nl_means unsharp_mask].
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundle="$here/device-bundle"

# The shipped model's training options (docs/pretrained.md), without APP: the model that ranks APP
# has never seen it.
source "$here/benchmarks/pretrained_data.sh"
train_loao() { # CLI DB APP OUT
    "$1" train --db "$2" --exclude-app "$3" --all --device-class nvidia-gpu \
        "${pretrained_options[@]}" --out "$4" >/dev/null
}

# bundle_cli DEST: the bundle unpacked into DEST; sets CLI and LD_LIBRARY_PATH.
bundle_cli() {
    eval "$("$here/benchmarks/device_bundle.sh" unpack "$bundle" "$1")"
    # The shipped models travel with the presets.
    cp -r "$here/resources/models" "$1/share/beamscope/" 2>/dev/null || true
    CLI="$1/bin/beamscope-cli"
}

case "${1:-}" in
pack)
    build="${2:?usage: gpu_check.sh pack BUILD_DIR}"
    mkdir -p "$bundle"
    "$here/benchmarks/device_bundle.sh" pack "$build" "$bundle" >/dev/null
    # The shipped model's rows (the shared H100 data and the collected random-pipeline rows).
    pretrained_db "$build/app/cli/beamscope-cli" "$bundle/h100.sqlite"
    # The leave-one-app-out models are trained here (featurizing the shared rows again takes
    # time the GPU machine's lease should not pay); `run` trains any that are missing.
    mkdir -p "$bundle/models"
    mapfile -t all_apps < <("$build/app/cli/beamscope-cli" apps | awk '{print $1}')
    for app in "${all_apps[@]}"; do
        train_loao "$build/app/cli/beamscope-cli" "$bundle/h100.sqlite" "$app" "$bundle/models/$app.json" ||
            echo "train without $app failed" >&2
    done
    # What travels: the models xz-compressed and the rows' schema only (the models were trained
    # here; the tree and the bundle share 64 MiB).
    tar -cJf "$bundle/models.tar.xz" -C "$bundle" models && rm -rf "$bundle/models"
    sqlite3 "$bundle/h100.sqlite" .schema >"$bundle/schema.sql" && rm -f "$bundle"/h100.sqlite* &&
        sqlite3 "$bundle/h100.sqlite" <"$bundle/schema.sql" && rm -f "$bundle/schema.sql"
    du -sh "$bundle"/*
    exit 0
    ;;
run) ;;
collect)
    # The second call of a lease, on the machine `run` left warm: what is left of the device
    # time spent on more rows for the next model (docs/gpu-check.md).
    out="${2:?usage: gpu_check.sh collect OUT}"
    mkdir -p "$out"
    if [ -z "${CLI:-}" ]; then
        dest=$(mktemp -d)
        trap 'rm -rf "$dest"' EXIT
        bundle_cli "$dest"
    fi
    params=()
    [ "${SIZES:-default}" = small ] && params=(--size 32)
    "$CLI" collect --random "${RANDOM_N:-1261..2000}" "${params[@]}" \
        --minutes "$(awk -v s="${COLLECT_S:-300}" 'BEGIN { print s / 60 }')" --device "${DEVICE:-cuda}" \
        --ptx -1 --db "$out/collect-more.sqlite" --json >"$out/collect-more.json" 2>"$out/collect-more.log"
    rc=$?
    tail -n 1 "$out/collect-more.log" >&2
    exit $rc
    ;;
*)
    echo "usage: gpu_check.sh pack BUILD_DIR | run OUT | collect OUT" >&2
    exit 2
    ;;
esac

out="${2:?usage: gpu_check.sh run OUT}"
[ -f "$bundle/models.tar.xz" ] && [ ! -d "$bundle/models" ] && tar -xJf "$bundle/models.tar.xz" -C "$bundle"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
start=$(date +%s)
budget=${BUDGET_S:-540}
device=${DEVICE:-cuda}
sizes_mode=${SIZES:-default}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/reports" "$work/reports-analytic" "$work/reports-freeze" "$work/logs" "$work/models" "$work/dags" "$work/bench"
log() { printf '[%4ds] %s\n' $(($(date +%s) - start)) "$*" | tee -a "$work/logs/gpu_check.log" >&2; }
left() { echo $((budget - ($(date +%s) - start))); }

[ -z "${CLI:-}" ] && bundle_cli "$work/b"
# Anderson2021's schedules of the catalog apps at default sizes for the h100 preset, found here
# once (benchmarks/baseline_cache.sh; the plugin's GPU schedules do not depend on the host CPU):
# the benches apply them without the plugin's minutes of search. Entries missing from the
# archive are made by the plugin as before and come back in logs.tar.xz (baseline-cache/).
baseline_archive=${BASELINE_CACHE_ARCHIVE:-$here/benchmarks/baseline-cache-h100.tar.xz}
if [ "${BEAMSCOPE_BASELINE_CACHE:-}" != off ]; then
    export BEAMSCOPE_BASELINE_CACHE="$work/baseline-cache"
    mkdir -p "$BEAMSCOPE_BASELINE_CACHE"
    [ -f "$baseline_archive" ] && tar -xJf "$baseline_archive" -C "$BEAMSCOPE_BASELINE_CACHE"
    ls "$BEAMSCOPE_BASELINE_CACHE" | sort >"$work/baseline-cache-carried.txt"
fi
train_db=${TRAIN_DB:-$bundle/h100.sqlite}
cp "$train_db" "$work/train.sqlite"
{
    echo "date: $(date -u +%FT%TZ)"
    echo "commit: $(git -C "$here" rev-parse HEAD 2>/dev/null || echo unknown)"
    "$CLI" --version
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>/dev/null || true
    nproc
} >"$work/logs/environment.txt" 2>&1

sizes_file="$here/tests/data/catalog_small_sizes.sh"
declare -A small_sizes=()
if [ "$sizes_mode" = small ]; then
    # shellcheck disable=SC1090
    source "$sizes_file"
    for k in "${!catalog_small_sizes[@]}"; do small_sizes[$k]=${catalog_small_sizes[$k]}; done
fi
if [ -n "${APPS:-}" ]; then read -r -a apps <<<"$APPS"; else mapfile -t apps < <("$CLI" apps | awk '{print $1}'); fi
read -r -a slow <<<"${SLOW_APPS:-lens_blur local_laplacian}"
read -r -a freeze <<<"${FREEZE_APPS-matmul conv_layer iir_blur depthwise_separable_conv max_filter bilateral_grid histogram_equalize nl_means unsharp_mask}"
gpu_flag=()
[ -n "${GPU:-}" ] && gpu_flag=(--gpu "$GPU")

# 1. Leave-one-app-out models on the shared rows (seconds each).
for app in "${apps[@]}"; do
    # The bundle's models were trained on the bundle's rows: another TRAIN_DB trains its own.
    if [ -f "$bundle/models/$app.json" ] && [ -z "${RETRAIN:-}" ] && [ -z "${TRAIN_DB:-}" ]; then
        cp "$bundle/models/$app.json" "$work/models/$app.model"
    else
        train_loao "$CLI" "$work/train.sqlite" "$app" "$work/models/$app.model" \
            2>"$work/logs/train-$app.log" || log "train without $app failed: $(tail -n 1 "$work/logs/train-$app.log")"
    fi
done
log "leave-one-app-out models for ${#apps[@]} apps ready"

run_bench() { # APP SECONDS NAME REPORT BENCH_FLAGS...: one bench call, its row in its own database
    local app=$1 limit=$2 name=$3 report=$4
    shift 4
    # shellcheck disable=SC2086 # the sizes are several flags
    timeout --kill-after=5 "$limit" "$CLI" bench "$app" ${small_sizes[$app]:-} --device "$device" \
        "${gpu_flag[@]}" --repeats 10 --warmup 2 --timeout 120 "$@" \
        --db "$work/bench/$name.sqlite" --json >"$report" 2>"$work/logs/bench-$name.log"
}

bench_app() { # APP SECONDS
    local app=$1 limit=$2 model=()
    [ -f "$work/models/$app.model" ] && model=(--cost-model "$work/models/$app.model")
    run_bench "$app" "$limit" "$app" "$work/reports/$app.json" --mode topk --top 5 --baselines-first \
        --baseline "${BASELINES:-anderson2021,anderson2021-paper,li2018,naive}" "${model[@]}"
    log "bench $app: rc $?"
    # The analytic model's one-shot: no baselines (measured above), the search's pick alone.
    limit=$(($(left) - 20))
    if [ "$limit" -ge 10 ]; then
        run_bench "$app" "$limit" "$app-analytic" "$work/reports-analytic/$app.json" \
            --mode oneshot --top 1 --baseline "" --cost-model analytic
        log "bench $app with the analytic model: rc $?"
    fi
    # The learned model's one-shot with the paper's freezing on the small pipelines, which
    # search without it by default: what the default gains or loses on the device.
    local f
    for f in "${freeze[@]}"; do
        limit=$(($(left) - 20))
        if [ "$f" = "$app" ] && [ "$limit" -ge 10 ]; then
            run_bench "$app" "$limit" "$app-freeze" "$work/reports-freeze/$app.json" \
                --mode oneshot --top 1 --baseline "" --freeze-min-funcs 0 "${model[@]}"
            log "bench $app with freezing: rc $?"
        fi
    done
    # shellcheck disable=SC2086
    "$CLI" dag "$app" ${small_sizes[$app]:-} --format json >"$work/dags/$app.json" 2>/dev/null
}

# 2. Random pipelines, alone on the machine. --ptx -1: each row also keeps ptxas's registers per
# kernel on a CUDA device (what benchmarks/kernel_occupancy.py needs; nothing on PoCL).
collect_s=${COLLECT_S:-150}
random_params=()
[ "$sizes_mode" = small ] && random_params=(--size 32)
log "collect for ${collect_s} s"
"$CLI" collect --random "${RANDOM_N:-400}" "${random_params[@]}" --minutes "$(awk -v s="$collect_s" 'BEGIN { print s / 60 }')" \
    --device "$device" --ptx -1 --db "$work/collect.sqlite" --json \
    >"$work/collect.json" 2>"$work/logs/collect.log"
log "collect: rc $? $(grep -i 'rows' "$work/logs/collect.log" | tail -n 1)"
log "$(grep '^collect: time:' "$work/logs/collect.log" | tail -n 1)"

# 3. The slow apps first, in the background, to the end of the budget.
pids=()
for app in "${apps[@]}"; do
    for s in "${slow[@]}"; do
        if [ "$app" = "$s" ]; then
            bench_app "$app" $(($(left) - 25)) &
            pids+=($!)
        fi
    done
done

# 4. The other apps, PARALLEL at a time, each bounded by what is left.
others=()
for app in "${apps[@]}"; do
    is_slow=0
    for s in "${slow[@]}"; do [ "$app" = "$s" ] && is_slow=1; done
    [ $is_slow = 0 ] && others+=("$app")
done
running=0
for app in "${others[@]}"; do
    limit=$(($(left) - 25))
    [ "$limit" -lt 20 ] && { log "no time left for $app"; continue; }
    bench_app "$app" "$limit" &
    pids+=($!)
    running=$((running + 1))
    if [ "$running" -ge "${PARALLEL:-4}" ]; then wait -n; running=$((running - 1)); fi
done
wait "${pids[@]}" 2>/dev/null

# 5. The table and the files.
# The peak bandwidth of the preset the benches ranked with (GPU, or the one the device fits).
gpu_json="$here/resources/gpus"
[ -n "${GPU:-}" ] && [ -f "$here/resources/gpus/$GPU.json" ] && gpu_json="$here/resources/gpus/$GPU.json"
[ -n "${GPU:-}" ] && [ -f "$GPU" ] && gpu_json=$GPU
python3 "$here/benchmarks/gpu_check_table.py" --freeze-dir "$work/reports-freeze" \
    "$work/reports" "$work/dags" "$gpu_json" "$work/reports-analytic" \
    >"$out/table.md" 2>"$work/logs/table.log" || log "table failed: $(tail -n 1 "$work/logs/table.log")"
cp "$work/collect.json" "$out/collect.json" 2>/dev/null
# One file with every committed row (Python's sqlite3: the GPU machine may have no sqlite3 shell).
[ -f "$work/collect.sqlite" ] && python3 -c 'import sqlite3, sys
src = sqlite3.connect(sys.argv[1]); dst = sqlite3.connect(sys.argv[2]); src.backup(dst); dst.close()' \
    "$work/collect.sqlite" "$out/collect.sqlite"
# Every bench row (each app recorded into its own file: no row is reused, none waits on another
# app's writes) in one database: measured catalog schedules for the next model.
for db in "$work"/bench/*.sqlite; do
    [ -f "$db" ] && "$CLI" db import --db "$work/bench.sqlite" "$db" >>"$work/logs/bench-import.log" 2>&1
done
[ -f "$work/bench.sqlite" ] && python3 -c 'import sqlite3, sys
src = sqlite3.connect(sys.argv[1]); dst = sqlite3.connect(sys.argv[2]); src.backup(dst); dst.close()' \
    "$work/bench.sqlite" "$out/bench.sqlite"
cp "$work/logs/environment.txt" "$out/environment.txt"
tar -cJf "$out/reports.tar.xz" -C "$work" reports reports-analytic reports-freeze dags
# The baseline schedules this run made (not carried): add them to the archive here.
if [ -f "$work/baseline-cache-carried.txt" ]; then
    mkdir -p "$work/baseline-cache-new"
    ls "$BEAMSCOPE_BASELINE_CACHE" | sort | comm -13 "$work/baseline-cache-carried.txt" - |
        while read -r f; do cp "$BEAMSCOPE_BASELINE_CACHE/$f" "$work/baseline-cache-new/"; done
    log "baseline cache: $(grep -c '\.json$' "$work/baseline-cache-carried.txt") entries carried, $(find "$work/baseline-cache-new" -name '*.json' | wc -l) made by this run"
fi
tar -cJf "$out/logs.tar.xz" -C "$work" logs models $([ -d "$work/baseline-cache-new" ] && echo baseline-cache-new)
log "done in $(($(date +%s) - start)) s"
cp "$work/logs/gpu_check.log" "$out/gpu_check.log"
ls "$out" >&2
