#!/usr/bin/env bash
# lens_blur at 64x48 on the local OpenCL device (PoCL): the pocl-cpu search's seed-4 one-shot
# pick (taps' build, docs/import.md "The taps' check") and three variants that differ only in
# where and how `blurred` (the aperture-sample accumulation) is computed, interleaved for ROUNDS
# rounds, each run by beamscope-worker (20 timed runs, checked against the CPU reference).
#   benchmarks/pocl_lens_blur_tilings/run.sh build/ci/app/worker/beamscope-worker
# Environment: ROUNDS (default 3).
set -eu
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 BEAMSCOPE_WORKER" >&2; exit 2; }
worker="$1"
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d "${TMPDIR:-/tmp}/pocl-lens-blur-XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 - "$here/seed4_one_shot_job.json" "$work" <<'PY'
import copy, json, sys
base = json.load(open(sys.argv[1]))
def variant(label, decision, stages):
    job = copy.deepcopy(base)
    job["label"] = label
    for func in job["schedule"]:
        if func["name"] == "blurred":
            func["decision"] = decision
            func["consumer"] = "lens_blur" if decision == "block" else None
            if stages: func["stages"] = stages
    json.dump(job, open(f"{sys.argv[2]}/{label}.json", "w"))
# As picked: in lens_blur's blocks, threads 32x4x1, serial 2x2x4 per thread.
variant("fused-32x4-serial-2x2x4", "block", None)
# The same place and points per thread, threads 16x8x1, serial 4x1x4.
variant("fused-16x8-serial-4x1x4", "block", [
    {"thread": [16, 8, 1], "serial": [4, 1, 4]},
    {"thread": [1, 16, 8, 1], "serial": [4, 4, 1, 4]}])
# At the root with the picked tiling.
variant("root-32x4-serial-2x2x4", "root", None)
# At the root with the tiling the search gives it when pinned there.
variant("root-32x2-serial-2x1x4", "root", [
    {"thread": [32, 2, 1], "serial": [2, 1, 4]},
    {"thread": [1, 32, 2, 1], "serial": [4, 2, 1, 4]}])
PY
for round in $(seq "${ROUNDS:-3}"); do
    for label in fused-32x4-serial-2x2x4 fused-16x8-serial-4x1x4 root-32x4-serial-2x2x4 root-32x2-serial-2x1x4; do
        "$worker" "$work/$label.json" 2>/dev/null | python3 -c "
import json, sys
r = json.load(sys.stdin)
t = r['measured_ms'] or {}
print(f\"round $round  $label  correct={r['correct']}  median={t.get('median', float('nan')):.3f} ms  min={t.get('min', float('nan')):.3f} ms\")"
    done
done
