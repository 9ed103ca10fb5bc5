#!/usr/bin/env bash
# GUI latency (docs/performance.md "GUI latency"): the main window's largest event-loop gap while
# a long search runs, and the time a big step takes to reach the screen, from
# beamscope-gui-latency (benchmarks/gui/GuiLatency.cpp), offscreen. HOGS busy loops run beside it
# (0: an otherwise idle machine; 1 on a 2-core machine: what a loaded CI machine looks like).
#   benchmarks/gui_latency.sh [BUILD=build/ci] [RUNS=3] [HOGS="0 1"] [APP=local_laplacian] [BEAM=32]
# What fills the largest gap: BUILD/benchmarks/beamscope-gui-latency APP BEAM RUNS --why
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$here/build/ci}"
runs="${2:-3}"
read -r -a hog_counts <<<"${3:-0 1}"
app="${APP:-local_laplacian}"
beam="${BEAM:-32}"
bin="$build/benchmarks/beamscope-gui-latency"
[ -x "$bin" ] || { echo "gui_latency.sh: $bin not built (cmake --build --preset ci)" >&2; exit 1; }
export QT_QPA_PLATFORM=offscreen
hogs=()
stop_hogs() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true; hogs=(); }
trap stop_hogs EXIT
echo "# $(date -u +%F) $(nproc) cores, $(git -C "$here" rev-parse --short HEAD 2>/dev/null)"
for n in "${hog_counts[@]}"; do
    for _ in $(seq "$n"); do
        (while :; do :; done) &
        hogs+=($!)
    done
    echo "## $n CPU hog(s) beside it; load before: $(cut -d' ' -f1 /proc/loadavg)"
    "$bin" "$app" "$beam" "$runs" 2>/dev/null
    stop_hogs
done
