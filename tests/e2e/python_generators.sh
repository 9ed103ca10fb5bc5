#!/usr/bin/env bash
# Pipelines users bring in their own code, through the CLI as a user would:
#  - the Python generators of tests/data/python (--generator-py): dag, search, export as Python,
#    and bench on the OpenCL device (top 1 of a small beam + greedy samples + the naive
#    baseline, every row correct); a syntax error, an exception and a wrong name are one line;
#  - a .hlpipe file (--pipeline-file) written from one of them;
#  - a crashed candidate of a Python pipeline triaged on the host;
#  - C++ generators that abort, segfault or hang in generate(): one line each, exit 1 (never a
#    signal's 134 or 139), the hang stopped at --build-timeout.
# FAILS (never skips) without an OpenCL device (PoCL is part of the test machine's set-up). The
# round trip of the exported Python schedules (lowered identically) is PythonGeneratorTest's.
# Usage: python_generators.sh BEAMSCOPE_CLI CRASHING_GENERATOR_LIB
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BEAMSCOPE_CLI CRASHING_GENERATOR_LIB" >&2
    exit 2
fi
cli=$1
crashing=$2
data="$(cd "$(dirname "$0")/../data/python" && pwd)"
tmp=$(mktemp -d)
# The user's measurement database is neither read nor written: every row is measured here.
export XDG_DATA_HOME="$tmp/xdg"
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/common.sh"

require_opencl

declare -A files=([py_blur]=blur.py [py_gradients]=gradients.py [py_histogram]=histogram.py
                  [py_pyramid]=pyramid.py)
declare -A outputs=([py_blur]="output" [py_gradients]="magnitude edges" [py_histogram]="output"
                    [py_pyramid]="output")

start=$(date +%s)
for gen in py_blur py_gradients py_histogram py_pyramid; do
    set -- --generator-py "$data/${files[$gen]}"
    if "$cli" dag "$gen" "$@" >"$tmp/dag" 2>"$tmp/err"; then
        for out in ${outputs[$gen]}; do
            grep -q "$out" "$tmp/dag" || fail "$gen: dag does not show output $out"
        done
    else
        fail "$gen: dag failed: $(head -c 300 "$tmp/err")"
    fi
    "$cli" search "$gen" "$@" --beam 2 --passes 1 >"$tmp/search" 2>"$tmp/err" ||
        fail "$gen: search failed: $(head -c 300 "$tmp/err")"
    if "$cli" export "$gen" "$@" --beam 2 --passes 1 --lang python --out "$tmp/$gen.py" \
        >/dev/null 2>"$tmp/err"; then
        grep -q "^def apply_${gen}_schedule(pipeline):" "$tmp/$gen.py" ||
            fail "$gen: exported module lacks its function"
        python3 -m py_compile "$tmp/$gen.py" 2>"$tmp/err" ||
            fail "$gen: exported module is not Python: $(head -c 300 "$tmp/err")"
    else
        fail "$gen: export failed: $(head -c 300 "$tmp/err")"
    fi
    json=$("$cli" bench "$gen" "$@" --device opencl --mode topk --top 1 --beam 2 --passes 1 \
        --repeats 1 --warmup 0 --baseline naive --json -q --no-db 2>"$tmp/err")
    rc=$?
    verdict=$(python3 - "$json" <<'PY'
import json, sys
try:
    report = json.loads(sys.argv[1])
except ValueError:
    print("no JSON report"); sys.exit(0)
rows = report.get("candidates", []) + report.get("baselines", [])
bad = [f'{r["label"]}: {r["failure"]}' for r in rows if not r.get("correct")]
beam = [r for r in rows if r["label"] == "result" or r["label"].startswith("beam")]
if bad:
    print("; ".join(bad))
elif len(beam) < 1 or not any(r["label"] == "baseline:naive" for r in rows):
    print("missing rows: " + ", ".join(r["label"] for r in rows))
else:
    print("ok %d rows" % len(rows))
PY
)
    if [ $rc -eq 0 ] && [[ $verdict == ok* ]]; then
        echo "PASS: $gen dag, search, export --lang python, bench ($verdict)"
    else
        fail "$gen: bench (exit $rc): $verdict $(head -c 300 "$tmp/err")"
    fi
done
echo "(generators took $(( $(date +%s) - start )) s)"

# A candidate of a Python pipeline whose device run crashes is triaged on this host: a wrapper
# kills the result's worker run by SIGSEGV; the triage and the kernel build alone run the real worker.
worker=$(dirname "$cli")/../worker/beamscope-worker
cat >"$tmp/crash-worker.sh" <<SCRIPT
#!/bin/sh
case "\$1" in --*) exec "$worker" "\$@" ;; esac
grep -q '"label":"result"' "\$1" && kill -SEGV \$\$
exec "$worker" "\$@"
SCRIPT
chmod +x "$tmp/crash-worker.sh"
"$cli" bench py_blur --generator-py "$data/blur.py" --device opencl --mode topk --top 1 --beam 2 \
    --passes 1 --repeats 1 --warmup 0 --worker "$tmp/crash-worker.sh" --no-db >"$tmp/triage" \
    2>"$tmp/err" || fail "py_blur with a crashing worker: $(tail -n 3 "$tmp/err")"
# The table names the search's result "result", as the GUI's Benchmark dock does.
grep -q "result .*crash: signal 11 (Segmentation fault); triage: device toolchain crashed (correct on the host with bounds checks" \
    "$tmp/triage" || fail "py_blur: no triaged crash: $(grep -i crash "$tmp/triage")"
grep -q "greedy #1 .* true " "$tmp/triage" || fail "py_blur: greedy #1 not correct beside the crash"
echo "PASS: py_blur's crashed candidate triaged on the host ($(grep -o "triage: [a-z ]*[a-z]" "$tmp/triage"))"

# -p and --input reach the Python generator.
"$cli" dag py_blur --generator-py "$data/blur.py" -p radius=2 --input strength=0.5 >"$tmp/dag" \
    2>"$tmp/err" || fail "py_blur -p radius=2: $(head -c 300 "$tmp/err")"
expect_error 2 "is not a float32 value" dag py_blur --generator-py "$data/blur.py" --input strength=x
expect_error 1 "HalideError: Generator py_blur has no GeneratorParam(s) named: ['radiu']" \
    dag py_blur --generator-py "$data/blur.py" -p radiu=2

# The user's mistakes: one line naming file and line, or the generators the file has.
expect_error 1 "$data/broken/syntax_error.py:9: SyntaxError: expected ':'" \
    dag py_broken --generator-py "$data/broken/syntax_error.py"
expect_error 1 "$data/broken/raises.py:12: AttributeError: 'PyRaises' object has no attribute 'inptu'" \
    search py_raises --generator-py "$data/broken/raises.py"
expect_error 2 "has no generator 'blur' (available: py_blur)" dag blur --generator-py "$data/blur.py"
expect_error 2 "give one of --generator-lib, --generator-py and --pipeline-file" \
    dag py_blur --generator-py "$data/blur.py" --pipeline-file "$tmp/x.hlpipe"

# C++ generators that crash or hang: one line, exit 1, and the hang stopped at the limit.
expect_error 1 "generator 'crash_abort' in '$crashing' crashed while building: signal 6 (Aborted)" \
    search crash_abort --generator-lib "$crashing"
expect_error 1 "crashed while building: signal 11 (Segmentation fault)" \
    dag crash_segfault --generator-lib "$crashing"
expect_error 1 "generator 'crash_hang' in '$crashing' did not finish building within 2 s" \
    search crash_hang --generator-lib "$crashing" --build-timeout 2
"$cli" dag crash_free --generator-lib "$crashing" >/dev/null 2>"$tmp/err" ||
    fail "crash_free: $(head -c 300 "$tmp/err")"

finish "python generators e2e"
