#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a running Beamscope or a passing test suite.
#   packaging/bootstrap.sh run   install, build (release) what it runs, start Beamscope on the
#                                stencil chain (no display: the headless search with the CLI)
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
    # Builds only what it runs: the GUI (and the worker its Benchmark dock measures in) when
    # there is a display, else the CLI; never the tests.
    "$cmake" --preset release >/dev/null
    gui="$root/build/release/app/gui/beamscope"
    cli="$root/build/release/app/cli/beamscope-cli"
    # app/gui is configured only when Qt 6 and Graphviz were found.
    if { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; } && [ -d "$root/build/release/app/gui" ]; then
      "$cmake" --build --preset release -j "$jobs" --target beamscope beamscope-worker
      exec "$gui" --app stencil_chain
    fi
    # No display (or no GUI): the headless equivalent on the stencil chain, ending with the
    # search's best schedule.
    "$cmake" --build --preset release -j "$jobs" --target beamscope-cli
    echo "== beamscope-cli dag stencil_chain (first lines)"
    # Not `dag | head`: under pipefail head's early exit would SIGPIPE the CLI and stop the script.
    dag_text="$("$cli" dag stencil_chain)"
    head -n 12 <<<"$dag_text"
    echo "== beamscope-cli search stencil_chain --format text"
    exec "$cli" search stencil_chain --format text
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
