#!/usr/bin/env bash
# End-to-end test of `beamscope-cli compare --with naive --measure` on the real OpenCL device
# (PoCL on the test machine): the search's schedule, the imported naive schedule as Beamscope
# applies it and Halide's own naive application are each compiled, run and checked, with a
# measured median. FAILS (never skips) without an OpenCL device. About 30 s on 2 cores.
# Usage: compare_cli.sh BEAMSCOPE_CLI
set -u

source "$(dirname "$0")/common.sh"
begin_cli_test "$@"
export XDG_DATA_HOME="$tmp/xdg"

require_opencl

"$cli" compare stencil_chain -p length=4 -p width=128 -p height=96 --gpu h100 --beam 1 \
    --passes 1 --with naive --measure --device opencl --repeats 2 --json >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "compare --measure exited with $rc: $(tail -n 3 "$tmp/err")"
python3 - "$tmp/out" <<'PY' || fail "compare --measure: $(cat "$tmp/out" | head -c 600)"
import json, sys
report = json.load(open(sys.argv[1]))
assert report["representable"], "the naive schedule is representable"
rows = {r["label"]: r for r in report["measured"]["rows"]}
assert set(rows) == {"ours", "theirs", "baseline:naive"}, sorted(rows)
for label, r in rows.items():
    assert r.get("correct") is True, (label, r)
    assert isinstance(r["median_ms"], (int, float)) and r["median_ms"] > 0, (label, r)
print("measured:", {label: r["median_ms"] for label, r in rows.items()})
PY
echo "compare --measure: ours, theirs and Halide's naive application measured and correct"
