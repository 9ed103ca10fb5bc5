#!/usr/bin/env bash
# docs/import.md's table: per catalog app at its default size with the h100 preset, Halide's own
# Anderson2021 schedule imported into Beamscope (`compare --with`): whether every Func is
# representable, the constructs where not, and what Beamscope's search did with each imported
# decision. One JSON object per app on stdout (the compare report plus "app" and "wall_s"); a
# run past LIMIT seconds is a timeout row. Then: benchmarks/import_table.py < the lines.
#   benchmarks/import_table.sh build/ci/app/cli/beamscope-cli [WITH] [LIMIT] [APP...]
# IMPORT_ARGS adds options to compare (e.g. "--beam 1 --passes 1": Beamscope's own search small,
# when only what is representable is wanted; the Why not? verdicts are then that search's).
set -u
cli="$1"; shift
with="${1:-anderson2021}"; shift || true
limit="${1:-1800}"; shift || true
apps=("$@")
[ ${#apps[@]} -gt 0 ] || mapfile -t apps < <("$cli" apps | awk '{print $1}')
for app in "${apps[@]}"; do
  start=$(date +%s.%N)
  read -r -a extra <<<"${IMPORT_ARGS:-}"
  out=$(timeout "$limit" "$cli" compare "$app" --gpu h100 --with "$with" "${extra[@]}" --json 2>/tmp/import_table.$$.err)
  rc=$?
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  if [ $rc -eq 0 ]; then
    printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); d["app"]=sys.argv[1]; d["wall_s"]=round(float(sys.argv[2]),1); print(json.dumps(d))' "$app" "$wall"
  else
    err=$(head -c 300 /tmp/import_table.$$.err | tr '\n"' ' _')
    echo "{\"app\": \"$app\", \"with\": \"$with\", \"exit\": $rc, \"limit_s\": $limit, \"error\": \"$err\"}"
  fi
done
rm -f /tmp/import_table.$$.err
