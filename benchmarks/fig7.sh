#!/usr/bin/env bash
# Fig. 7 of the paper on the local OpenCL device (PoCL here), at small sizes: per app, the beam
# search (32 x 5) with sampling and freezing on, then both off, each followed by `bench --mode
# topk --top 5` (the 5 best of the beam and 5 greedy samples compiled, checked against the CPU
# reference and timed), with Halide's Anderson2021 schedule timed beside. Per run one JSON
# object {"app", "config": "on"|"off", "rc", "report": <bench --json, pretty-printed>};
# fig7_table.py makes the table (docs/fig7-results.jsonl keeps the fields it reads).
#   benchmarks/fig7.sh build/release/app/cli/beamscope-cli [APP...] > docs/fig7-results.jsonl
set -u
cli="$1"; shift
source "$(dirname "$0")/../tests/data/catalog_small_sizes.sh"
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=(matmul conv_layer unsharp_mask harris bilateral_grid stencil_chain)
for app in "${apps[@]}"; do
    for config in on off; do
        flags="--freeze-min-funcs 0" # the paper's freezing: every pipeline
        [ "$config" = off ] && flags="--no-sampling --no-freezing"
        # shellcheck disable=SC2086
        report=$("$cli" bench "$app" ${catalog_small_sizes[$app]} --device opencl --mode topk --top 5 \
            --repeats 10 --warmup 2 --json -q --no-db --baseline anderson2021 $flags 2>/dev/null)
        rc=$?
        [ $rc -eq 0 ] && [ -n "$report" ] || report="null"
        printf '{"app": "%s", "config": "%s", "rc": %d, "report": %s}\n' "$app" "$config" "$rc" "$report"
    done
done
