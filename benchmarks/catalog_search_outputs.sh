#!/usr/bin/env bash
# Saves `beamscope-cli search APP --json --trace OUT/APP.jsonl` (default beam and seed) for every
# catalog app, so that a refactoring can be checked for "same results, byte-identical traces":
#   benchmarks/catalog_search_outputs.sh CLI OUTDIR             # before the change
#   benchmarks/catalog_search_outputs.sh CLI OUTDIR2            # after it
#   benchmarks/catalog_search_outputs.sh --compare OUTDIR OUTDIR2
# --compare: the traces must be byte-identical; the JSON reports must be equal once the timing
# fields (search_ms and any other key ending in _ms under "stats") are removed. Exit 1 on any
# difference, naming the app and showing the first differing lines.
set -euo pipefail
if [[ "${1:-}" == "--compare" ]]; then
    before=$2 after=$3 bad=0
    for f in "$before"/*.json; do
        app=$(basename "$f" .json)
        if ! cmp -s "$before/$app.jsonl" "$after/$app.jsonl"; then
            echo "$app: traces differ"; diff <(head -c 2000000 "$before/$app.jsonl") \
                <(head -c 2000000 "$after/$app.jsonl") | head -5; bad=1
        fi
        strip='del(.stats.search_ms) | (.stats // {}) |= with_entries(select(.key | endswith("_ms") | not))'
        if ! diff <(jq -S "$strip" "$f") <(jq -S "$strip" "$after/$app.json") >/dev/null; then
            echo "$app: reports differ"; diff <(jq -S "$strip" "$f") <(jq -S "$strip" "$after/$app.json") | head -10; bad=1
        fi
    done
    n=$(ls "$before"/*.json | wc -l)
    [[ $bad == 0 ]] && echo "same: $n apps, traces byte-identical, reports equal but for timings"
    exit $bad
fi
cli=$1 out=$2
mkdir -p "$out"
for app in $("$cli" apps | awk '{print $1}'); do
    "$cli" search "$app" --trace "$out/$app.jsonl" --json > "$out/$app.json"
    echo "$app: $(wc -l < "$out/$app.jsonl") trace lines"
done
