#!/usr/bin/env bash
# End-to-end test of the measurement database through the CLI on the real OpenCL device (PoCL on
# the test machine): `bench --db` records rows; an identical rerun measures nothing and marks its
# rows reused; --fresh measures again; `db export --csv`, `db import` into a fresh file and
# `db prune --duplicates`; a corrupt database file is one line and bench goes on; bad `db`
# arguments are one line and a non-zero exit.
# FAILS (never skips) when no OpenCL device is found.
# Usage: db_cli.sh BEAMSCOPE_CLI
set -u

source "$(dirname "$0")/common.sh"
begin_cli_test "$@"
records() { "$cli" db stats --db "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["records"])'; }
# Lines of a file (0 when empty).
lines() { grep -c '' "$1"; }

require_opencl
bench=(bench stencil_chain -p length=2 -p width=64 -p height=64 --device opencl --mode topk --top 1)
db=$tmp/m.sqlite

# 1. A first run records every row it measured.
"$cli" "${bench[@]}" --db "$db" -q --json >"$tmp/b1.json" 2>"$tmp/b1.err" ||
    fail "first bench exited with $?: $(tail -n 3 "$tmp/b1.err")"
n1=$(records "$db")
[ "${n1:-0}" -gt 0 ] || fail "first bench recorded no rows (records: '${n1:-}')"
python3 - "$tmp/b1.json" "${n1:-0}" <<'PY' || fail "first bench JSON: see above"
import json, sys
j = json.load(open(sys.argv[1]))
rows = j["candidates"] + j["baselines"]
assert j["reused"] == 0, f"reused {j['reused']} on an empty database"
assert not any(r.get("reused") for r in rows), "a row of the first run is marked reused"
assert j["recorded"] == int(sys.argv[2]), f"recorded {j['recorded']}, database has {sys.argv[2]}"
# The report says how the beam search ran: this chain's 6 Funcs are below the freezing threshold.
assert j["freezing"] == "off: 6 searched Funcs, fewer than 10", j.get("freezing")
PY

# 2. The identical rerun measures nothing: no rows added, every row marked reused.
"$cli" "${bench[@]}" --db "$db" -q --json >"$tmp/b2.json" 2>"$tmp/b2.err" ||
    fail "second bench exited with $?: $(tail -n 3 "$tmp/b2.err")"
n2=$(records "$db")
[ "${n2:-}" = "$n1" ] || fail "identical rerun changed the records from $n1 to ${n2:-?}"
python3 - "$tmp/b2.json" <<'PY' || fail "rerun JSON: see above"
import json, sys
j = json.load(open(sys.argv[1]))
rows = [r for r in j["candidates"] + j["baselines"] if r.get("measured_ms") or r.get("failure")]
assert rows, "the rerun reports no measured rows"
assert all(r.get("reused") is True for r in rows), [(r["label"], r.get("reused")) for r in rows]
assert j["reused"] >= 1 and j["recorded"] == 0, (j["reused"], j["recorded"])
PY

# 3. --fresh measures again and records the new rows.
"$cli" "${bench[@]}" --db "$db" -q --fresh --json >"$tmp/b3.json" 2>"$tmp/b3.err" ||
    fail "--fresh bench exited with $?: $(tail -n 3 "$tmp/b3.err")"
n3=$(records "$db")
[ "${n3:-0}" -eq $((2 * n1)) ] || fail "--fresh: expected $((2 * n1)) records, found ${n3:-?}"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["reused"] == 0, j["reused"]' \
    "$tmp/b3.json" || fail "--fresh reused rows"

# 4. export --csv: a header and one row per record.
"$cli" db export --db "$db" --csv "$tmp/m.csv" >"$tmp/export.out" 2>&1 ||
    fail "db export: $(cat "$tmp/export.out")"
python3 - "$tmp/m.csv" "${n3:-0}" <<'PY' || fail "exported CSV: see above"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == int(sys.argv[2]), f"{len(rows)} CSV rows for {sys.argv[2]} records"
assert all(r["app"] == "stencil_chain" and r["device_kind"] == "opencl" for r in rows)
assert all(float(r["median_ms"]) > 0 for r in rows if r["failure"] == "")
PY

# 5. import into a fresh file: the same count; a second import adds nothing.
"$cli" db import --db "$tmp/copy.sqlite" "$db" >"$tmp/import.out" 2>&1 ||
    fail "db import: $(cat "$tmp/import.out")"
[ "$(records "$tmp/copy.sqlite")" = "$n3" ] || fail "import: $(records "$tmp/copy.sqlite") of $n3"
"$cli" db import --db "$tmp/copy.sqlite" "$db" >"$tmp/import2.out" 2>&1
grep -q "imported 0 new record" "$tmp/import2.out" || fail "second import: $(cat "$tmp/import2.out")"

# 6. prune --duplicates removes the rows --fresh duplicated.
"$cli" db prune --db "$db" --duplicates >"$tmp/prune.out" 2>&1 || fail "db prune: $(cat "$tmp/prune.out")"
grep -q "pruned $n1 record" "$tmp/prune.out" || fail "prune --duplicates: $(cat "$tmp/prune.out")"
[ "$(records "$db")" = "$n1" ] || fail "after prune: $(records "$db") records, expected $n1"

# 7. A corrupt database file: one line naming the database, and the benchmark goes on.
head -c 8192 /dev/urandom >"$tmp/corrupt.sqlite"
cp "$tmp/corrupt.sqlite" "$tmp/corrupt.orig"
"$cli" "${bench[@]}" --db "$tmp/corrupt.sqlite" -q >"$tmp/c.out" 2>"$tmp/c.err"
rc=$?
[ "$rc" -eq 0 ] || fail "bench with a corrupt database exited with $rc"
[ "$(lines "$tmp/c.err")" -eq 1 ] || fail "corrupt database: stderr is not one line: $(cat "$tmp/c.err")"
grep -q "measurement database" "$tmp/c.err" || fail "corrupt database: $(cat "$tmp/c.err")"
grep -q "result" "$tmp/c.out" || fail "corrupt database: no benchmark table"
cmp -s "$tmp/corrupt.sqlite" "$tmp/corrupt.orig" || fail "the corrupt file was modified"

# 8. Bad arguments: one line on stderr, non-zero exit.
expect_one_line_error() {
    local what=$1
    shift
    "$cli" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
    local rc=$?
    [ "$rc" -ne 0 ] || fail "$what: exit 0"
    [ "$(lines "$tmp/bad.err")" -eq 1 ] || fail "$what: stderr is not one line: $(cat "$tmp/bad.err")"
}
expect_one_line_error "db import /nonexistent" db import --db "$tmp/x.sqlite" /nonexistent/m.sqlite
grep -q "/nonexistent/m.sqlite" "$tmp/bad.err" || fail "import error does not name the file: $(cat "$tmp/bad.err")"
expect_one_line_error "db export without --csv" db export --db "$db"
grep -q -- "--csv" "$tmp/bad.err" || fail "export error does not name --csv: $(cat "$tmp/bad.err")"
expect_one_line_error "db stats of a missing file" db stats --db "$tmp/missing.sqlite"
expect_one_line_error "db stats of a corrupt file" db stats --db "$tmp/corrupt.sqlite"
grep -q "not a database" "$tmp/bad.err" || fail "corrupt stats: $(cat "$tmp/bad.err")"
expect_one_line_error "db prune without a criterion" db prune --db "$db"

finish "db CLI"
