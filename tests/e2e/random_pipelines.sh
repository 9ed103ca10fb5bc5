#!/usr/bin/env bash
# End-to-end test of random pipelines (random:SEED[:STAGES]) through the CLI, on the real OpenCL
# device (PoCL on the test machine) for the measured part:
#   1. the DAG text of fixed seeds equals stored digests (written by an earlier process) and is
#      the same in two processes;
#   2. a malformed name is one line and exit status 2 in every command that takes a pipeline;
#   3. a fixed dozen seeds: dag, a greedy search (--beam 1), and the one-shot pick of a greedy
#      search (bench --beam 1 --mode oneshot) compiled, run and checked against the CPU
#      reference on the OpenCL device through the bench worker, at a small size (-p size=32);
#   4. search --beam 4, export and a trace keep the name.
# FAILS (never skips) when no OpenCL device is found. The 200-seed version of 3 is
# benchmarks/random_sweep.sh.
# Usage: random_pipelines.sh BEAMSCOPE_CLI
set -u

here=$(dirname "$0")
source "$here/common.sh"
begin_cli_test "$@"
require_opencl

# 1. Stored digests (tests/data/random_pipelines/dag_sha256.txt: "NAME SHA256" per line).
while read -r name digest; do
    [ -n "$name" ] || continue
    "$cli" dag "$name" >"$tmp/a.txt" 2>"$tmp/err" || { fail "dag $name: $(cat "$tmp/err")"; continue; }
    "$cli" dag "$name" >"$tmp/b.txt" 2>&1
    cmp -s "$tmp/a.txt" "$tmp/b.txt" || fail "dag $name differs between two processes"
    got=$(sha256sum <"$tmp/a.txt" | cut -d' ' -f1)
    [ "$got" = "$digest" ] || fail "dag $name: digest $got, stored $digest (the generator changed?)"
done <"$here/../data/random_pipelines/dag_sha256.txt"

# 2. Malformed names: one line, exit 2, in every command.
for bad in random random: random:x random:1:2 random:1:99 random:1:2:3; do
    for cmd in "dag" "search" "export --out $tmp/x.h" "bench --device opencl --no-db -q" \
               "why --func f --location root" "tune --device opencl --db $tmp/t.sqlite"; do
        # shellcheck disable=SC2086 # the words of $cmd are separate arguments
        "$cli" $cmd "$bad" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        [ "$rc" = 2 ] || fail "$cmd $bad: exit $rc, expected 2"
        [ "$(grep -c '' "$tmp/err")" = 1 ] || fail "$cmd $bad: not one line: $(cat "$tmp/err")"
        grep -q "^beamscope-cli: random pipeline '$bad': expected random:SEED" "$tmp/err" ||
            fail "$cmd $bad: not the spec's message: $(cat "$tmp/err")"
    done
done

# 3. A fixed dozen seeds (stage counts 4..60, every building block among them).
seeds=(random:0 random:3 random:8 random:11 random:15 random:22 random:26 random:29
       random:41:12 random:57:9 random:64:16 random:90:60)
for p in "${seeds[@]}"; do
    "$cli" dag "$p" -p size=32 >"$tmp/dag.txt" 2>"$tmp/err" || { fail "dag $p: $(cat "$tmp/err")"; continue; }
    "$cli" search "$p" -p size=32 --beam 1 --gpu pocl-cpu >"$tmp/search.txt" 2>"$tmp/err" ||
        { fail "search --beam 1 $p: $(cat "$tmp/err")"; continue; }
    "$cli" bench "$p" -p size=32 --beam 1 --device opencl --mode oneshot --top 1 --no-db --repeats 1 \
        --json -q >"$tmp/bench.json" 2>"$tmp/err" || { fail "bench $p: $(tail -n 2 "$tmp/err")"; continue; }
    python3 - "$tmp/bench.json" "$p" <<'PY' || fail "bench $p: see above"
import json, sys
j = json.load(open(sys.argv[1]))
rows = [r for r in j["candidates"] if r.get("measured_ms") or r.get("failure")]
assert rows and j["chosen"] is not None, (sys.argv[2], "nothing measured")
for r in rows:
    assert not r.get("failure"), (sys.argv[2], r["label"], r.get("failure"))
    assert r.get("correct") is True, (sys.argv[2], r["label"], "differs from the CPU reference")
    assert r["measured_ms"]["median"] > 0, (sys.argv[2], r["label"], "not timed")
PY
done

# 4. The name goes through search, export and traces.
"$cli" search random:11 --beam 4 >"$tmp/s.txt" 2>"$tmp/err" || fail "search random:11 --beam 4: $(cat "$tmp/err")"
grep -q "random:11" "$tmp/s.txt" || fail "search random:11 does not name its pipeline"
"$cli" export random:11 -p size=64 --beam 2 --out "$tmp/r11.h" 2>"$tmp/err" || fail "export random:11: $(cat "$tmp/err")"
[ -s "$tmp/r11.h" ] || fail "export random:11 wrote nothing"
"$cli" search random:5:8 --beam 2 --trace "$tmp/t.jsonl" >/dev/null 2>"$tmp/err" || fail "search --trace: $(cat "$tmp/err")"
head -n 1 "$tmp/t.jsonl" | grep -q '"random:5:8"' || fail "the trace does not name random:5:8"

finish random_pipelines
