#!/usr/bin/env bash
# The catalog bench on a CUDA GPU (docs/performance.md, "On a CUDA GPU"): every catalog app at
# its default size, `bench --device cuda` with the Anderson2021 (Halide's default configuration
# and the paper's), Li2018, Mullapudi2016 and naive baselines measured in the same run, never
# reusing measurements (--no-db). Per app OUT/APP.json (the report) and OUT/APP.log (stderr);
# cuda_catalog_table.py makes the table. For Fig. 7 on the GPU, run it twice into two folders:
# MODE=topk with SEARCH_FLAGS="--freeze-min-funcs 0" (the paper's freezing, on every pipeline),
# and SEARCH_FLAGS="--no-sampling --no-freezing" for the second;
# `cuda_catalog_table.py --fig7 ON_DIR OFF_DIR` joins the two into the lines fig7_table.py reads.
#   benchmarks/cuda_catalog.sh CLI OUT [APP...]
# Environment (defaults in brackets): MODE [oneshot] and TOP [5] as bench's --mode/--top,
# PARALLEL [2] apps at once (measurements still take the device one at a time: bench's device
# lock), APP_TIMEOUT [240] seconds per app, WORKER_TIMEOUT [120] seconds per worker,
# SIZES [default] or small (tests/data/catalog_small_sizes.sh), SEARCH_FLAGS [none] more bench
# options, BASELINES [anderson2021-paper,anderson2021,li2018,mullapudi2016,naive], DEVICE [cuda]
# (opencl: the same bench on PoCL, with SIZES=small).
set -u
cli="${1:?usage: cuda_catalog.sh CLI OUT [APP...]}"
out="${2:?usage: cuda_catalog.sh CLI OUT [APP...]}"
shift 2
mkdir -p "$out"
sizes_file="$(cd "$(dirname "$0")/.." && pwd)/tests/data/catalog_small_sizes.sh"
apps=("$@")
[ ${#apps[@]} -gt 0 ] || mapfile -t apps < <("$cli" apps | awk '{print $1}')
export cli out sizes_file
export MODE="${MODE:-oneshot}" TOP="${TOP:-5}" APP_TIMEOUT="${APP_TIMEOUT:-240}"
export WORKER_TIMEOUT="${WORKER_TIMEOUT:-120}" SIZES="${SIZES:-default}"
export DEVICE="${DEVICE:-cuda}" SEARCH_FLAGS="${SEARCH_FLAGS:-}"
export BASELINES="${BASELINES:-anderson2021-paper,anderson2021,li2018,mullapudi2016,naive}"
run_app() {
    app=$1
    sizes=""
    if [ "$SIZES" = small ]; then
        # shellcheck disable=SC1090 # tests/data/catalog_small_sizes.sh
        source "$sizes_file"
        sizes=${catalog_small_sizes[$app]:-}
    fi
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    timeout --kill-after=10 "$APP_TIMEOUT" "$cli" bench "$app" $sizes --device "$DEVICE" \
        --mode "$MODE" --top "$TOP" --repeats 10 --warmup 2 --timeout "$WORKER_TIMEOUT" \
        --baseline "$BASELINES" $SEARCH_FLAGS --no-db --json \
        >"$out/$app.json" 2>"$out/$app.log"
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    printf '%-26s rc %3d  %4d.%01d s\n' "$app" "$rc" $((ms / 1000)) $((ms % 1000 / 100))
}
export -f run_app
# shellcheck disable=SC2016 # $1 expands in the child shell
printf '%s\n' "${apps[@]}" | xargs -P "${PARALLEL:-2}" -I{} bash -c 'run_app "$1"' _ {}
