#!/usr/bin/env bash
# The baseline schedules the GPU script carries (docs/gpu-check.md). Anderson2021's own search is
# deterministic and slow (lens_blur ~1.9 h, local_laplacian ~8 min at default size here; 380 s
# and 312 s on the GPU machine's CPU, inside its 9-minute lease), and its GPU schedules do not
# depend on the host CPU (core/measure/BaselineScheduleCache.cpp, keyTarget): filled here once,
# the baseline schedule cache serves the GPU machine's benches without running the plugin.
#
#   benchmarks/baseline_cache.sh fill CLI DIR [APP...]   runs `compare APP --with C` for each app
#       (every catalog app by default) and C in CONFIGS [anderson2021 anderson2021-paper] with
#       the GPU preset GPU [h100] at the default size, the cache in DIR (kept between calls: an
#       entry already there is a hit, so a fill can be resumed or run as several processes on
#       different apps)
#   benchmarks/baseline_cache.sh pack DIR ARCHIVE        DIR's complete entries into ARCHIVE
#       (tar.xz, the same bytes for the same entries)
#   benchmarks/baseline_cache.sh list ARCHIVE            each entry's app, plugin configuration,
#       the plugin's search time when it ran, and the target it ran for
set -euo pipefail
case "${1:-}" in
fill)
    cli=${2:?usage: baseline_cache.sh fill CLI DIR [APP...]}
    dir=${3:?usage: baseline_cache.sh fill CLI DIR [APP...]}
    shift 3
    mkdir -p "$dir"
    export BEAMSCOPE_BASELINE_CACHE
    BEAMSCOPE_BASELINE_CACHE=$(cd "$dir" && pwd)
    if [ $# -gt 0 ]; then apps=("$@"); else mapfile -t apps < <("$cli" apps | awk '{print $1}'); fi
    read -r -a configs <<<"${CONFIGS:-anderson2021 anderson2021-paper}"
    status=0
    for app in "${apps[@]}"; do
        for config in "${configs[@]}"; do
            report=$(mktemp)
            if "$cli" compare "$app" --gpu "${GPU:-h100}" --with "$config" --json >"$report" 2>"$report.err"; then
                python3 - "$report" "$app" "$config" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["autoscheduler"]
how = "from the cache" if a["cached"] else "the plugin ran"
print(f"{sys.argv[2]} {sys.argv[3]}: {how} ({a['ms'] / 1000:.1f} s when it ran)")
PY
            else
                echo "$app $config: compare failed: $(tail -n 1 "$report.err")" >&2
                status=1
            fi
            rm -f "$report" "$report.err"
        done
    done
    exit $status
    ;;
pack)
    dir=${2:?usage: baseline_cache.sh pack DIR ARCHIVE}
    archive=${3:?usage: baseline_cache.sh pack DIR ARCHIVE}
    # An entry is complete when its JSON (written last) is there.
    mapfile -t entries < <(cd "$dir" && for j in *.json; do
        [ -f "${j%.json}.hlpipe" ] && printf '%s\n%s\n' "$j" "${j%.json}.hlpipe"
    done | LC_ALL=C sort)
    [ ${#entries[@]} -gt 0 ] || { echo "no complete entry in $dir" >&2; exit 1; }
    tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - -C "$dir" "${entries[@]}" |
        xz -6 >"$archive.tmp"
    mv "$archive.tmp" "$archive"
    echo "$archive: $((${#entries[@]} / 2)) entries, $(du -h "$archive" | cut -f1)"
    ;;
list)
    archive=${2:?usage: baseline_cache.sh list ARCHIVE}
    python3 - "$archive" <<'PY'
import json, sys, tarfile
rows = []
with tarfile.open(sys.argv[1]) as t:
    for m in t.getmembers():
        if m.name.endswith(".json"):
            e = json.load(t.extractfile(m))
            paper = "-paper" if e["parameters"].get("freeze_inline_compute_root") == "1" else ""
            rows.append((e["pipeline"], e["plugin"].lower() + paper, e["milliseconds"] / 1000,
                         e["target"]))
for pipeline, config, seconds, target in sorted(rows):
    print(f"{pipeline:26s} {config:19s} {seconds:8.1f} s  {target}")
PY
    ;;
*)
    echo "usage: baseline_cache.sh fill CLI DIR [APP...] | pack DIR ARCHIVE | list ARCHIVE" >&2
    exit 2
    ;;
esac
