#!/usr/bin/env bash
# Carries a build to a GPU machine that has a driver but neither Halide nor Debian 12's
# libraries (docs/cuda.md: an Ubuntu 24.04 H100 machine). `pack` writes two archives into DIR:
# bin.tar.xz (the stripped CLI, worker and AOT runner, about 1.4 MB; re-pack after each build)
# and lib.tar.xz (libHalide, its autoscheduler plugins, the example generator library, the
# Debian libraries the CLI links that such a machine lacks and CUPTI for per-kernel times, about
# 50 MB; unchanged between builds). `unpack` on the GPU machine extracts them into DEST with the GPU presets, and prints
# the LD_LIBRARY_PATH line to eval.
#   benchmarks/device_bundle.sh pack BUILD_DIR DIR          (here)
#   eval "$(benchmarks/device_bundle.sh unpack DIR DEST)"   (there; then DEST/bin/beamscope-cli)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-}" in
pack)
    build=$(cd "${2:?usage: device_bundle.sh pack BUILD_DIR DIR}" && pwd)
    mkdir -p "${3:?usage: device_bundle.sh pack BUILD_DIR DIR}"
    out=$(cd "$3" && pwd)
    stage=$(mktemp -d)
    trap 'rm -rf "$stage"' EXIT
    mkdir -p "$stage/bin" "$stage/lib"
    strip -o "$stage/bin/beamscope-cli" "$build/app/cli/beamscope-cli"
    strip -o "$stage/bin/beamscope-worker" "$build/app/worker/beamscope-worker"
    strip -o "$stage/bin/beamscope-aot-runner" "$build/app/aot-runner/beamscope-aot-runner"
    tar -cJf "$out/bin.tar.xz" -C "$stage" bin
    # CUPTI, for the worker's per-kernel times (core/measure/KernelActivity.h), where this
    # machine has it; a lib.tar.xz packed before it was carried is packed again.
    cupti=${BEAMSCOPE_CUPTI:-}
    [ -n "$cupti" ] || cupti=$(ls /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/lib/libcupti.so.13 2>/dev/null | head -1 || true)
    if [ -f "$out/lib.tar.xz" ] && [ -n "$cupti" ] && ! tar -tJf "$out/lib.tar.xz" | grep -q 'libcupti'; then
        rm -f "$out/lib.tar.xz"
    fi
    if [ ! -f "$out/lib.tar.xz" ]; then
        if [ -n "$cupti" ]; then cp -L "$cupti" "$stage/lib/libcupti.so.13"; fi
        halide=$(dirname "$(ldd "$build/app/cli/beamscope-cli" | awk '/libHalide/ {print $3}')")
        cp -L "$halide"/libHalide.so "$halide"/libautoschedule_*.so "$stage/lib/"
        strip -o "$stage/lib/libbeamscope_example_generators.so" \
            "$build/examples/libbeamscope_example_generators.so"
        # What the CLI links beyond glibc and libstdc++ (which such a machine has, newer).
        for lib in libxgboost.so.0 libdmlc.so.0 libsqlite3.so.0 libjemalloc.so.2 libgomp.so.1; do
            cp -L "$(ldd "$build/app/cli/beamscope-cli" | awk -v l="$lib" '$1 == l {print $3}')" \
                "$stage/lib/"
        done
        tar -cf - -C "$stage" lib | xz -T0 -6 >"$out/lib.tar.xz"
    fi
    ls -la "$out"
    ;;
unpack)
    dir=${2:?usage: device_bundle.sh unpack DIR DEST}
    dest=${3:?usage: device_bundle.sh unpack DIR DEST}
    mkdir -p "$dest/share/beamscope"
    tar -xJf "$dir/lib.tar.xz" -C "$dest"
    tar -xJf "$dir/bin.tar.xz" -C "$dest"
    # The CLI looks for its GPU presets in ../share/beamscope/gpus beside its own folder.
    cp -r "$here/resources/gpus" "$dest/share/beamscope/"
    echo "export LD_LIBRARY_PATH=$(cd "$dest" && pwd)/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
    ;;
*)
    echo "usage: device_bundle.sh pack BUILD_DIR DIR | unpack DIR DEST" >&2
    exit 2
    ;;
esac
