#!/usr/bin/env bash
# End-to-end test of `tune --runner slurm` on a real single-node Slurm cluster (cluster.sh: Debian's
# munged, slurmctld and slurmd for this host) with PoCL workers:
#   1. one round of 4 through a job array (GRES gpu:1, so tasks take turns on the device): every
#      measurement arrives in a real SQLite database, progress lines name the node; the tasks ran
#      the artifacts compiled here (beamscope-aot-runner, no libHalide) and compiled nothing;
#   2. a second run is interrupted (SIGINT) while its array is queued: it exits 130, keeps what it
#      collected, and squeue is empty afterwards (scancel);
#   3. a resumed run after a killed CLI (SIGKILL, array left queued) follows the queued jobs
#      instead of submitting them again;
#   4. crash triage: the program a task runs dies by SIGSEGV on the node (a wrapper around the
#      real beamscope-aot-runner / beamscope-worker kills itself for chosen tasks): the crash is
#      read from the status file, or from Slurm's record (exit status 139) when the task could
#      not write one, and triaged on this host for real; the verdict is in the CLI's table and
#      the database's crash_verdict column (db export --csv) and says where it was triaged; with
#      --slurm-compile job too; a run interrupted during a triage records the crash without a
#      verdict and leaves no triage process behind. About 20 s.
#   5. a Python generator given by a relative path, compiled in the job (--slurm-compile job):
#      the task, which runs in its batch directory, builds it; every row correct. About 10 s.
# FAILS (never skips) where the Slurm daemons cannot run (no slurm-wlm/munge and no way to
# install them); FAILS when there is no OpenCL device. About 45-75 s on 2 cores (step 4: ~20 s).
# Usage: slurm_tune.sh BEAMSCOPE_CLI
set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 BEAMSCOPE_CLI" >&2
    exit 2
fi
cli=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
cluster=$tmp/cluster
failed=0
fail() {
    failed=$((failed + 1))
    echo "FAIL: $1"
}
cleanup() {
    "$here/cluster.sh" stop "$cluster" >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT

why=$("$here/cluster.sh" check)
rc=$?
if [ $rc -ne 0 ]; then
    echo "FAIL: the Slurm test cluster cannot run here (slurm-wlm and munge are part of the test machine's set-up): $why"
    exit 1
fi
if ! clinfo -l 2>/dev/null | grep -q "Device"; then
    echo "FAIL: no OpenCL device (clinfo lists none): PoCL is part of the test machine's set-up"
    exit 1
fi
env_line=$("$here/cluster.sh" start "$cluster") || {
    echo "FAIL: the test cluster did not start"
    exit 1
}
eval "$env_line" # export SLURM_CONF=...
records() { "$cli" db stats --db "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["records"])'; }
queued() { squeue -h -o '%i %T' | grep -cv -E 'COMPLETED|FAILED|CANCELLED|TIMEOUT' ; }
pipe=(unsharp_mask -p width=64 -p height=64)
slurm=(--runner slurm --slurm-dir "$tmp/jobs" --slurm-poll 0.3 --repeats 2 --device opencl)

# 1. One round of four on the cluster: four rows in the database, progress per node.
"$cli" tune "${pipe[@]}" --rounds 1 --batch 4 "${slurm[@]}" --db "$tmp/a.sqlite" --json \
    >"$tmp/a.json" 2>"$tmp/a.err"
rc=$?
[ "$rc" -eq 0 ] || fail "tune --runner slurm exited with $rc: $(tail -n 3 "$tmp/a.err")"
grep -q "slurm: submitted array job" "$tmp/a.err" || fail "no array job submitted"
grep -q "jobs: .*beamscope-node" "$tmp/a.err" || fail "no progress line naming the node"
python3 - "$tmp/a.json" <<'PY' || fail "tune JSON: see above"
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["rounds"]) == 1, j["rounds"]
r = j["rounds"][0]
assert r["measured"] == 4, r
assert r["measured"] - r["failures"] >= 1, r
assert j["best"] and j["best"]["correct"] is True, j["best"]
print("slurm tune ok: best", j["best"]["measured_ms"]["median"], "ms,", r["failures"], "failed")
PY
n=$(records "$tmp/a.sqlite")
[ "$n" = "4" ] || fail "expected 4 records, got $n"
ls "$tmp"/jobs/batch-*/manifest.json >/dev/null 2>&1 || fail "no batch manifest in --slurm-dir"
[ "$(queued)" = "0" ] || fail "jobs left in the queue after a finished run"
# compile = local (the default) ships artifacts: the nodes ran beamscope-aot-runner, which links
# no libHalide, and compiled nothing (no "JIT compiled" progress line of a worker).
batch=$(ls -d "$tmp"/jobs/batch-* | head -n 1)
runner=$(dirname "$cli")/../aot-runner/beamscope-aot-runner
grep -q "beamscope-aot-runner" "$batch/run.sh" || fail "run.sh does not run the shipped artifact"
[ -x "$runner" ] || fail "no beamscope-aot-runner at $runner"
ldd "$runner" | grep -qi "halide\|llvm" && fail "beamscope-aot-runner links Halide: $(ldd "$runner")"
ls "$batch"/aot/*.so >/dev/null 2>&1 || fail "no artifact in $batch/aot"
ls "$batch"/data-*/data.json >/dev/null 2>&1 || fail "no shipped inputs and references"
shipped=$(cat "$batch"/[0-9]*.out | grep -c '"ran_from":"shipped artifact"')
[ "$shipped" -gt 0 ] && [ "$shipped" = "$(ls "$batch"/[0-9]*.out | wc -l)" ] || fail "only $shipped task(s) ran a shipped artifact"
grep -l "JIT compiled" "$batch"/[0-9]*.err && fail "a node JIT-compiled a shipped candidate"
grep -q "without compiling" "$batch"/0.err || fail "task 0's log does not say it ran without compiling"

# 2. Interrupt a run while its array is queued: exit 130, nothing left queued.
"$cli" tune "${pipe[@]}" --rounds 1 --batch 6 --seed 7 "${slurm[@]}" --db "$tmp/b.sqlite" \
    --slurm-max-parallel 1 >/dev/null 2>"$tmp/b.err" &
pid=$!
for _ in $(seq 1 600); do
    grep -q "slurm: submitted array job" "$tmp/b.err" && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
done
grep -q "slurm: submitted array job" "$tmp/b.err" || fail "second run submitted nothing"
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 130 ] || fail "interrupted run exited with $rc, expected 130: $(tail -n 2 "$tmp/b.err")"
grep -q "slurm: cancelled array job" "$tmp/b.err" || fail "no scancel on interrupt"
left=$(queued)
[ "$left" = "0" ] || fail "$left job(s) still queued after the interrupt: $(squeue -h)"
n=$(records "$tmp/b.sqlite")
[ "$n" -lt 6 ] || fail "interrupted run recorded all 6 rows ($n)"

# 3. Kill the CLI outright with its array queued; the resumed run follows those jobs.
"$cli" tune "${pipe[@]}" --rounds 1 --batch 3 --seed 11 "${slurm[@]}" --db "$tmp/c.sqlite" \
    --run-id c --slurm-compile job --slurm-max-parallel 1 >/dev/null 2>"$tmp/c.err" &
pid=$!
for _ in $(seq 1 600); do
    grep -q "slurm: submitted array job" "$tmp/c.err" && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
done
kill -KILL $pid
wait $pid 2>/dev/null
"$cli" tune "${pipe[@]}" --rounds 1 --batch 3 --seed 11 "${slurm[@]}" --db "$tmp/c.sqlite" \
    --run-id c --resume --slurm-compile job >/dev/null 2>"$tmp/c2.err"
rc=$?
[ "$rc" -eq 0 ] || fail "resumed run exited with $rc: $(tail -n 3 "$tmp/c2.err")"
grep -q "slurm: following [1-9]" "$tmp/c2.err" || fail "resume did not follow the queued jobs: $(grep slurm: "$tmp/c2.err")"
grep -q "slurm: submitted array job" "$tmp/c2.err" && fail "resume submitted the jobs again"
n=$(records "$tmp/c.sqlite")
[ "$n" = "3" ] || fail "after resume: expected 3 records, got $n"
[ "$(queued)" = "0" ] || fail "jobs left in the queue after the resumed run"
grep -q "beamscope-worker" "$(ls -d "$tmp"/jobs/batch-* | tail -n 1)/run.sh" ||
    fail "--slurm-compile job does not run the worker"

# 4. Crash triage. Task 0's program dies by SIGSEGV; task 1's too, and its status file cannot be
# written (a directory is in the way), so only Slurm's record says how it ended.
worker=$(dirname "$cli")/../worker/beamscope-worker
cat >"$tmp/crash-aot.sh" <<SCRIPT
#!/bin/sh
case "\$1" in
*/0.json) kill -SEGV \$\$ ;;
*/1.json) mkdir "\${1%.json}.status.part"; kill -SEGV \$\$ ;;
esac
exec "$runner" "\$@"
SCRIPT
sed "/1.json/d" "$tmp/crash-aot.sh" >"$tmp/crash-aot0.sh" # task 0 only
sed "s#$runner#$worker#" "$tmp/crash-aot0.sh" >"$tmp/crash-worker.sh"
cat >"$tmp/slow-triage.sh" <<SCRIPT
#!/bin/sh
[ "\$1" = --triage ] && echo \$\$ >"$tmp/triage.pid" && exec sleep 60
exec "$worker" "\$@"
SCRIPT
chmod +x "$tmp"/crash-*.sh "$tmp/slow-triage.sh"
own=(--runner slurm --slurm-poll 0.3 --repeats 2 --device opencl) # each run its own --slurm-dir
verdicts() { # (label, crash_verdict) of every row, sorted
    "$cli" db export --db "$1" --csv "$1.csv" >/dev/null &&
        python3 -c 'import csv,sys; print(sorted((r["label"], r["crash_verdict"]) for r in csv.DictReader(open(sys.argv[1]))))' "$1.csv"
}
"$cli" bench "${pipe[@]}" --mode topk --top 2 "${own[@]}" --slurm-dir "$tmp/crash" \
    --slurm-aot-runner "$tmp/crash-aot.sh" --db "$tmp/d.sqlite" >"$tmp/d.out" 2>"$tmp/d.err"
rc=$?
[ "$rc" -eq 0 ] || fail "bench with crashing tasks exited with $rc: $(tail -n 3 "$tmp/d.err")"
toolchain="triage: device toolchain crashed (correct on the host with bounds checks; its OpenCL kernels build alone, so the device run crashed; triaged on $(hostname), the submit host; the task crashed on beamscope-node)"
[ "$(grep -F "$toolchain" "$tmp/d.out" | grep -c "crash: signal 11 (Segmentation fault)")" = 2 ] ||
    fail "two triaged crashes expected in the table: $(grep -i crash "$tmp/d.out")"
grep -qF "crash: signal 11 (Segmentation fault) — no result file; slurm: FAILED (NonZeroExitCode, exit status 139); $toolchain" "$tmp/d.out" ||
    fail "no triaged crash from Slurm's record in the table: $(grep -i crash "$tmp/d.out")"
[ "$(grep -c "triaging it on this host" "$tmp/d.err")" = 2 ] ||
    fail "two triages expected: $(grep slurm: "$tmp/d.err")"
[ "$(verdicts "$tmp/d.sqlite" | grep -o "'device toolchain crashed'" | wc -l)" = 2 ] ||
    fail "crash_verdict column: $(verdicts "$tmp/d.sqlite")"
"$cli" bench "${pipe[@]}" --mode topk --top 1 "${own[@]}" --slurm-dir "$tmp/crash-job" \
    --slurm-compile job --slurm-worker "$tmp/crash-worker.sh" --db "$tmp/e.sqlite" \
    >"$tmp/e.out" 2>"$tmp/e.err"
grep -qF "$toolchain" "$tmp/e.out" || fail "--slurm-compile job: no triaged crash: $(tail -n 3 "$tmp/e.err")"
[ "$(verdicts "$tmp/e.sqlite")" = "[('greedy#0', ''), ('result', 'device toolchain crashed')]" ] ||
    fail "--slurm-compile job: crash_verdict column: $(verdicts "$tmp/e.sqlite")"
# Interrupted while the triage runs (it sleeps): exit 130 at once, the crash without a verdict.
"$cli" tune "${pipe[@]}" --rounds 1 --batch 2 "${own[@]}" --slurm-dir "$tmp/crash-cancel" \
    --slurm-aot-runner "$tmp/crash-aot0.sh" --worker "$tmp/slow-triage.sh" --db "$tmp/f.sqlite" \
    >/dev/null 2>"$tmp/f.err" &
pid=$!
for _ in $(seq 1 600); do
    grep -q "triaging it on this host" "$tmp/f.err" && [ -s "$tmp/triage.pid" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 130 ] || fail "run interrupted during a triage exited with $rc: $(tail -n 2 "$tmp/f.err")"
sleep 0.2
kill -0 "$(cat "$tmp/triage.pid" 2>/dev/null)" 2>/dev/null && fail "the triage outlived the interrupted run"
verdicts "$tmp/f.sqlite" | grep -qF "('r0:result', '')" || fail "interrupted triage: $(verdicts "$tmp/f.sqlite")"
grep -q "triage:" "$tmp/f.err" && fail "a verdict after the interrupt: $(grep triage: "$tmp/f.err")"
[ "$(queued)" = "0" ] || fail "jobs left in the queue after the interrupted triage"

# 5. A Python generator named by a relative path (issue 33), compiled in the job: the task runs
# in its batch directory and still finds the file; both rows correct.
(cd "$here/.." && "$cli" bench py_blur --generator-py data/python/blur.py --mode topk --top 1 \
    --beam 2 --passes 1 --warmup 0 "${own[@]}" --slurm-dir "$tmp/py" --slurm-compile job \
    --no-db --json -q) >"$tmp/py.json" 2>"$tmp/py.err" ||
    fail "Python generator on Slurm: $(tail -n 3 "$tmp/py.err")"
python3 - "$tmp/py.json" <<'PY' || fail "Python generator on Slurm: see above"
import json, sys
rows = json.load(open(sys.argv[1]))["candidates"]
bad = [f'{r["label"]}: {r["failure"]}' for r in rows if not r.get("correct")]
assert len(rows) == 2 and not bad, bad or rows
print("slurm python generator ok:", [r["label"] for r in rows])
PY

if [ $failed -ne 0 ]; then
    echo "--- slurmctld.log"
    tail -n 20 "$cluster/log/slurmctld.log"
    echo "$failed check(s) failed"
    exit 1
fi
echo "slurm e2e: all checks passed"
