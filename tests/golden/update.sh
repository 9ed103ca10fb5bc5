#!/usr/bin/env bash
# Regenerates the golden files of tests/golden/ from the current printers and item models,
# deliberately: run it after a change that is meant to alter the printed loop nest, the DAG dump
# or what a dock's model shows, then read `git diff tests/golden/` and commit the files with the
# change.
#   tests/golden/update.sh [BUILD_DIR]     (default build/ci; the tests must be built)
set -euo pipefail
build=${1:-build/ci}
export BEAMSCOPE_UPDATE_GOLDEN=1
"$build/tests/beamscope-core-tests" --gtest_filter='GoldenPrinters.*'
# The item models' dumps (built with the GUI only).
if [[ -x "$build/tests/views-golden" ]]; then
    QT_QPA_PLATFORM=offscreen "$build/tests/views-golden"
else
    echo "update.sh: $build/tests/views-golden is not built: model_*.txt left as they are" >&2
fi
git -C "$(dirname "$0")" status --short .
