#!/usr/bin/env bash
# Measurement throughput of the runners (docs/performance.md, "Measurement runners"):
#   1. local runner, one batch of N candidates (tune --rounds 1 --batch N, fresh database):
#      serial path (--jobs 1: compile and measure one after the other) vs parallel compilation
#      (--jobs = every core), same pipeline, same run of this script;
#   2. slurm runner on the single-node test cluster (tests/slurm/cluster.sh) vs local, same batch:
#      overhead per measurement.
# Prints measurements per minute and seconds per measurement, with `uptime` load before each.
#   slurm-shipped is compile = local (artifacts AOT-compiled here, run by beamscope-aot-runner on
#   the node); slurm-compile-in-job the worker's JIT on the node.
# Usage: [RUNS="local-parallel slurm-shipped ..."] benchmarks/runner_throughput.sh BEAMSCOPE_CLI
#        [BATCH=64]   (RUNS: a subset of local-serial local-parallel slurm-shipped
#        slurm-compile-in-job; default all four)
set -u
cli=$1
batch=${2:-64}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap '"$here/tests/slurm/cluster.sh" stop "$tmp/cluster" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
pipe=(unsharp_mask -p width=64 -p height=64)
common=(--rounds 1 --batch "$batch" --repeats 3 --device opencl --seed 5 -q --json)

run() { # name, extra args...
    local name=$1
    shift
    case " ${RUNS:-$name} " in *" $name "*) ;; *) return ;; esac
    local load start end n
    load=$(uptime | sed 's/.*load average: //')
    start=$(date +%s.%N)
    "$cli" tune "${pipe[@]}" "${common[@]}" --db "$tmp/$name.sqlite" "$@" >"$tmp/$name.json" 2>"$tmp/$name.err" ||
        { echo "$name failed: $(tail -n 2 "$tmp/$name.err")"; return; }
    end=$(date +%s.%N)
    n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rounds"][0]["measured"])' "$tmp/$name.json")
    python3 -c 'import sys; n,s=int(sys.argv[2]),float(sys.argv[3])-float(sys.argv[4]); print(f"{sys.argv[1]:<22} {n} measured in {s:6.1f} s: {60*n/s:5.1f} per min, {s/n:5.2f} s each (load {sys.argv[5]})")' \
        "$name" "$n" "$end" "$start" "$load"
}

echo "batch of $batch on $(nproc) cores, $(clinfo -l 2>/dev/null | grep -c Device) OpenCL device(s)"
run local-serial --jobs 1
run local-parallel --jobs "$(nproc)"
eval "$("$here/tests/slurm/cluster.sh" start "$tmp/cluster")"
run slurm-shipped --runner slurm --slurm-dir "$tmp/jobs" --slurm-poll 0.5
run slurm-compile-in-job --runner slurm --slurm-dir "$tmp/jobs2" --slurm-poll 0.5 --slurm-compile job
