#!/usr/bin/env bash
# Timing on a busy machine (docs/design-notes.md, "Timing on a busy machine"): the same
# candidates of APPS measured twice on the device while every core runs a CPU hog, once with the
# timed runs' thread at normal priority (BEAMSCOPE_TIMING_PRIORITY=normal) and once as the
# worker does by default (SCHED_FIFO where allowed: measure/TimingPriority.h). Per candidate:
# both medians and minima, and how many medians sit within 0.06 ms of a multiple of 4 ms (the
# scheduler tick at HZ=250). For a lent GPU machine, carrying device-bundle/:
#   benchmarks/timing_check.sh OUT            [APPS="matmul conv_layer"] [HOGS=nproc] [CLI=...]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: timing_check.sh OUT}"
mkdir -p "$out"
work=$(mktemp -d)
hogs=()
cleanup() { kill "${hogs[@]}" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
if [ -z "${CLI:-}" ]; then
    eval "$("$here/benchmarks/device_bundle.sh" unpack "$here/device-bundle" "$work/b")"
    CLI="$work/b/bin/beamscope-cli"
fi
device=${DEVICE:-cuda}
read -r -a apps <<<"${APPS:-matmul conv_layer}"
for _ in $(seq "${HOGS:-$(nproc)}"); do
    (while :; do :; done) &
    hogs+=($!)
done
for app in "${apps[@]}"; do
    for mode in normal default; do
        start=$(date +%s)
        if [ "$mode" = normal ]; then export BEAMSCOPE_TIMING_PRIORITY=normal; else unset BEAMSCOPE_TIMING_PRIORITY; fi
        # shellcheck disable=SC2086 # SIZE_FLAGS are several flags
        "$CLI" bench "$app" ${SIZE_FLAGS:-} --device "$device" --mode topk --top "${TOP:-5}" \
            --repeats 10 --warmup 2 --timeout 120 --baseline "" --no-db --json \
            >"$out/$app-$mode.json" 2>"$work/$app-$mode.log"
        echo "$app $mode: rc $? in $(($(date +%s) - start)) s" >&2
    done
done
unset BEAMSCOPE_TIMING_PRIORITY
python3 - "$out" "${apps[@]}" <<'PY' | tee "$out/summary.txt"
import json, sys
out, apps = sys.argv[1], sys.argv[2:]
def tick(ms):
    return ms > 3 and abs(ms / 4 - round(ms / 4)) * 4 < 0.06
for app in apps:
    runs = {}
    for mode in ("normal", "default"):
        try:
            r = json.load(open(f"{out}/{app}-{mode}.json"))
        except (OSError, ValueError):
            print(f"{app} {mode}: no report")
            continue
        runs[mode] = {c["label"]: c for c in r["candidates"]}
        prio = {c.get("timing_priority") for c in r["candidates"] if c.get("measured_ms")}
        print(f"{app} {mode}: timing_priority {sorted(p or '-' for p in prio)}")
    if len(runs) < 2:
        continue
    print(f"{'candidate':10} {'normal median/min':>20} {'default median/min':>20}")
    ticks = {"normal": 0, "default": 0}
    for label, a in runs["normal"].items():
        b = runs["default"].get(label)
        ma, mb = a.get("measured_ms"), (b or {}).get("measured_ms")
        if not ma or not mb:
            continue
        ticks["normal"] += tick(ma["median"])
        ticks["default"] += tick(mb["median"])
        print(f"{label:10} {ma['median']:9.3f}/{ma['min']:<9.3f} {mb['median']:9.3f}/{mb['min']:<9.3f}")
    print(f"{app}: medians within 0.06 ms of a multiple of 4 ms: normal {ticks['normal']}, default {ticks['default']}")
PY
