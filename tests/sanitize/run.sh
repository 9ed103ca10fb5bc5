#!/usr/bin/env bash
# Sanitizer runs of the test suites, each in a build directory of its own (never the shared
# build/ci), at nice 19 so that other builds on the machine go first.
#   tests/sanitize/run.sh asan [CTEST_REGEX]   ASan + UBSan (preset dev-asan, build/asan): the core
#                                             GoogleTest suite (through ctest: one process per
#                                             test, as in CI) and every Qt test executable
#   tests/sanitize/run.sh tsan                ThreadSanitizer (build/tsan): the threaded core tests
#                                             and the controller tests (SearchController, step
#                                             history, BenchmarkController, TuneController,
#                                             JobTracker)
#   tests/sanitize/run.sh ci                  ASan + UBSan on the parser, store and search core
#                                             tests only (docs/reliability.md: what runs where)
# Environment: JOBS (default 1) parallel compile jobs; BUILD_ONLY=1 builds without running.
# Fails on the first sanitizer report (UBSan halts too) or failing test; the report is in the
# log it names. Suppressions, each with its reason: tests/sanitize/*.supp.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mode="${1:?usage: run.sh asan|tsan|ci [CTEST_REGEX]}"
regex="${2:-.}"
jobs="${JOBS:-1}"
export PATH="$root/.venv/bin:$PATH"
cmake="$root/.venv/bin/cmake"; [ -x "$cmake" ] || cmake=cmake

# Halide and the OpenCL driver keep caches for the life of the process: leaks there are not ours.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:detect_odr_violation=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$here/ubsan.supp"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$here/tsan.supp"
export QT_QPA_PLATFORM=offscreen

# Every Qt test but app-screenshot (it runs the GUI executable, not test code).
qt_asan=(views-models views-dag views-pin-menu views-code views-benchmark views-tune views-runner
         views-history-compare app-search-controller app-session app-step-history
         app-benchmark-controller app-tune-controller app-slurm-controller app-job-tracker
         app-window-layout app-pipeline-panel app-gui-settings app-gpu-choice app-explain
         app-main-window)
qt_tsan=(app-search-controller app-step-history app-benchmark-controller app-tune-controller
         app-job-tracker)
# The core tests whose code runs threads of its own (std::thread: the local runner's device
# workers, parallel compilation, the Slurm runner's poller, cancellation from another thread).
tsan_core='^(LocalRunner|BenchCancel|BenchCompiler|BenchWorker|SearchEngine\.ACancelled)'
# The ci subset: parsers (GPU spec, bench job, schedule JSON, pins, estimates, sessions), the
# measurement store and the search; no Halide JIT or device run (those take minutes under ASan).
ci_filter='GpuSpec*:Estimates*:ScalarInputs*:MeasurementStore.*:MeasurementStoreFile.*:MeasurementStoreProcess.*:SearchSpace*:SearchEngine*:SearchPasses*:StructuralHash*:Sampler*:RankMetrics*:BenchData*:TrainingData*'

configure() { # DIR, extra cmake arguments...
    local dir="$1"; shift
    [ -f "$root/$dir/build.ninja" ] && return 0
    nice -n 19 "$cmake" -S "$root" -B "$root/$dir" -G Ninja "$@" >"$root/$dir.configure.log" 2>&1 \
        || { tail -20 "$root/$dir.configure.log"; echo "FAIL: configuring $dir"; exit 1; }
}

build() { # DIR TARGET...
    local dir="$1"; shift
    echo "== building $* in $dir (nice 19, -j$jobs)"
    nice -n 19 "$cmake" --build "$root/$dir" -j "$jobs" --target "$@" >"$root/$dir.build.log" 2>&1 \
        || { grep -m5 -E "error|FAILED" "$root/$dir.build.log"; echo "FAIL: building in $dir (log: $dir.build.log)"; exit 1; }
}

failed=0
run() { # NAME COMMAND...
    local name="$1"; shift
    local log="$root/build/sanitize-$name.log"
    local start=$SECONDS
    if nice -n 19 "$@" >"$log" 2>&1; then
        echo "PASS: $name ($((SECONDS - start)) s)"
    else
        grep -m5 -E "ERROR: (Address|Thread)Sanitizer|runtime error|WARNING: ThreadSanitizer|FAIL!|\[  FAILED  \]|\*\*\*(Failed|Exception|Timeout)" "$log"
        echo "FAIL: $name ($((SECONDS - start)) s, log: ${log#$root/})"
        failed=$((failed + 1))
    fi
}

case "$mode" in
  asan|ci)
    configure build/asan --preset dev-asan
    if [ "$mode" = ci ]; then
        build build/asan beamscope-core-tests
        [ "${BUILD_ONLY:-0}" = 1 ] && exit 0
        run core-parsers-store-search "$root/build/asan/tests/beamscope-core-tests" --gtest_filter="$ci_filter"
    else
        build build/asan beamscope-core-tests beamscope-worker beamscope-aot-runner beamscope-cli \
            "${qt_asan[@]}"
        [ "${BUILD_ONLY:-0}" = 1 ] && exit 0
        # One process per test, as CI runs them: some set their environment before the OpenCL
        # driver starts (LocalRunner's two PoCL devices). The e2e scripts, the Qt tests (below)
        # and the fuzz/sanitize entries are not core tests.
        run core-tests ctest --test-dir "$root/build/asan" -R "$regex" \
            -E '^(qt|e2e|fuzz|sanitize)\.' -j "$jobs" --output-on-failure
        for t in "${qt_asan[@]}"; do run "$t" "$root/build/asan/tests/$t"; done
    fi
    ;;
  tsan)
    configure build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
        -DCMAKE_C_FLAGS="-fsanitize=thread" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
        -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread"
    build build/tsan beamscope-worker beamscope-core-tests "${qt_tsan[@]}"
    # Qt's own event dispatcher rather than glib's: glib (not instrumented either) wakes its
    # loop through an eventfd that TSan reports as a race between the two threads.
    export QT_NO_GLIB=1
    [ "${BUILD_ONLY:-0}" = 1 ] && exit 0
    run tsan-core-threads ctest --test-dir "$root/build/tsan" -R "$tsan_core" -j "$jobs" \
        --output-on-failure
    for t in "${qt_tsan[@]}"; do run "tsan-$t" "$root/build/tsan/tests/$t"; done
    ;;
  *)
    echo "usage: run.sh asan|tsan|ci [CTEST_REGEX]" >&2; exit 2 ;;
esac
[ $failed -eq 0 ]
