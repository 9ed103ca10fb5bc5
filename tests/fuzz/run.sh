#!/usr/bin/env bash
# Builds the parser fuzz harnesses with clang against a main build's core library and runs each:
# first every file of its seed corpus and of regressions/ (inputs that once failed), then
# libFuzzer for SECONDS (default 10) from the seed corpus, or for runs=N inputs from seed 1. Fails on any crash, abort, sanitizer
# report or an exception other than beamscope::Error. New findings are written to $OUT/findings.
#   tests/fuzz/run.sh BUILD_DIR [SECONDS|runs=N] [HARNESS...]
# The ctest `fuzz.parsers` runs a fixed 20,000 inputs per harness (reproducible); docs/reliability.md shows a
# longer session.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:?usage: run.sh BUILD_DIR [SECONDS] [HARNESS...]}"
seconds="${2:-10}"
shift $(( $# >= 2 ? 2 : 1 ))
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(GpuSpec BenchJob SessionFile PinFile ScheduleJson OutputEstimate Params)
core="$build/core/libbeamscope_core.a"
[ -f "$core" ] || { echo "FAIL: $core not built"; exit 1; }
command -v clang++ >/dev/null || { echo "FAIL: clang++ missing (packaging/install-deps.sh installs it)"; exit 1; }
cmake="$root/.venv/bin/cmake"; [ -x "$cmake" ] || cmake=cmake
fuzzbuild="$build/fuzz"
# -O1 with line tables, as libFuzzer's documentation builds: sanitizer reports keep their lines.
CXX=clang++ "$cmake" -S "$here" -B "$fuzzbuild" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
    -DBEAMSCOPE_CORE_LIBRARY="$core" >"$fuzzbuild.configure.log" 2>&1 \
    || { cat "$fuzzbuild.configure.log"; echo "FAIL: configuring the fuzz build"; exit 1; }
"$cmake" --build "$fuzzbuild" -j "$(nproc)" >"$fuzzbuild.build.log" 2>&1 \
    || { tail -30 "$fuzzbuild.build.log"; echo "FAIL: building the fuzz harnesses"; exit 1; }
findings="${OUT:-$fuzzbuild}/findings"
mkdir -p "$findings"
# Halide keeps caches for the life of the process: leak reports there are not parser bugs.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=0
for h in "${harnesses[@]}"; do
    bin="$fuzzbuild/fuzz_$h"
    replay=("$here/corpus/$h")
    [ -d "$here/regressions/$h" ] && replay+=("$here/regressions/$h")
    if ! "$bin" -runs=0 "${replay[@]}" >"$findings/$h.replay.log" 2>&1; then
        tail -20 "$findings/$h.replay.log"; echo "FAIL: $h on its corpus"; failed=$((failed + 1)); continue
    fi
    work="$(mktemp -d)"
    cp "$here/corpus/$h"/* "$work/"
    # runs=N: a fixed number of inputs from a fixed seed, the same run every time (ctest); else
    # SECONDS of fuzzing from a random seed (longer sessions).
    if [[ $seconds == runs=* ]]; then budget=(-runs="${seconds#runs=}" -seed=1); else budget=(-max_total_time="$seconds"); fi
    if "$bin" "${budget[@]}" -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$findings/$h-" \
        "$work" >"$findings/$h.fuzz.log" 2>&1; then
        echo "PASS: $h ($(tail -1 "$findings/$h.fuzz.log" | sed 's/^Done //'), no finding)"
    else
        tail -25 "$findings/$h.fuzz.log"; echo "FAIL: $h (input saved in $findings)"; failed=$((failed + 1))
    fi
    rm -rf "$work"
done
[ $failed -eq 0 ]
