#!/usr/bin/env bash
# Which Funcs freezing leaves under search, Halide's Anderson2021 beside ours (docs/ablation.md,
# issue 11 fourth session). Per app: the reference's log with sampling and freezing on
# (HL_DEBUG_AUTOSCHEDULE=1; stopped once its "Freezing as" lines are out, since only the
# pre-pass is needed), our `search APP --json`, and our search again with the reference's frozen
# set (`--freeze`). Prints the frozen-set table, then one line per app: states and predicted
# cost of ours and of ours with the reference's set. Files go to DIR (default: a temp dir).
#   benchmarks/ablation_frozen_sets.sh build/ci/app/cli/beamscope-cli APP... [DIR=path]
set -u
cli="$1"; shift
dir="${DIR:-$(mktemp -d)}"
mkdir -p "$dir"
here="$(cd "$(dirname "$0")" && pwd)"
for app in "$@"; do
  log="$dir/ref-$app.log"
  HL_DEBUG_AUTOSCHEDULE=1 timeout 300 "$cli" ablate "$app" --anderson2021-only --json \
      --anderson2021-param randomize_tilings=1 \
      --anderson2021-param freeze_inline_compute_root=1 > "$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    if grep -aq '^Freezing as' "$log"; then sleep 1; kill "$pid" 2>/dev/null; break; fi
    sleep 1
  done
  wait "$pid" 2>/dev/null
  "$cli" search "$app" --json > "$dir/ours-$app.json" || exit 1
done
"$here/ablation_frozen_sets.py" "$dir" "$@" | tee "$dir/table.md" | grep -v '^<!--'
grep -o '<!-- .* -->' "$dir/table.md" | sed 's/<!-- //; s/ -->//' |
while read -r app _ list; do
  "$cli" search "$app" --freeze "$list" --json > "$dir/freeze-$app.json" || exit 1
  python3 - "$dir/ours-$app.json" "$dir/freeze-$app.json" "$app" <<'PY'
import json, sys
ours, frozen = (json.load(open(p)) for p in sys.argv[1:3])
print(f"{sys.argv[3]}: states {ours['stats']['evaluated']} -> {frozen['stats']['evaluated']}, "
      f"predicted cost {ours['cost']:.4f} -> {frozen['cost']:.4f} ms "
      f"({100 * (frozen['cost'] / ours['cost'] - 1):+.1f}%)")
PY
done
echo "files in $dir" >&2
