# The shipped pretrained model's training data and options, in one place for
# benchmarks/train_pretrained.sh, benchmarks/loao.sh and benchmarks/gpu_check.sh (sourced, not run).
# docs/pretrained.md says why these options.

# The paper's structure: a learned correction of each kernel's analytic time, the kernels'
# corrected times summed, fitted to the within-pipeline centred log time (objective "kernels"),
# 60 trees of depth 3 at eta 0.05 (the options the schedule-level regression was chosen with).
# On the 1,682 H100 rows over the twenty-seventh session's analytic prior, its leave-one-app-out
# models rank the 16 catalog apps at tau 0.367 / regret 1.37 (every pipeline: 0.430 / 1.26),
# where the schedule-level regression's reach 0.253 / 1.39 (0.411 / 1.30) and the prior alone
# 0.341 / 1.30 (0.417 / 1.27): the first learned model above its prior on unseen apps in tau
# (docs/pretrained.md, "Per-kernel corrections in C++").
pretrained_options=(--objective kernels --trees 60 --max-depth 3 --eta 0.05 --min-child-weight 5
    --lambda 5)

pretrained_here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The rows: the shared H100 data (16 catalog apps) and the rows each lease of a GPU machine
# measured (benchmarks/gpu_check.sh): its random-pipeline rows (collect) and its catalog
# candidates (bench). They are kept xz-compressed in docs/cuda-h100/ (a twentieth of the size:
# the working tree travels to the GPU machine beside the ~50 MB bundle, 64 MiB in all).
pretrained_shared_db="${SHARED_DB:-$pretrained_here/../shared/data/h100-2026-11-26/measurements.sqlite}"
pretrained_collected_dbs=("$pretrained_here/docs/cuda-h100/gpu-check-2026-11-26/collect.sqlite.xz"
    "$pretrained_here/docs/cuda-h100/gpu-check-2026-11-26b/collect.sqlite.xz"
    "$pretrained_here/docs/cuda-h100/gpu-check-2026-11-26b/bench.sqlite.xz"
    "$pretrained_here/docs/cuda-h100/gpu-check-2026-11-26c/collect.sqlite.xz"
    "$pretrained_here/docs/cuda-h100/gpu-check-2026-11-26c/bench.sqlite.xz"
    "$pretrained_here/docs/cuda-h100/gpu-check-2026-11-27/collect.sqlite.xz"
    "$pretrained_here/docs/cuda-h100/gpu-check-2026-11-27/bench.sqlite.xz")

# pretrained_db CLI OUT: the training rows in one database file OUT (a copy; nothing is written
# to the shared data or the collected files).
pretrained_db() {
    local cli=$1 out=$2
    rm -f "$out"
    # A consistent copy even while another process has the file open (the shared copy is read-only).
    sqlite3 "file:$pretrained_shared_db?mode=ro" ".backup '$out'" || return 1
    local db tmp
    tmp=$(mktemp -d) || return 1
    for db in "${pretrained_collected_dbs[@]}"; do
        xz -dc "$db" >"$tmp/rows.sqlite" && "$cli" db import --db "$out" "$tmp/rows.sqlite" >/dev/null ||
            { rm -rf "$tmp"; return 1; }
    done
    rm -rf "$tmp"
}
