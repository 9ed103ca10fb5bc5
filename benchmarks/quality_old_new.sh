#!/usr/bin/env bash
# Schedule quality of two builds side by side on the local OpenCL device (PoCL here), at small
# sizes: each build's search picks its candidates as `bench --mode topk --top 5` does (the 5 best
# of the beam and 5 greedy samples, beam 32 x 5, seed 0 (SEED), GPU model pocl-cpu, sampling and freezing
# on), compile only (--device none, so the report carries each candidate's schedule); then the NEW
# build's beamscope-worker compiles, checks against the CPU reference and times each build's 5
# best-predicted schedules (the next ones where one fails), the two builds' schedules interleaved,
# for ROUNDS rounds (the order reversed every other round), so that both sets meet the same
# harness and the same load. A schedule both builds chose is measured once per round and counts
# for both. Costs about 5 s per schedule and round on the 2-core machine (PoCL).
#   benchmarks/quality_old_new.sh OLD_CLI NEW_CLI [APP...] > quality.jsonl
#   benchmarks/quality_old_new.py table quality.jsonl
# Environment: ROUNDS (default 3), REPEATS (timed runs per job, default 10), WARMUP (default 2);
# SEED (the searches' seed, default 0);
# OLD_MAX_UNROLLED_POINTS (NEW_...): the unroll limit the worker lowers that side's schedules
# with, e.g. 15 for a build before the forty-ninth session (which unrolled fewer than 16 points);
# OLD_FLAGS, NEW_FLAGS: extra search flags per side, e.g. Fig. 7 with one build:
#   OLD_FLAGS="--no-sampling --no-freezing" benchmarks/quality_old_new.sh CLI CLI
set -u
[ $# -ge 2 ] || { echo "usage: $0 OLD_CLI NEW_CLI [APP...]" >&2; exit 2; }
old="$1" new="$2"; shift 2
for cli in "$old" "$new"; do
    [ -x "$cli" ] || { echo "$0: not an executable: $cli" >&2; exit 2; }
done
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../tests/data/catalog_small_sizes.sh"
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=(matmul conv_layer unsharp_mask harris bilateral_grid stencil_chain)
work=$(mktemp -d "${TMPDIR:-/tmp}/quality-old-new-XXXXXX")
trap 'rm -rf "$work"' EXIT

for app in "${apps[@]}"; do
    [ -n "${catalog_small_sizes[$app]+x}" ] || { echo "$0: no small size for $app" >&2; exit 2; }
    for tag in old new; do
        cli="$old" flags="${OLD_FLAGS:-}"
        [ "$tag" = new ] && cli="$new" flags="${NEW_FLAGS:-}"
        # shellcheck disable=SC2086
        if ! "$cli" bench "$app" ${catalog_small_sizes[$app]} --device none --mode topk --top 5 \
            --gpu pocl-cpu --seed "${SEED:-0}" --json -q --no-db $flags > "$work/$tag-$app.json" 2> "$work/$tag-$app.err"; then
            echo "$0: $tag build's search failed on $app: $(tail -1 "$work/$tag-$app.err")" >&2
            exit 1
        fi
    done
    echo "${catalog_small_sizes[$app]}" > "$work/params-$app.txt"
done
# The device as the new build's bench sees it (its name gives the lock file the benches share).
# shellcheck disable=SC2086
"$new" bench matmul ${catalog_small_sizes[matmul]} --device opencl --mode oneshot --top 1 \
    --no-measure --gpu pocl-cpu --json -q --no-db > "$work/device.json" 2> "$work/device.err" || {
    echo "$0: no OpenCL device: $(tail -1 "$work/device.err")" >&2
    exit 1
}
python3 "$here/quality_old_new.py" measure "$work" "$new" "${apps[@]}"
