#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a running Beamscope or a passing test suite.
#   packaging/bootstrap.sh run   install, build (release), start Beamscope on the stencil chain
#   packaging/bootstrap.sh test  install, build (ci preset), run the whole test suite
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode="${1:-run}"
jobs="$(nproc 2>/dev/null || echo 2)"

"$root/packaging/install-deps.sh"
cmake="$root/.venv/bin/cmake"
ctest="$root/.venv/bin/ctest"
export PATH="$root/.venv/bin:$PATH" # ninja from the venv when Debian's is absent

case "$mode" in
  run)
    "$cmake" --preset release >/dev/null
    "$cmake" --build --preset release -j "$jobs"
    gui="$root/build/release/app/gui/beamscope"
    if [ -x "$gui" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
      exec "$gui" --app stencil_chain
    fi
    # No GUI (or no display): the headless equivalent on the stencil chain.
    cli="$root/build/release/app/cli/beamscope-cli"
    echo "== beamscope-cli dag stencil_chain (first lines)"
    "$cli" dag stencil_chain | head -n 12
    # Not `--help | grep -q`: under pipefail grep's early exit SIGPIPEs the CLI and fails the test.
    help_text="$("$cli" --help 2>/dev/null || true)"
    if grep -q '^  search' <<<"$help_text"; then
      echo "== beamscope-cli search stencil_chain --format text"
      exec "$cli" search stencil_chain --format text
    fi
    ;;
  test)
    "$cmake" --preset ci >/dev/null
    "$cmake" --build --preset ci -j "$jobs"
    exec "$ctest" --preset ci
    ;;
  *)
    echo "usage: packaging/bootstrap.sh run|test" >&2
    exit 2
    ;;
esac
