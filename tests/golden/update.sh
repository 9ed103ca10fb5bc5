#!/usr/bin/env bash
# Regenerates the golden files of tests/golden/ from the current printers, deliberately: run it
# after a change that is meant to alter the printed loop nest or the DAG dump, then read
# `git diff tests/golden/` and commit the files with the change.
#   tests/golden/update.sh [BUILD_DIR]     (default build/ci; the tests must be built)
set -euo pipefail
build=${1:-build/ci}
export BEAMSCOPE_UPDATE_GOLDEN=1
"$build/tests/beamscope-core-tests" --gtest_filter='GoldenPrinters.*'
git -C "$(dirname "$0")" status --short .
