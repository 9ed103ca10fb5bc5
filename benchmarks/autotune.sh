#!/usr/bin/env bash
# The autotuning benchmark of docs/autotune.md: on the local device, for each pipeline,
#   1. `tune` with R rounds of B (default 5 x 16) and the li2018, anderson2021 and naive baselines
#      measured in the same run, into one database;
#   2. `models`: Kendall's tau of the analytic, polymage and learned models on held-out rows;
#   3. transfer: for each pipeline, a model trained on the OTHER pipelines' rows only (leave one
#      out) picks a one-shot schedule (`bench --mode oneshot --measure`) compared with the analytic
#      one-shot choice measured in the same way.
# APPS entries may name a generator of the example library: "sobel_edges:--generator-lib \$genlib".
# Writes OUT/<app>.json, OUT/models.json, OUT/transfer-<app>.json and prints the table
# (benchmarks/autotune_table.py). Usage:
#   benchmarks/autotune.sh CLI OUT [ROUNDS BATCH]        (APPS="name:params;..." to choose)
set -euo pipefail
cli=$1
out=$2
rounds=${3:-5}
batch=${4:-16}
mkdir -p "$out"
db="$out/measurements.sqlite"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The example generator library (examples/generators): pipelines from outside the catalog.
genlib=${GENLIB:-$(cd "$(dirname "$cli")/../.." && pwd)/examples/libbeamscope_example_generators.so}
# Sizes where one measurement takes well under 2 s on PoCL's CPU device.
default_apps="unsharp_mask:-p width=512 -p height=512;\
harris:-p width=512 -p height=512;\
stencil_chain:-p length=6 -p width=512 -p height=512;\
bilateral_grid:-p width=512 -p height=512;\
max_filter:-p width=512 -p height=512 -p radius=8;\
matmul:-p m=256 -p n=256 -p k=256;\
camera_pipe:-p width=512 -p height=384;\
conv_layer:-p batch=1 -p in_channels=32 -p out_channels=32 -p width=64 -p height=64;\
sobel_edges:--generator-lib $genlib;\
pyramid_down:--generator-lib $genlib"
IFS=';' read -r -a apps <<<"${APPS:-$default_apps}"

for entry in "${apps[@]}"; do
    app=${entry%%:*}
    spec=${entry#*:}
    read -r -a params <<<"${spec//\$genlib/$genlib}"
    echo "== tune $app ${params[*]} ($rounds x $batch)" >&2
    "$cli" tune "$app" "${params[@]}" --rounds "$rounds" --batch "$batch" --db "$db" \
        --baseline li2018,anderson2021,naive --run-id "bench-$app" --model-out "$out/$app.model" \
        --json >"$out/$app.json"
done

"$cli" models --db "$db" --json >"$out/models.json"

for entry in "${apps[@]}"; do
    app=${entry%%:*}
    spec=${entry#*:}
    read -r -a params <<<"${spec//\$genlib/$genlib}"
    others=()
    for e in "${apps[@]}"; do
        [ "${e%%:*}" = "$app" ] || others+=(--pipeline "${e%%:*}")
    done
    echo "== transfer to $app" >&2
    "$cli" train --db "$db" --all --out "$out/loo-$app.model" "${others[@]}" --json >/dev/null
    "$cli" bench "$app" "${params[@]}" --mode oneshot --measure --cost-model "$out/loo-$app.model" \
        --no-db --json -q >"$out/transfer-$app.json"
done

python3 "$here/autotune_table.py" "$out"
