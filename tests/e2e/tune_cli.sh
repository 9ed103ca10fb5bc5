#!/usr/bin/env bash
# End-to-end test of `beamscope-cli tune`, `train` and `models` on the real OpenCL device (PoCL on
# the test machine), with a real SQLite database: 2 rounds of 4 record 8 measurements; a resumed
# run measures nothing twice; Ctrl-C keeps every row measured before it; the database trains a
# model that the search loads; models compares analytic, polymage and learned.
# FAILS (never skips) when no OpenCL device is found.
# Usage: tune_cli.sh BEAMSCOPE_CLI
set -u

source "$(dirname "$0")/common.sh"
begin_cli_test "$@"
records() { "$cli" db stats --db "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["records"])'; }
unique_schedules() {
    "$cli" db export --db "$1" --csv "$tmp/x.csv" >/dev/null &&
        python3 -c 'import csv,sys; rows=list(csv.DictReader(open(sys.argv[1]))); print(len({(r["pipeline_key"], r["schedule_hash"], r["device_key"]) for r in rows}))' "$tmp/x.csv"
}

require_opencl
pipe=(unsharp_mask -p width=96 -p height=96)

# 1. Two rounds of four: 8 measurements recorded, JSON with both rounds and the one-shot choice.
"$cli" tune "${pipe[@]}" --rounds 2 --batch 4 --repeats 3 --db "$tmp/t.sqlite" --json \
    >"$tmp/tune.json" 2>"$tmp/tune.err"
rc=$?
[ "$rc" -eq 0 ] || fail "tune exited with $rc: $(tail -n 3 "$tmp/tune.err")"
grep -E '^tune: round [01]:' "$tmp/tune.err" || fail "no round lines on stderr"
python3 - "$tmp/tune.json" <<'PY' || fail "tune JSON: see above"
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["rounds"]) == 2, j["rounds"]
assert sum(r["measured"] for r in j["rounds"]) == 8, [r["measured"] for r in j["rounds"]]
assert j["best"] and j["best"]["correct"] is True, j["best"]
assert j["one_shot"] and j["one_shot"]["label"] == "r0:result", j["one_shot"]
assert j["best"]["measured_ms"]["median"] <= j["one_shot"]["measured_ms"]["median"]
assert j["rounds"][1]["model"] == "learned", j["rounds"][1]["model"]
assert j["model_path"], "no model written"
print("tune JSON ok: best", j["best"]["measured_ms"]["median"], "ms")
PY
n=$(records "$tmp/t.sqlite")
[ "$n" = "8" ] || fail "expected 8 records, got $n"

# 2. Train, search with the model, compare the models.
"$cli" train --db "$tmp/t.sqlite" --out "$tmp/m.model" >"$tmp/train.out" 2>&1 ||
    fail "train: $(tail -n 3 "$tmp/train.out")"
cat "$tmp/train.out"
[ -s "$tmp/m.model" ] || fail "train wrote no model"
"$cli" search "${pipe[@]}" --cost-model "$tmp/m.model" --json >"$tmp/search.json" 2>&1 ||
    fail "search with the learned model: $(tail -n 2 "$tmp/search.json")"
"$cli" models --db "$tmp/t.sqlite" >"$tmp/models.out" 2>&1 || fail "models: $(tail -n 3 "$tmp/models.out")"
cat "$tmp/models.out"
for m in analytic polymage learned; do
    head -n 4 "$tmp/models.out" | grep -q "$m" || fail "models does not list $m"
done
# The per-stage dump: every measured row's stages, one kernel root per kernel, and the analytic
# terms of its stages adding up to the row's analytic total (the schedule-level CSV's column).
"$cli" models --db "$tmp/t.sqlite" --features-csv "$tmp/rows.csv" \
    --stage-features-csv "$tmp/stages.csv" >/dev/null 2>&1 || fail "models --stage-features-csv failed"
python3 - "$tmp/rows.csv" "$tmp/stages.csv" <<'PY' || fail "the per-stage dump disagrees with the rows"
import csv, sys, collections
rows = {r["record"]: r for r in csv.DictReader(open(sys.argv[1]))}
sums, roots, kernels = collections.defaultdict(float), collections.Counter(), collections.defaultdict(set)
for s in csv.DictReader(open(sys.argv[2])):
    sums[s["record"]] += sum(float(v) for k, v in s.items() if k.startswith("analytic_"))
    roots[s["record"]] += int(s["kernel_root"])
    kernels[s["record"]].add(s["kernel"])
assert set(sums) == set(rows) and rows, (len(sums), len(rows))
for rec, total in sums.items():
    want = float(rows[rec]["analytic_ms"])
    assert abs(total - want) <= 1e-6 * max(1.0, want), (rec, total, want)
    assert roots[rec] == len(kernels[rec]), (rec, roots[rec], kernels[rec])
print(f"stage dump: {len(rows)} rows, {sum(roots.values())} kernels, terms add up")
PY

# 3. Resume: one round, then --resume to two: the second run measures only round 1.
"$cli" tune "${pipe[@]}" --rounds 1 --batch 4 --repeats 3 --db "$tmp/r.sqlite" --run-id r -q \
    >/dev/null 2>&1 || fail "tune --rounds 1 failed"
[ "$(records "$tmp/r.sqlite")" = "4" ] || fail "round 0 alone: expected 4 records"
"$cli" tune "${pipe[@]}" --rounds 2 --batch 4 --repeats 3 --db "$tmp/r.sqlite" --run-id r --resume \
    --json >"$tmp/resume.json" 2>"$tmp/resume.err" || fail "resume failed: $(tail -n 2 "$tmp/resume.err")"
grep -q "resuming r after round 1" "$tmp/resume.err" || fail "resume did not say where it resumed"
n=$(records "$tmp/r.sqlite")
u=$(unique_schedules "$tmp/r.sqlite")
[ "$n" = "$u" ] || fail "resume measured a schedule twice ($n records, $u schedules)"
# The one-shot choice searched again on resume is round 0's result: reused, not measured.
[ "$n" = "8" ] || fail "after resume: expected 8 records, got $n"

# 4. Ctrl-C: stop a run mid-round; every row it reported is in the database, none twice.
# Its workers' job files live in its own TMPDIR, so they can be told from other tests' workers.
mkdir -p "$tmp/ctmp"
TMPDIR="$tmp/ctmp" "$cli" tune "${pipe[@]}" --rounds 3 --batch 4 --repeats 3 --db "$tmp/c.sqlite" \
    --run-id c >"$tmp/c.out" 2>"$tmp/c.err" &
pid=$!
for _ in $(seq 1 600); do
    [ "$(records "$tmp/c.sqlite" 2>/dev/null || echo 0)" -ge 2 ] && break
    sleep 0.2
done
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "interrupted tune exited with $rc (expected 130)"
grep -q "cancelled" "$tmp/c.out" || fail "interrupted tune did not say it was cancelled"
n=$(records "$tmp/c.sqlite")
[ "$n" -ge 2 ] && [ "$n" -lt 12 ] || fail "interrupted run: $n records"
pgrep -f "$tmp/ctmp" >/dev/null && fail "a worker outlived the interrupted run"
"$cli" tune "${pipe[@]}" --rounds 3 --batch 4 --repeats 3 --db "$tmp/c.sqlite" --run-id c -q \
    --resume >/dev/null 2>&1 || fail "resume after the interrupt (stopped in round 0) failed"
[ "$(records "$tmp/c.sqlite")" = "$(unique_schedules "$tmp/c.sqlite")" ] ||
    fail "the rerun measured a schedule twice"

# 5. Bad input: one line, non-zero.
"$cli" tune "${pipe[@]}" --rounds 1 --batch 1 --db "$tmp/t.sqlite" --run-id nope --resume \
    >/dev/null 2>"$tmp/e1"
[ $? -ne 0 ] && [ "$(wc -l <"$tmp/e1")" = "1" ] || fail "resume of an unknown run: $(cat "$tmp/e1")"
"$cli" models --db "$tmp/empty.sqlite" >/dev/null 2>"$tmp/e2"
[ $? -ne 0 ] && [ "$(wc -l <"$tmp/e2")" = "1" ] || fail "models on an empty database: $(cat "$tmp/e2")"
"$cli" models --db "$tmp/t.sqlite" --leave-one-app-out --loao-apps matmul >/dev/null 2>"$tmp/e3"
[ $? -ne 0 ] && [ "$(wc -l <"$tmp/e3")" = "1" ] && grep -q "no rows of app matmul" "$tmp/e3" ||
    fail "leave-one-app-out holding out an app without rows: $(cat "$tmp/e3")"

finish "tune e2e"
