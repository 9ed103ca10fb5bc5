#!/usr/bin/env bash
# End-to-end test of `beamscope-cli collect` on the real OpenCL device (PoCL on the test machine),
# with a real SQLite database read back with Python's sqlite3:
#   1. a 60 s run on small random pipelines records rows (origin "collect", each counted by the
#      report) and ends at its deadline plus a small margin;
#   2. --resume over the first pipelines measures nothing the database already holds (no
#      (pipeline, schedule, device) twice), reports what it skipped, and completes them;
#   3. SIGINT to a running collect: exit 130, and every row it reported as committed is there;
#   4. bad arguments are one line and a non-zero exit.
# FAILS (never skips) when no OpenCL device is found.
# Usage: collect_cli.sh BEAMSCOPE_CLI
set -u

source "$(dirname "$0")/common.sh"
begin_cli_test "$@"
require_opencl

# Rows of a database: all, with origin collect, and (pipeline, schedule, device) keys seen twice.
count() { python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$1" "$2"; }
rows() { count "$1" "SELECT COUNT(*) FROM measurements"; }
collected() { count "$1" "SELECT COUNT(*) FROM measurements WHERE origin = 'collect'"; }
twice() { count "$1" "SELECT COUNT(*) FROM (SELECT 1 FROM measurements GROUP BY pipeline_key, schedule_hash, device_key HAVING COUNT(*) > 1)"; }
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

small=(--size 32 --stages 5 --per-pipeline 3 --device opencl --repeats 2 --timeout 120)

# 1. A 60 s run over more pipelines than it can measure records rows and stops at the deadline.
db=$tmp/c.sqlite
start=$(date +%s.%N)
"$cli" collect --random 40 "${small[@]}" --minutes 1 --db "$db" --json >"$tmp/c1.json" \
    2>"$tmp/c1.err" || fail "collect exited with $?: $(tail -n 3 "$tmp/c1.err")"
elapsed=$(python3 -c "import time; print(round(time.time() - $start, 1))")
python3 -c "import sys; sys.exit(0 if $elapsed <= 60 + 15 else 1)" ||
    fail "a 60 s collect took ${elapsed} s (the margin is 15 s, the CLI's start included)"
[ "$(field "$tmp/c1.json" stop)" = "deadline" ] || fail "stop is $(field "$tmp/c1.json" stop), expected deadline"
n1=$(rows "$db")
[ "${n1:-0}" -gt 0 ] || fail "collect recorded no rows: $(tail -n 3 "$tmp/c1.err")"
[ "$(collected "$db")" = "$n1" ] || fail "rows without origin collect: $(collected "$db") of $n1"
[ "$(field "$tmp/c1.json" rows)" = "$n1" ] || fail "report says $(field "$tmp/c1.json" rows) rows, the database has $n1"
[ "$(field "$tmp/c1.json" correct)" -gt 0 ] || fail "no correct row: $(tail -n 5 "$tmp/c1.err")"
grep -q "^collect: .* rows (.* correct, .* failed, .* skipped) in .* s on .* cores: .* rows/min" "$tmp/c1.err" ||
    fail "no throughput line on stderr with --json: $(tail -n 2 "$tmp/c1.err")"
# Where the time went: the devices were held for part of the run (never more than all of it), and
# every correct row says how long its run held the device.
grep -q "^collect: time: planning .* s (1 planner), compiling .* s, device setup .* s, waiting for a device .* s; devices held .* s, .*% of 1 device's time" "$tmp/c1.err" ||
    fail "no time line on stderr with --json: $(tail -n 2 "$tmp/c1.err")"
python3 - "$tmp/c1.json" <<'PY' || fail "the report's time is wrong: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["time"])' "$tmp/c1.json")"
import json, sys
t = json.load(open(sys.argv[1]))["time"]
ok = t["devices"] == 1 and t["planners"] == 1 and t["planning_s"] > 0 and t["compiling_s"] > 0
ok = ok and 0 < t["device_held_s"] and 0 < t["device_busy"] <= 1.0 and t["device_setup_s"] > 0
sys.exit(0 if ok else 1)
PY
[ "$(count "$db" "SELECT COUNT(*) FROM measurements WHERE correct = 1 AND json_extract(measurement, '$.device_ms') > 0")" = \
  "$(count "$db" "SELECT COUNT(*) FROM measurements WHERE correct = 1")" ] ||
    fail "a correct row without the time it held the device"

# 2. --resume on the first two pipelines, with time to finish them: what the first run measured
# of them is skipped, the rest measured, nothing twice.
first2=$(count "$db" "SELECT COUNT(*) FROM measurements WHERE app IN ('random:0:5', 'random:1:5')")
"$cli" collect --random 2 "${small[@]}" --minutes 3 --db "$db" --resume --json >"$tmp/c2.json" \
    2>"$tmp/c2.err" || fail "collect --resume exited with $?: $(tail -n 3 "$tmp/c2.err")"
[ "$(twice "$db")" = "0" ] || fail "--resume measured $(twice "$db") schedule(s) a second time"
[ "$(field "$tmp/c2.json" skipped)" = "$first2" ] ||
    fail "--resume skipped $(field "$tmp/c2.json" skipped), the first run had $first2 rows of those pipelines"
[ "$(field "$tmp/c2.json" stop)" = "done" ] || fail "--resume did not finish: $(field "$tmp/c2.json" stop)"
n2=$(rows "$db")
[ "$n2" = "$(( n1 + $(field "$tmp/c2.json" rows) ))" ] || fail "rows $n2 after resume, expected $n1 + the report's"
# Every schedule of the 2 pipelines is now there: a third --resume measures nothing.
"$cli" collect --random 2 "${small[@]}" --minutes 1 --db "$db" --resume --json >"$tmp/c3.json" \
    2>"$tmp/c3.err" || fail "third collect exited with $?"
[ "$(field "$tmp/c3.json" rows)" = "0" ] || fail "a complete --resume measured $(field "$tmp/c3.json" rows) rows"
[ "$(rows "$db")" = "$n2" ] || fail "a complete --resume changed the database"

# --ptx 90: every row also carries each kernel's registers from ptxas, as bench's do (the runs
# above, without --ptx, none).
pdb=$tmp/p.sqlite
"$cli" collect --random 200..200 "${small[@]}" --minutes 2 --ptx 90 --db "$pdb" --json \
    >"$tmp/p.json" 2>"$tmp/p.err" || fail "collect --ptx 90 exited with $?: $(tail -n 3 "$tmp/p.err")"
withRegisters="SELECT COUNT(*) FROM measurements WHERE correct = 1 AND json_array_length(measurement, '$.kernels') > 0
    AND json_extract(measurement, '$.kernels[0].registers') > 0 AND json_extract(measurement, '$.ptx_arch') = 'sm_90'"
[ "$(field "$tmp/p.json" correct)" -gt 0 ] || fail "collect --ptx 90 measured no correct row: $(tail -n 3 "$tmp/p.err")"
if [ -x /usr/local/cuda/bin/ptxas ] || command -v ptxas >/dev/null; then
    [ "$(count "$pdb" "$withRegisters")" = "$(field "$tmp/p.json" correct)" ] ||
        fail "--ptx 90: $(count "$pdb" "$withRegisters") rows with registers of $(field "$tmp/p.json" correct) correct"
else # without the CUDA toolkit: said once, and the rows are measured all the same
    grep -q "^collect: ptxas not found: no register/spill report$" "$tmp/p.err" ||
        fail "--ptx 90 without ptxas did not say so: $(head -n 3 "$tmp/p.err")"
    [ "$(count "$pdb" "$withRegisters")" = "0" ] || fail "rows with registers without ptxas"
fi
[ "$(count "$db" "SELECT COUNT(*) FROM measurements WHERE json_array_length(measurement, '$.kernels') > 0")" = "0" ] ||
    fail "rows collected without --ptx carry a ptxas report"

# The rows of several pipelines: `models --pipeline` dumps only that pipeline's rows and stages,
# and leave-one-app-out holding out that pipeline alone ranks it alone (the others only train).
"$cli" models --db "$db" --pipeline random:0:5 --features-csv "$tmp/f0.csv" \
    --stage-features-csv "$tmp/s0.csv" >/dev/null 2>"$tmp/m0.err" || fail "models --pipeline: $(tail -n 2 "$tmp/m0.err")"
python3 - "$tmp/f0.csv" "$tmp/s0.csv" <<'PY' || fail "the dumps hold other pipelines' rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
stages = list(csv.DictReader(open(sys.argv[2])))
assert rows and {r["app"] for r in rows} == {"random:0:5"}, {r["app"] for r in rows}
assert {s["app"] for s in stages} == {"random:0:5"}, {s["app"] for s in stages}
assert {s["record"] for s in stages} == {r["record"] for r in rows}
PY
"$cli" models --db "$db" --leave-one-app-out --loao-apps random:0:5 -j 2 --trees 5 --json \
    >"$tmp/l0.json" 2>"$tmp/l0.err" || fail "models --loao-apps: $(tail -n 2 "$tmp/l0.err")"
python3 - "$tmp/l0.json" <<'PY' || fail "--loao-apps ranked other pipelines"
import json, sys
j = json.load(open(sys.argv[1]))
assert {p["pipeline"] for p in j["pipelines"]} <= {"random:0:5"}, [p["pipeline"] for p in j["pipelines"]]
assert j["train_rows"] > j["test_rows"], (j["train_rows"], j["test_rows"])
PY
# --json-out: the same JSON in a file, the table on stdout, from one run.
"$cli" models --db "$db" --leave-one-app-out --loao-apps random:0:5 -j 2 --trees 5 \
    --json-out "$tmp/l0-out.json" >"$tmp/l0.txt" 2>"$tmp/l0.err" || fail "models --json-out: $(tail -n 2 "$tmp/l0.err")"
cmp -s "$tmp/l0.json" "$tmp/l0-out.json" || fail "--json-out wrote other JSON than --json printed"
grep -Eq "^random:0:5 +[@0-9]" "$tmp/l0.txt" || fail "--json-out printed no table: $(head -n 3 "$tmp/l0.txt")"
"$cli" models --db "$db" --leave-one-app-out --loao-apps catalog >/dev/null 2>"$tmp/l1.err"
[ $? -ne 0 ] && [ "$(wc -l <"$tmp/l1.err")" = "1" ] && grep -q "no catalog app has rows" "$tmp/l1.err" ||
    fail "--loao-apps catalog without catalog rows: $(cat "$tmp/l1.err")"

# 3. SIGINT while running: exit 130, every committed row kept and counted.
idb=$tmp/i.sqlite
"$cli" collect --random 100..140 "${small[@]}" --minutes 5 --db "$idb" --json >"$tmp/i.json" 2>"$tmp/i.err" &
pid=$!
for _ in $(seq 1 120); do
    [ -f "$idb" ] && [ "$(rows "$idb" 2>/dev/null || echo 0)" -ge 1 ] && break
    sleep 0.5
done
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = "130" ] || fail "interrupted collect exited with $rc, expected 130: $(tail -n 3 "$tmp/i.err")"
ni=$(rows "$idb")
[ "${ni:-0}" -ge 1 ] || fail "the interrupted run left no row"
[ "$(field "$tmp/i.json" rows)" = "$ni" ] || fail "interrupted report: $(field "$tmp/i.json" rows) rows, database $ni"
[ "$(field "$tmp/i.json" stop)" = "interrupted" ] || fail "stop is $(field "$tmp/i.json" stop)"

# 4. Bad arguments: one line, non-zero.
for bad in "--random x" "--random 5..2" "--app nosuchapp" "--minutes 0 --random 1"; do
    # shellcheck disable=SC2086 # the words of $bad are separate arguments
    "$cli" collect $bad --db "$tmp/bad.sqlite" >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    [ "$rc" -ne 0 ] || fail "collect $bad exited 0"
    [ "$(grep -c '' "$tmp/bad.err")" -le 2 ] || fail "collect $bad: more than one line: $(cat "$tmp/bad.err")"
done
"$cli" collect --db "$tmp/bad.sqlite" >/dev/null 2>"$tmp/bad.err" && fail "collect without pipelines exited 0"

finish collect_cli
