#!/usr/bin/env bash
# The generators users write (tests/data/generators/UserGenerators.cpp) through the CLI as a user
# would: dag, search, export, and bench (top 3 of a small beam + 3 greedy samples + the naive
# baseline on the OpenCL device, every row correct, every output compared); scalar inputs set
# with --input, their errors in one line. FAILS (never skips) without an OpenCL device (PoCL is
# part of the test machine's set-up). The round trip of the exported headers (compiled, lowered
# identically) is UserGeneratorsTest's.
# Usage: user_generators.sh BEAMSCOPE_CLI USER_GENERATOR_LIB
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BEAMSCOPE_CLI USER_GENERATOR_LIB" >&2
    exit 2
fi
cli=$1
lib=$2
tmp=$(mktemp -d)
# The user's measurement database is neither read nor written: every row is measured here.
export XDG_DATA_HOME="$tmp/xdg"
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/common.sh"

require_opencl

# Generator, its --input values, and the outputs the DAG must show.
declare -A inputs=(
    [user_tone_map]="--input gain=1.25 --input invert=true"
    [user_box_stats]="--input scale=0.5 --input bias=7"
    [user_pyramid_4d]=""
    [user_accumulators]=""
)
declare -A outputs=(
    [user_tone_map]="toned mask"
    [user_box_stats]="stats peak"
    [user_pyramid_4d]="output"
    [user_accumulators]="output"
)

start=$(date +%s)
for gen in user_tone_map user_box_stats user_pyramid_4d user_accumulators; do
    # shellcheck disable=SC2086
    set -- --generator-lib "$lib" ${inputs[$gen]}
    if "$cli" dag "$gen" "$@" >"$tmp/dag" 2>"$tmp/err"; then
        for out in ${outputs[$gen]}; do
            grep -q "$out" "$tmp/dag" || fail "$gen: dag does not show output $out"
        done
    else
        fail "$gen: dag failed: $(head -c 300 "$tmp/err")"
    fi
    "$cli" search "$gen" "$@" --beam 4 --passes 1 >"$tmp/search" 2>"$tmp/err" ||
        fail "$gen: search failed: $(head -c 300 "$tmp/err")"
    if "$cli" export "$gen" "$@" --beam 4 --passes 1 --out "$tmp/$gen.h" >/dev/null 2>"$tmp/err"; then
        grep -q "inline void apply_${gen}_schedule(Halide::Pipeline pipeline)" "$tmp/$gen.h" ||
            fail "$gen: exported header lacks its function"
        for out in ${outputs[$gen]}; do
            grep -q "\"$out\"" "$tmp/$gen.h" || fail "$gen: exported header does not schedule $out"
        done
    else
        fail "$gen: export failed: $(head -c 300 "$tmp/err")"
    fi
    json=$("$cli" bench "$gen" "$@" --device opencl --mode topk --top 3 --beam 4 --passes 1 \
        --repeats 2 --warmup 1 --baseline naive --json -q --no-db 2>"$tmp/err")
    rc=$?
    verdict=$(python3 - "$json" <<'PY'
import json, sys
try:
    report = json.loads(sys.argv[1])
except ValueError:
    print("no JSON report"); sys.exit(0)
rows = report.get("candidates", []) + report.get("baselines", [])
bad = [f'{r["label"]}: {r["failure"]}' for r in rows if not r.get("correct")]
greedy = [r for r in rows if r["label"].startswith("greedy")]
beam = [r for r in rows if r["label"] == "result" or r["label"].startswith("beam")]
if bad:
    print("; ".join(bad))
elif not beam or not greedy or not any(r["label"] == "baseline:naive" for r in rows):
    print("missing rows: " + ", ".join(r["label"] for r in rows))
else:
    print("ok %d rows" % len(rows))
PY
)
    if [ $rc -eq 0 ] && [[ $verdict == ok* ]]; then
        echo "PASS: $gen dag, search, export, bench ($verdict)"
    else
        fail "$gen: bench (exit $rc): $verdict $(head -c 300 "$tmp/err")"
    fi
done
echo "(generators took $(( $(date +%s) - start )) s)"

# Scalar inputs: a missing value, an unknown name, a bad value and one out of range are one line.
expect_error 1 "scalar input 'scale'" dag user_box_stats --generator-lib "$lib"
expect_error 2 "no scalar input 'gian'" dag user_tone_map --generator-lib "$lib" --input gian=1
expect_error 2 "is not a uint8 value" dag user_tone_map --generator-lib "$lib" --input threshold=300
expect_error 2 "outside its range" dag user_tone_map --generator-lib "$lib" --input gain=5
expect_error 2 "not of the form NAME=VALUE" dag user_tone_map --generator-lib "$lib" --input gain
expect_error 2 "has no scalar input" dag stencil_chain --input amount=1

finish "user generators e2e"
