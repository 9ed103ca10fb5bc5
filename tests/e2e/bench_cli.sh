#!/usr/bin/env bash
# End-to-end test of `beamscope-cli bench` on the real OpenCL device (PoCL on the test machine):
# top-k mode measures the beam and greedy candidates and the naive and Anderson2021 baselines
# (Halide's default configuration and the paper's);
# every row must be correct with a measured time. FAILS (never skips) without an OpenCL device.
# Usage: bench_cli.sh BEAMSCOPE_CLI
set -u

source "$(dirname "$0")/common.sh"
begin_cli_test "$@"
# The user's measurement database is neither read nor written: every row is measured here.
export XDG_DATA_HOME="$tmp/xdg"

require_opencl

start=$(date +%s)
"$cli" bench stencil_chain -p length=4 -p width=256 -p height=256 --device opencl --mode topk \
    --top 3 --baseline naive,anderson2021,anderson2021-paper >"$tmp/out" 2>"$tmp/err"
rc=$?
elapsed=$(( $(date +%s) - start ))
cat "$tmp/out"
echo "(bench took ${elapsed} s)"
[ "$rc" -eq 0 ] || fail "bench exited with $rc: $(tail -n 3 "$tmp/err")"

# Rows: "  label  predicted  median  regs  spills  correct  search  [failure]".
rows=$(grep -E '^[* ] (result|beam|greedy|baseline:)' "$tmp/out")
count=$(printf '%s\n' "$rows" | grep -c .)
[ "$count" -ge 5 ] || fail "expected at least 5 rows (3+ candidates, 3 baselines), got $count"
# The search's result first, then the final beam's rows as the GUI's Beam dock numbers them,
# from 1 in the table ("beam #2"; JSON keeps "beam#1").
for label in baseline:naive baseline:anderson2021 baseline:anderson2021-paper result; do
    printf '%s\n' "$rows" | grep -q " $label " || fail "no row for $label"
done
while read -r line; do
    line=${line#\* }
    set -- ${line/ \#/\#} # "beam #1" as one word
    label=$1 median=$3 correct=$6
    [ "$correct" = "true" ] || fail "$label: correct=$correct ($line)"
    [[ "$median" =~ ^[0-9]+\.[0-9]+$ ]] || fail "$label: no measured time ($line)"
done <<<"$rows"
grep -q '^chosen: ' "$tmp/out" || fail "no chosen line"
grep -q '^chosen: .*fastest correct' "$tmp/out" || fail "nothing chosen"

# JSON mode parses and carries the Measurement keys; a bad option is a usage error.
"$cli" bench stencil_chain -p length=2 -p width=64 -p height=64 --device none --top 1 --ptx 0 \
    --json -q >"$tmp/json" 2>"$tmp/err" || fail "compile-only --json failed: $(cat "$tmp/err")"
python3 -c "
import json, sys
r = json.load(open('$tmp/json'))
c = r['candidates'][0]
for k in ['label', 'predicted', 'measured_ms', 'registers', 'spill_bytes', 'correct', 'max_error', 'failure']:
    assert k in c, k
assert r['chosen'] in [x['label'] for x in r['candidates']], r['chosen']
" || fail "JSON report lacks keys"
"$cli" bench stencil_chain --device gpu >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "--device gpu should be a usage error"

# Ctrl-C while a worker runs: the workers (in process groups of their own, out of the
# terminal's reach) are killed, what finished is printed, exit 130. Job files in a TMPDIR of
# its own tell its workers from other tests'.
mkdir -p "$tmp/ctmp"
TMPDIR="$tmp/ctmp" "$cli" bench stencil_chain -p length=4 -p width=256 -p height=256 \
    --device opencl --mode topk --top 3 --repeats 20 --no-db >"$tmp/c.out" 2>"$tmp/c.err" &
pid=$!
for _ in $(seq 1 600); do
    pgrep -f "$tmp/ctmp" >/dev/null && break
    sleep 0.1
done
pgrep -f "$tmp/ctmp" >/dev/null || fail "no worker started: $(tail -n 2 "$tmp/c.err")"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "interrupted bench exited with $rc (expected 130)"
grep -q "Cancelled" "$tmp/c.out" || fail "interrupted bench did not say it was cancelled"
sleep 0.5
pgrep -f "$tmp/ctmp" >/dev/null && fail "a worker outlived the interrupted bench"

finish "bench e2e"
