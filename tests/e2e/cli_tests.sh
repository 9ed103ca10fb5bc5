#!/usr/bin/env bash
# End-to-end tests of beamscope-cli as a user drives it: listing, DAG output, every error path
# (one line on stderr, exit 2 for usage errors, 1 for failures) and building a generator
# library with the flags `halide-flags` prints.
# Usage: cli_tests.sh BEAMSCOPE_CLI GENERATOR_LIB NOT_GENERATOR_LIB
set -u

if [ $# -ne 3 ]; then
    echo "usage: $0 BEAMSCOPE_CLI GENERATOR_LIB NOT_GENERATOR_LIB" >&2
    exit 2
fi
cli=$1
generatorLib=$2
notGeneratorLib=$3
sourceDir=$(cd "$(dirname "$0")/../.." && pwd)

tmp=$(mktemp -d)
export XDG_DATA_HOME="$tmp/xdg" # never the user's measurement database
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

pass() {
    passed=$((passed + 1))
    echo "PASS: $1"
}

fail() {
    failed=$((failed + 1))
    echo "FAIL: $1"
    shift
    for detail in "$@"; do echo "    $detail"; done
}

# run ARGS...: runs the CLI; leaves exit status in $rc, output in $tmp/out and $tmp/err.
run() {
    "$cli" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# expectError NAME CODE ARGS...: the CLI exits with CODE and prints exactly one stderr line.
expectError() {
    local name=$1 code=$2
    shift 2
    run "$@"
    local lines
    lines=$(grep -c '' "$tmp/err")
    if [ "$rc" -eq "$code" ] && [ "$lines" -eq 1 ]; then
        pass "$name (exit $rc: $(cat "$tmp/err"))"
    else
        fail "$name" "command: $cli $*" "exit $rc (want $code), $lines stderr lines (want 1):" \
            "$(head -c 2000 "$tmp/err")"
    fi
}

# --- listing and DAG output -------------------------------------------------------------------
run apps
count=$(grep -c '' "$tmp/out")
if [ "$rc" -eq 0 ] && [ "$count" -eq 16 ]; then
    pass "apps lists 16 apps"
else
    fail "apps lists 16 apps" "exit $rc, $count lines" "$(head -c 2000 "$tmp/err")"
fi

run dag stencil_chain --format json
if [ "$rc" -eq 0 ] && python3 -m json.tool "$tmp/out" >/dev/null 2>"$tmp/json-err" &&
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1]));
sys.exit(0 if isinstance(d.get("funcs"), list) and d["funcs"] else 1)' "$tmp/out"; then
    pass "dag stencil_chain --format json is JSON with a funcs array"
else
    fail "dag stencil_chain --format json is JSON with a funcs array" "exit $rc" \
        "$(head -c 1000 "$tmp/err")" "$(head -c 1000 "$tmp/json-err" 2>/dev/null)"
fi

run generators --generator-lib "$generatorLib"
if [ "$rc" -eq 0 ] && [ "$(tr '\n' ' ' <"$tmp/out")" = "test_blur test_no_estimates test_throws " ]
then
    pass "generators lists the fixture library"
else
    fail "generators lists the fixture library" "exit $rc" "$(cat "$tmp/out" "$tmp/err")"
fi

run dag test_blur --generator-lib "$generatorLib" -p radius=2
if [ "$rc" -eq 0 ]; then
    pass "dag of a generator from a library"
else
    fail "dag of a generator from a library" "exit $rc" "$(head -c 2000 "$tmp/err")"
fi

# --- error paths: one line on stderr, the right exit status ------------------------------------
expectError "unknown app" 2 dag nosuch_app
expectError "non-integer app parameter" 2 dag stencil_chain -p length=abc
expectError "unknown app parameter" 2 dag stencil_chain -p nosuch=3
expectError "unknown generator parameter" 2 dag test_blur --generator-lib "$generatorLib" \
    -p nosuch=3
expectError "unknown generator" 2 dag nosuch --generator-lib "$generatorLib"
expectError "unreadable generator library" 1 dag test_blur --generator-lib "$tmp/missing.so"
expectError "not a shared library" 1 generators --generator-lib \
    "$sourceDir/tests/data/generators/NotGenerators.cpp"
expectError "library without generators" 1 generators --generator-lib "$notGeneratorLib"
expectError "library without generators (dag)" 1 dag test_blur --generator-lib "$notGeneratorLib"
expectError "throwing generator" 1 dag test_throws --generator-lib "$generatorLib"
if grep -q "test_throws" "$tmp/err"; then
    pass "throwing generator's message names it"
else
    fail "throwing generator's message names it" "$(cat "$tmp/err")"
fi
expectError "missing estimates" 1 dag test_no_estimates --generator-lib "$generatorLib"
if grep -q "missing estimates: output 'blur' dimension 0" "$tmp/err"; then
    pass "missing estimates are named"
else
    fail "missing estimates are named" "$(cat "$tmp/err")"
fi
# --estimate supplies or overrides output estimates (the sizes the search schedules for).
run dag test_no_estimates --generator-lib "$generatorLib" --estimate blur=0:64,0:48
if [ "$rc" -eq 0 ] && grep -q "region \[0, 63\] \[0, 47\]" "$tmp/out"; then
    pass "--estimate supplies a generator's missing output estimates"
else
    fail "--estimate supplies a generator's missing output estimates" "exit $rc" \
        "$(head -5 "$tmp/out")" "$(cat "$tmp/err")"
fi
run dag stencil_chain -p length=2 --estimate output=0:512,0:256
if [ "$rc" -eq 0 ] && grep -q "^func output .* region \[0, 511\] \[0, 255\]" "$tmp/out"; then
    pass "--estimate overrides a catalog app's output estimates"
else
    fail "--estimate overrides a catalog app's output estimates" "exit $rc" "$(grep output "$tmp/out")"
fi
expectError "malformed estimate" 2 dag stencil_chain --estimate output=abc
expectError "estimate beyond 32 bits" 2 dag stencil_chain --estimate output=0:3000000000,0:8
expectError "estimate of an unknown output" 2 dag stencil_chain --estimate nosuch=0:8,0:8
expectError "estimate with the wrong dimension count" 2 dag stencil_chain --estimate output=0:8
expectError "unknown subcommand" 2 nosuchcommand
expectError "no subcommand" 2

# --- a generator library built with halide-flags -----------------------------------------------
run halide-flags
if [ "$rc" -eq 0 ] && [ "$(grep -c '' "$tmp/out")" -eq 2 ]; then
    pass "halide-flags prints two lines"
else
    fail "halide-flags prints two lines" "exit $rc" "$(cat "$tmp/out" "$tmp/err")"
fi
compileFlags=$(sed -n 1p "$tmp/out")
linkFlags=$(sed -n 2p "$tmp/out")
cxx=${CXX:-g++}
# shellcheck disable=SC2086 # the flags are meant to split into words
if "$cxx" $compileFlags "$sourceDir/tests/data/generators/TestGenerators.cpp" $linkFlags \
    -o "$tmp/libuser_generators.so" 2>"$tmp/cxx-err"; then
    pass "halide-flags builds a generator library"
    run generators --generator-lib "$tmp/libuser_generators.so"
    listed=$(tr '\n' ' ' <"$tmp/out")
    if [ "$rc" -eq 0 ] && [ "$listed" = "test_blur test_no_estimates test_throws " ]; then
        pass "generators lists the library built with halide-flags"
    else
        fail "generators lists the library built with halide-flags" "exit $rc, got: $listed" \
            "$(cat "$tmp/err")"
    fi
else
    fail "halide-flags builds a generator library" "$cxx $compileFlags ... $linkFlags" \
        "$(head -c 2000 "$tmp/cxx-err")"
fi

# export writes the schedule as Halide C++; paper 4.7's register staging (Func::in) is on by
# default and --no-staging turns it off.
# Pinned to the analytic model: the staging, not the ranking, is under test. Pins give the result
# a constant, unrolled thread tile to stage into (stage_2's 2x1 points per thread, stage_1 in its
# blocks), whatever the model ranks first (unpinned, which beam has one moved with every change
# of the analytic model).
cat >"$tmp/staging-pins.json" <<'JSON'
{"pins": [{"func": "stage_2", "location": "root", "threads": [16, 8], "serial": [2, 1]},
          {"func": "stage_1", "location": "block", "host": "stage_2"}]}
JSON
exportArgs=(export stencil_chain -p length=4 -p width=256 -p height=256 --beam 4 --passes 2 --gpu v100
    --cost-model analytic --pins "$tmp/staging-pins.json")
run "${exportArgs[@]}" --out "$tmp/staged.h"
stagedRc=$rc
run "${exportArgs[@]}" --no-staging --out "$tmp/unstaged.h"
if [ "$stagedRc" -eq 0 ] && [ "$rc" -eq 0 ] && grep -q '\.in(' "$tmp/staged.h" &&
    grep -q 'MemoryType::Register' "$tmp/staged.h" && ! grep -q '\.in(' "$tmp/unstaged.h"; then
    pass "export stages producers in registers unless --no-staging"
else
    fail "export stages producers in registers unless --no-staging" "exit $stagedRc/$rc" \
        "$(cat "$tmp/err")"
fi

# export --lang ptx / stmt: what Halide makes of a schedule. A schedule taken from `search --json`
# (--schedule) gives the very PTX the search's own export does, one CUDA kernel per stage of a
# root Func (an update definition is a kernel of its own);
# on pocl-cpu the lowered statement holds OpenCL kernels; the errors are one line.
mmArgs=(matmul -p m=64 -p n=64 -p k=64 --beam 2 --passes 1 --gpu h100)
run search "${mmArgs[@]}" --json
cp "$tmp/out" "$tmp/mm-search.json"
roots=$(python3 -c 'import json,sys; print(sum(max(1, len(f["stage_tiles"])) for f in json.load(open(sys.argv[1]))["funcs"] if f["decision"] == "root"))' "$tmp/mm-search.json")
run export "${mmArgs[@]}" --lang ptx --out "$tmp/searched.ptx"
searchedRc=$rc
run export "${mmArgs[@]}" --lang ptx --schedule "$tmp/mm-search.json" --out "$tmp/given.ptx"
if [ "$searchedRc" -eq 0 ] && [ "$rc" -eq 0 ] && cmp -s "$tmp/searched.ptx" "$tmp/given.ptx" &&
    [ "$(grep -c '^\.visible \.entry _kernel_' "$tmp/given.ptx")" -eq "$roots" ] &&
    grep -q 'fma.rn.f32' "$tmp/given.ptx"; then
    pass "export --lang ptx --schedule writes the PTX of the given schedule, a kernel per root stage"
else
    fail "export --lang ptx --schedule" "exit $searchedRc/$rc, root stages $roots" "$(cat "$tmp/err")"
fi
# With ptxas installed (the CUDA toolkit), each kernel's registers and spills follow, one line each.
resourceLines=$(grep -cE '^  _kernel_[A-Za-z0-9_]+: [0-9]+ registers, [0-9]+ bytes spilled \(ptxas sm_90\)$' "$tmp/out")
if { [ -x /usr/local/cuda/bin/ptxas ] && [ "$resourceLines" -eq "$roots" ]; } ||
    { [ ! -x /usr/local/cuda/bin/ptxas ] && [ "$resourceLines" -eq 0 ]; }; then
    pass "export --lang ptx reports each kernel's registers and spills when ptxas is there"
else
    fail "export --lang ptx: a ptxas line per kernel" "$resourceLines lines for $roots kernels" "$(cat "$tmp/out")"
fi
run export matmul -p m=64 -p n=64 -p k=64 --beam 2 --passes 1 --gpu pocl-cpu --lang stmt --out "$tmp/mm.stmt"
if [ "$rc" -eq 0 ] && grep -aq '__kernel void _kernel_output' "$tmp/mm.stmt" &&
    [ ! -e "$tmp/mm.stmt.lowering" ]; then
    pass "export --lang stmt writes Halide's lowered statement with its OpenCL kernels"
else
    fail "export --lang stmt" "exit $rc" "$(cat "$tmp/err")"
fi
expectError "export --lang ptx on a preset without CUDA" 2 export matmul --gpu pocl-cpu --lang ptx --out "$tmp/x.ptx"
# A bench report's candidate of before the forty-ninth session (no max_unrolled_points: its
# tiles of 16 points ran rolled) is lowered as it ran, and the export says so.
python3 -c 'import json, sys; print(json.dumps({"label": "beam 1", "measured_ms": 1.0, "schedule": json.load(open(sys.argv[1]))}))' \
    "$tmp/mm-search.json" >"$tmp/mm-legacy.json"
run export "${mmArgs[@]}" --schedule "$tmp/mm-legacy.json" --out "$tmp/legacy.h"
if [ "$rc" -eq 0 ] && [ -s "$tmp/legacy.h" ] &&
    grep -q '^export: lowered as measured, unrolling at most 15 points per thread (this build: 16)$' "$tmp/err"; then
    pass "export --schedule of a legacy bench candidate lowers it with the unroll limit it ran with"
else
    fail "export --schedule of a legacy bench candidate" "exit $rc" "$(cat "$tmp/err")"
fi
expectError "export --max-unrolled-points without --schedule" 2 export "${mmArgs[@]}" --max-unrolled-points 15 --out "$tmp/x.h"
expectError "export --schedule of a missing file" 1 export matmul --gpu h100 --schedule "$tmp/none.json" --out "$tmp/x.h"
echo '[{"name": "nope", "decision": "root", "consumer": null, "stages": []}]' >"$tmp/alien.json"
expectError "export --schedule of another pipeline's schedule" 1 export matmul --gpu h100 --schedule "$tmp/alien.json" --out "$tmp/x.h"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

# --- cost models (issue 10): --cost-model polymage names its 7 terms; a missing model file or an
# unknown name is one line.
run search stencil_chain -p length=4 --cost-model polymage --json
if [ "$rc" -eq 0 ] && grep -q '"cost_model": "polymage-gpu"' "$tmp/out" &&
    [ "$(grep -cE '"(gl_transactions|occupancy_loss|mem_compute_ratio|unallocated_shared|unused_registers|overlap|tail_blocks)":' "$tmp/out")" -eq 7 ]; then
    pass "search --cost-model polymage reports PolyMage's 7 terms"
else
    fail "search --cost-model polymage reports PolyMage's 7 terms" "exit $rc" "$(head -c 2000 "$tmp/err")"
fi
expectError "search --cost-model with a missing file" 1 search stencil_chain -p length=4 --cost-model /nonexistent
expectError "search --cost-model with an unknown name" 2 search stencil_chain -p length=4 --cost-model bogus

# --- the pretrained model (issue 31): the default on NVIDIA presets and named in --json; the
# analytic model on pocl-cpu; a corrupt file falls back to analytic with one stderr line.
run search stencil_chain -p length=4 --beam 4 --passes 1 --gpu h100 --json
if [ "$rc" -eq 0 ] && grep -q '"cost_model": "pretrained"' "$tmp/out"; then
    pass "search --gpu h100 ranks with the pretrained model and says so"
else
    fail "search --gpu h100 ranks with the pretrained model" "exit $rc" "$(head -c 2000 "$tmp/err")"
fi
run search stencil_chain -p length=4 --beam 4 --passes 1 --gpu pocl-cpu --json
if [ "$rc" -eq 0 ] && grep -q '"cost_model": "analytical-gpu"' "$tmp/out"; then
    pass "search --gpu pocl-cpu ranks with the analytic model"
else
    fail "search --gpu pocl-cpu ranks with the analytic model" "exit $rc" "$(head -c 2000 "$tmp/err")"
fi
printf '{"format": "beamscope-cost-model", "version": 1, "feature_sch' >"$tmp/corrupt.json"
export BEAMSCOPE_PRETRAINED_MODEL="$tmp/corrupt.json"
run search stencil_chain -p length=4 --beam 4 --passes 1 --gpu h100 --json
unset BEAMSCOPE_PRETRAINED_MODEL
if [ "$rc" -eq 0 ] && grep -q '"cost_model": "analytical-gpu"' "$tmp/out" &&
    [ "$(grep -c '' "$tmp/err")" -eq 1 ] && grep -q pretrained "$tmp/err"; then
    pass "a corrupt pretrained model falls back to analytic with one line ($(cat "$tmp/err"))"
else
    fail "a corrupt pretrained model falls back to analytic with one line" "exit $rc" \
        "$(head -c 2000 "$tmp/err")"
fi

echo "$passed passed, $failed failed (with the cost-model checks)"
[ "$failed" -eq 0 ]

# --- why not? (issue 15): the done-when command prints a verdict with its step and pass; a
# search trace's first line carries the search (what the GUI replays); bad input is one line.
run why stencil_chain -p length=4 --func stage_1 --location inline --json
if [ "$rc" -eq 0 ] && python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] in ("not_reached", "pruned", "not_sampled", "cut", "chosen"), j["verdict"]
assert isinstance(j["step"], int) and j["step"] >= 0 and isinstance(j["pass"], int)
assert j["detail"] and "terms_delta" in j and "cutoff_ms" in j and "cost_ms" in j
# One answer per pass, in order: from the pre-pass (0) where the search freezes, else from pass 1
# (this chain of 8 Funcs is below the default threshold of 10).
ps = [p["pass"] for p in j["passes"]]
assert ps == list(range(1, len(ps) + 1)), ps
' "$tmp/out" 2>"$tmp/err"; then
    pass "why stencil_chain --func stage_1 --location inline: $(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["verdict"], "at step", j["step"], "pass", j["pass"])' "$tmp/out")"
else
    fail "why stencil_chain --func stage_1 --location inline --json" "exit $rc" "$(head -c 2000 "$tmp/err")"
fi
# Freezing applies from 10 Funcs by default; --freeze-min-funcs 0 freezes as the paper does;
# the JSON and the text say which, and why not.
run search stencil_chain -p length=4 --beam 2 --passes 2 --json
offJson=$(cat "$tmp/out")
run search stencil_chain -p length=4 --beam 2 --passes 2 --freeze-min-funcs 0 --json
onJson=$(cat "$tmp/out")
run search stencil_chain -p length=4 --beam 2 --passes 2
if python3 -c '
import json, sys
off, on = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert off["freezing"] == "off: 8 searched Funcs, fewer than 10" and off["frozen"] == [] and off["freeze_ranking"] == [], off["freezing"]
# 8 Funcs, ceil(log2 8) = 3 left under search: 5 frozen.
assert on["freezing"] == "on" and len(on["frozen"]) == 5 and len(on["freeze_ranking"]) == 8, on["freezing"]
' "$offJson" "$onJson" && grep -q 'frozen 0 (freezing off: 8 searched Funcs, fewer than 10)' "$tmp/out"; then
    pass "search: freezing from 10 Funcs by default, on every pipeline with --freeze-min-funcs 0"
else
    fail "search: freezing from 10 Funcs by default, on every pipeline with --freeze-min-funcs 0" "$(grep -m1 frozen "$tmp/out")"
fi
expectError "search --freeze-min-funcs negative" 2 search matmul --freeze-min-funcs -1
expectError "why with an unknown Func" 1 why stencil_chain -p length=4 --func nope --location root
expectError "why with a bad location" 2 why stencil_chain -p length=4 --func stage_1 --location nowhere
expectError "why inline on an output" 1 why stencil_chain -p length=4 --func output --location inline
run search stencil_chain -p length=2 --beam 2 --passes 2 --trace "$tmp/trace.jsonl"
if [ "$rc" -eq 0 ] && head -n 1 "$tmp/trace.jsonl" | python3 -c '
import json, sys
s = json.loads(sys.stdin.readline())["search"]
assert s["app"] == "stencil_chain" and s["params"] == ["length=2"] and s["beam"] == 2, s
' && [ "$(tail -n +2 "$tmp/trace.jsonl" | grep -c '"search"')" -eq 0 ]; then
    pass "search --trace: the first line carries the search"
else
    fail "search --trace: the first line carries the search" "exit $rc" "$(head -c 2000 "$tmp/err")"
fi

# ablate --quick: per app the states evaluated all on and all off, their ratio (Table 1's
# column) beside the paper's, and the geomean line; the ratio recomputed from the counts.
run ablate matmul conv_layer --quick
if [ "$rc" -eq 0 ] && python3 - "$tmp/out" <<'PYEOF'
import math, sys
lines = open(sys.argv[1]).read().splitlines()
rows = {l.split()[0]: l.split() for l in lines if l.split() and l.split()[0] in ("matmul", "conv_layer")}
assert set(rows) == {"matmul", "conv_layer"}, lines
paper = {"matmul": 18.38, "conv_layer": 1.29}
ratios = []
for app, cells in rows.items():
    on, off = int(cells[1]), int(cells[3])
    assert 0 < on < off, cells
    ratio = 100.0 * on / off
    assert cells[5] == f"{ratio:.2f}%", (cells, ratio)
    assert cells[6] == f"{paper[app]:.2f}%", cells
    ratios.append(ratio)
geo = math.exp(sum(map(math.log, ratios)) / 2)
want = f"{geo:.2f}% of both off, geomean over 2 apps"
assert any(want in l for l in lines), (want, lines[-1])
assert f"{math.sqrt(18.38 * 1.29):.2f}%" in lines[-1], lines[-1]
PYEOF
then
    pass "ablate --quick: the on/off fraction per app, the paper's beside it, the geomean"
else
    fail "ablate --quick" "exit $rc" "$(head -c 2000 "$tmp/out")" "$(head -c 2000 "$tmp/err")"
fi

echo "$passed passed, $failed failed (with the why checks)"
[ "$failed" -eq 0 ]
