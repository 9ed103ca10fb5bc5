#!/usr/bin/env bash
# End-to-end test of the baseline schedule cache across processes: `compare --with anderson2021`
# runs the plugin once and stores its schedule; the next run of the same pipeline, GPU and
# plugin imports the same schedule from the cache without running the plugin (JSON
# "autoscheduler": {"cached": true}, the plugin's time of the first run); a corrupt entry costs
# one line on stderr, the plugin runs again and the entry is replaced. About 40 s on 2 cores.
# Usage: baseline_cache_cli.sh BEAMSCOPE_CLI
set -u

source "$(dirname "$0")/common.sh"
begin_cli_test "$@"
export BEAMSCOPE_BASELINE_CACHE="$tmp/cache"

args=(compare bilateral_grid -p width=128 -p height=96 --gpu h100 --beam 1 --passes 1
    --with anderson2021 --json)
for run in first second corrupt replaced; do
    if [ "$run" = corrupt ]; then
        for f in "$tmp"/cache/*.hlpipe; do echo "not a pipeline" >"$f"; done
    fi
    "$cli" "${args[@]}" >"$tmp/$run.json" 2>"$tmp/$run.err"
    rc=$?
    [ "$rc" -eq 0 ] || fail "$run compare exited with $rc: $(tail -n 3 "$tmp/$run.err")"
done
[ "$(ls "$tmp/cache" | wc -l)" -eq 2 ] || fail "the cache holds $(ls "$tmp/cache" | tr '\n' ' ')"
[ ! -s "$tmp/first.err" ] || fail "first run's stderr: $(cat "$tmp/first.err")"
[ ! -s "$tmp/second.err" ] || fail "second run's stderr: $(cat "$tmp/second.err")"
[ "$(wc -l <"$tmp/corrupt.err")" -eq 1 ] || fail "corrupt entry: stderr is not one line: $(cat "$tmp/corrupt.err")"
grep -q "^warning: the baseline schedule cache is unusable here, running Anderson2021: " "$tmp/corrupt.err" ||
    fail "corrupt entry: $(cat "$tmp/corrupt.err")"
python3 - "$tmp" <<'PY' || fail "the runs disagree"
import json, sys
runs = {r: json.load(open(f"{sys.argv[1]}/{r}.json")) for r in ("first", "second", "corrupt", "replaced")}
cached = {r: j["autoscheduler"]["cached"] for r, j in runs.items()}
assert cached == {"first": False, "second": True, "corrupt": False, "replaced": True}, cached
assert runs["first"]["autoscheduler"]["ms"] > 0
assert runs["second"]["autoscheduler"]["ms"] == runs["first"]["autoscheduler"]["ms"]
assert runs["first"]["representable"], "Anderson2021's bilateral_grid schedule is representable"
theirs = lambda j: [(f["name"], f["theirs"], f["representable"]) for f in j["funcs"]]
for r in ("second", "corrupt", "replaced"):
    assert theirs(runs[r]) == theirs(runs["first"]), r
    assert runs[r]["cost"]["theirs"] == runs["first"]["cost"]["theirs"], r
print("theirs the same in all four runs; cached:", cached)
PY
finish "baseline cache"
