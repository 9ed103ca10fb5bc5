#!/usr/bin/env bash
# A Halide-generated kernel (nl_means, blur_d in non_local_means_sum's update tiles: Beamscope's
# nl_means seed-1 beam #2 at 64x48, docs/import.md "The update hosts' check") run on the
# OpenCL device as emitted and with its block-uniform guard around a barrier made
# unconditional. Prints the number of output values that differ; 0 means the device treats
# the conditional barrier correctly.
#   benchmarks/pocl_conditional_barrier/run.sh
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d "${TMPDIR:-/tmp}/pocl-barrier-XXXXXX")
trap 'rm -rf "$work"' EXIT
sed 's/^ if (_1991)$/ if (1)/' "$here/kernel_guarded.cl" > "$work/kernel_unguarded.cl"
cmp -s "$here/kernel_guarded.cl" "$work/kernel_unguarded.cl" && { echo "$0: the guard was not found" >&2; exit 1; }
cc -O1 -o "$work/harness" "$here/harness.c" -lOpenCL
"$work/harness" "$here/kernel_guarded.cl" "$work/kernel_unguarded.cl"
