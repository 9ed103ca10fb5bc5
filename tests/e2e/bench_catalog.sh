#!/usr/bin/env bash
# Every catalog app, at a small size: 2 greedy samples and the top 2 of a small beam are
# compiled for OpenCL, run on the local device (PoCL here) out of process, and must match the
# CPU reference. Prints "N passed, M failed". FAILS (never skips) without an OpenCL device (PoCL
# is part of the test machine's set-up), and unless every one of the 16 catalog apps ran.
# Usage: [BENCH_CATALOG_ARGS="--gpu v100"] bench_catalog.sh BEAMSCOPE_CLI [APP...]
# BENCH_CATALOG_ARGS adds bench options; a CUDA GPU preset makes the search pick the serial tiles
# (and so the register staging of paper 4.7) it would pick for that GPU, still run on PoCL.
set -u
source "$(dirname "$0")/common.sh"
cli=$1; shift
require_opencl
# --no-db: every schedule is run here, never taken from an earlier run's measurements.
source "$(dirname "$0")/../data/catalog_small_sizes.sh"
apps=("$@")
if [ ${#apps[@]} -eq 0 ]; then
    mapfile -t apps < <("$cli" apps | awk '{print $1}')
    # The catalog is the paper's 16 apps; an empty or short list means `apps` is broken.
    if [ ${#apps[@]} -ne 16 ]; then
        echo "FAIL: \`apps\` listed ${#apps[@]} apps, expected the catalog's 16: ${apps[*]:-none}"
        exit 1
    fi
fi
for app in "${apps[@]}"; do
    if [ -z "${catalog_small_sizes[$app]:-}" ]; then
        echo "FAIL: no small size for $app in tests/data/catalog_small_sizes.sh (the default size takes minutes on PoCL)"
        exit 1
    fi
done
passed=0
failed=0
for app in "${apps[@]}"; do
    # shellcheck disable=SC2086
    # The report goes through a file: a large one (lens_blur's schedules) exceeds the 128 KiB
    # a single command-line argument may have.
    "$cli" bench "$app" ${catalog_small_sizes[$app]} --device opencl --mode topk --top 2 --beam 4 \
        --passes 1 --repeats 3 --warmup 1 --json -q --no-db ${BENCH_CATALOG_ARGS:-} \
        >/tmp/bench_catalog_report.$$ 2>/tmp/bench_catalog_err.$$
    rc=$?
    verdict=$(python3 - /tmp/bench_catalog_report.$$ <<'PY'
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except ValueError:
    print("no JSON report"); sys.exit(0)
rows = report.get("candidates", [])
bad = [f'{r["label"]}: {r["failure"]}' for r in rows if not r.get("correct")]
print("; ".join(bad) if bad else ("ok %d candidates" % len(rows) if rows else "no candidates"))
PY
)
    if [ $rc -eq 0 ] && [[ $verdict == ok* ]]; then
        passed=$((passed + 1)); echo "PASS: $app ($verdict)"
    else
        failed=$((failed + 1)); echo "FAIL: $app (exit $rc): $verdict $(head -c 300 /tmp/bench_catalog_err.$$)"
    fi
done
rm -f /tmp/bench_catalog_err.$$ /tmp/bench_catalog_report.$$
echo "$passed passed, $failed failed"
[ $failed -eq 0 ] && [ $passed -eq ${#apps[@]} ]
