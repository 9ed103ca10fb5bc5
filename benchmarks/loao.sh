#!/usr/bin/env bash
# The paper's one-shot evaluation (Fig. 8) offline, on a measurement database (docs/pretrained.md):
# for each app, a learned model trained on every OTHER app's rows ranks all of that app's
# measured schedules; Kendall's tau and one-shot regret (measured time of the schedule predicted
# fastest over the fastest measured) per app, mean tau and geomean regret, for the analytic,
# PolyMage, pretrained (shipped; it has seen these apps when trained on this database) and the
# leave-one-app-out models. The database is only read. Usage:
#   benchmarks/loao.sh CLI [DB] [OUT_DIR]
# DB defaults to the shared H100 data; OUT_DIR (default: a temporary directory) gets loao.txt and
# loao.json. LOAO_ARGS replaces the training options (default: those of the shipped model).
set -euo pipefail
cli=$1
db=${2:-/work/shared/data/h100-2026-11-26/measurements.sqlite}
out=${3:-$(mktemp -d)}
mkdir -p "$out"
# The training options of the shipped model (docs/pretrained.md), fixed before the run.
read -r -a extra <<<"${LOAO_ARGS:---objective pairwise --trees 60 --max-depth 3 --eta 0.1 --min-child-weight 5 --lambda 5}"
"$cli" models --db "$db" --leave-one-app-out --model pretrained "${extra[@]}" >"$out/loao.txt"
"$cli" models --db "$db" --leave-one-app-out --model pretrained "${extra[@]}" --json \
    >"$out/loao.json"
cat "$out/loao.txt"
echo "written: $out/loao.txt $out/loao.json" >&2
