#!/usr/bin/env bash
# The paper's one-shot evaluation (Fig. 8) offline, on a measurement database (docs/pretrained.md):
# for each app, a learned model trained on every OTHER app's rows ranks all of that app's
# measured schedules; Kendall's tau and one-shot regret (measured time of the schedule predicted
# fastest over the fastest measured) per app, mean tau and geomean regret, for the analytic,
# PolyMage, pretrained (shipped; it has seen these apps when trained on this database) and the
# leave-one-app-out models. Usage:
#   benchmarks/loao.sh CLI [DB] [OUT_DIR]
# DB defaults to the shipped model's rows (benchmarks/pretrained_data.sh: the shared H100 data
# plus the random-pipeline rows collected on an H100, merged into a copy); only DB's copy is read.
# Rows of random pipelines train the leave-one-app-out models but are no app of the goal: only
# the catalog apps are held out in turn (`--loao-apps catalog`, the same figures as holding out
# every pipeline, in 16 folds instead of ~330; LOAO_EVERY_APP=1 holds out every random pipeline
# too), the folds trained on every core (`-j`); the last lines give the means over the catalog
# apps alone. OUT_DIR (default: a temporary directory) gets loao.txt and loao.json. LOAO_ARGS
# replaces the training options (default: those of the shipped model).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/pretrained_data.sh"
cli=$1
out=${3:-$(mktemp -d)}
mkdir -p "$out"
db=${2:-}
if [ -z "$db" ]; then
    db="$out/training.sqlite"
    pretrained_db "$cli" "$db"
fi
if [ -n "${LOAO_ARGS:-}" ]; then read -r -a extra <<<"$LOAO_ARGS"; else extra=("${pretrained_options[@]}"); fi
[ "${LOAO_EVERY_APP:-0}" = 1 ] || extra+=(--loao-apps catalog)
extra+=(-j "$(nproc)")
# One run writes the table and the JSON (the folds are trained once).
"$cli" models --db "$db" --leave-one-app-out --model pretrained "${extra[@]}" \
    --json-out "$out/loao.json" >"$out/loao.txt"
python3 - "$out/loao.json" >>"$out/loao.txt" <<'PY'
import json, math, sys
report = json.load(open(sys.argv[1]))
catalog = [p for p in report["pipelines"] if not p["pipeline"].startswith("random:")]
# Per GPU model: an app measured on two GPUs is two rankings.
for gpu in sorted({p.get("gpu", "") for p in catalog}):
    apps = [p for p in catalog if p.get("gpu", "") == gpu]
    print(f"catalog apps only ({len(apps)}{', ' + gpu if gpu else ''}), mean tau / geomean regret:")
    for name in apps[0]["models"]:
        taus = [p["models"][name]["tau"] for p in apps if p["models"][name]["tau"] == p["models"][name]["tau"]]
        regrets = [p["models"][name]["regret"] for p in apps]
        print(f"  {name:10s} {sum(taus) / len(taus):.3f} / {math.exp(sum(map(math.log, regrets)) / len(regrets)):.2f}")
PY
cat "$out/loao.txt"
echo "written: $out/loao.txt $out/loao.json" >&2
