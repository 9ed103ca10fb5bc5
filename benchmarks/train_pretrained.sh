#!/usr/bin/env bash
# Trains the shipped pretrained cost model (resources/models/pretrained.json) from its rows
# (benchmarks/pretrained_data.sh: the shared H100 data and the collected random-pipeline rows),
# byte for byte the same file every run:
#   benchmarks/train_pretrained.sh CLI [OUT]     (OUT defaults to resources/models/pretrained.json)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/pretrained_data.sh"
cli=${1:?usage: train_pretrained.sh CLI [OUT]}
out=${2:-$pretrained_here/resources/models/pretrained.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pretrained_db "$cli" "$work/train.sqlite"
"$cli" train --db "$work/train.sqlite" --all --device-class nvidia-gpu "${pretrained_options[@]}" \
    --out "$out"
