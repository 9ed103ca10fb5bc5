#!/usr/bin/env bash
# Builds the standalone Halide reproducers of this folder against the Halide wheel in .venv (the
# one Beamscope's CMake finds) into OUT (default /tmp/halide-repro) and runs them:
# partition_guard_repro (JIT run; exit 1 = the guard was dropped and f's allocation overrun) and
# partition_loops_ir (partition_loops on a hand-built loop nest). BUILD_ONLY=1 only builds.
# Not part of the build or the test suite.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
halide="$("$python" -c 'import halide, os; print(os.path.dirname(halide.__file__))')"
out="${OUT:-/tmp/halide-repro}"
mkdir -p "$out"
for name in partition_guard_repro partition_loops_ir; do
    c++ -std=c++17 -O1 -Wall -Wextra "$root/benchmarks/halide-repro/$name.cpp" \
        -isystem "$halide/include" -L"$halide/lib64" -lHalide -Wl,-rpath,"$halide/lib64" \
        -o "$out/$name"
done
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
status=0
"$out/partition_guard_repro" || status=$?
echo "partition_guard_repro: exit $status"
"$out/partition_loops_ir"
exit "$status"
