#!/bin/bash
# Search time of two builds run alternately per app, so that a machine whose speed drifts
# affects both alike: OLD NEW OLD NEW, each run 3 repetitions of SearchBench's benchmark.
# Prints "app build median_cpu_ms" lines; take the smaller of each build's two medians.
#   benchmarks/search_side_by_side.sh OLD_BENCH NEW_BENCH BeamSearch|GreedySearch APP...
set -euo pipefail
if [ $# -lt 4 ]; then
    echo "usage: $0 OLD_BENCH NEW_BENCH BeamSearch|GreedySearch APP..." >&2
    exit 2
fi
old=$1 new=$2 kind=$3
shift 3
for app in "$@"; do
    for build in old new old new; do
        bin=$old
        [ "$build" = new ] && bin=$new
        ms=$("$bin" --benchmark_filter="^$kind/$app\$" --benchmark_repetitions=3 \
            --benchmark_report_aggregates_only=true 2>/dev/null | awk '/_median/ {print $4}')
        echo "$app $build ${ms:-failed}"
    done
done
