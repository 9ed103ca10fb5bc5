#!/usr/bin/env bash
# e2e.package: the .deb as a user gets it. Packs the already-built tree with cpack (no second
# build), unpacks it into a scratch root with dpkg-deb -x, and from the installed paths only,
# in a clean environment (no build tree, no virtual environment, a scratch HOME):
#   - the package's metadata: Debian dependencies from dpkg-shlibdeps, the file list
#   - the executables' RUNPATH ($ORIGIN-relative) and ldd: the private libHalide, nothing missing,
#     no path of the build tree or the venv in any installed ELF file
#   - --version of the three executables; halide-flags points at the private Halide
#   - beamscope-cli search stencil_chain -p length=4
#   - a one-shot bench on the OpenCL device (PoCL), measured by default, with --no-db
#   - beamscope --app stencil_chain --steps 5 --screenshot (offscreen): a real PNG
#   - desktop-file-validate and appstreamcli validate on the installed files, the man pages
# Every tool it needs is part of the machine's set-up (packaging/install-deps.sh): a missing
# one is a failure. Cost: 18 s on 2 cores (11 s of it cpack compressing 165 MB of libHalide).
# Usage: package.sh BUILD_DIR CPACK VERSION SOURCE_DIR
set -uo pipefail

build="$1"
cpack="$2"
version="$3"
source_dir="$4"
failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}
die() {
    echo "FAIL: $*"
    exit 1
}

for tool in dpkg-deb dpkg-shlibdeps desktop-file-validate appstreamcli readelf ldd python3 help2man; do
    command -v "$tool" >/dev/null || die "$tool not found (packaging/install-deps.sh installs it)"
done
[ -x "$cpack" ] || die "cpack not found at $cpack"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# ---- build the package from the ci tree -------------------------------------------------------
start=$(date +%s)
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 ||
    die "cpack failed: $(tail -n 5 "$tmp/cpack.log")"
deb="$(ls "$tmp"/pkg/beamscope_"$version"_*.deb 2>/dev/null | head -n 1)"
[ -n "$deb" ] || die "no beamscope_${version}_*.deb in $tmp/pkg: $(ls "$tmp/pkg")"
echo "packed $(basename "$deb"): $(($(stat -c %s "$deb") / 1048576)) MiB in $(($(date +%s) - start)) s"

depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
for dep in libqt6widgets6 libgvc6 libsqlite3-0 libxgboost0 libc6 qt6-qpa-plugins ocl-icd-libopencl1; do
    grep -q "$dep" <<<"$depends" || fail "Depends lacks $dep"
done
grep -qi halide <<<"$depends" && fail "Depends names Halide (it is private to the package)"

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./||' >"$tmp/files"
for f in usr/bin/beamscope usr/bin/beamscope-cli usr/bin/beamscope-worker usr/bin/beamscope-aot-runner \
    usr/lib/beamscope/libHalide.so usr/lib/beamscope/libautoschedule_anderson2021.so \
    usr/lib/beamscope/libautoschedule_li2018.so usr/lib/beamscope/include/Halide.h \
    usr/share/beamscope/gpus/pocl-cpu.json usr/share/beamscope/gpus/v100.json \
    usr/share/beamscope/models/pretrained.json \
    usr/share/applications/io.github.beamscope.beamscope.desktop \
    usr/share/icons/hicolor/scalable/apps/io.github.beamscope.beamscope.svg \
    usr/share/metainfo/io.github.beamscope.beamscope.metainfo.xml \
    usr/share/man/man1/beamscope.1.gz usr/share/man/man1/beamscope-cli.1.gz \
    usr/share/doc/beamscope/Halide-LICENSE.txt usr/share/doc/beamscope/copyright; do
    grep -qx "$f" "$tmp/files" || fail "package lacks /$f"
done

# ---- install into a scratch root --------------------------------------------------------------
root="$tmp/root"
dpkg-deb -x "$deb" "$root" || die "dpkg-deb -x failed"
bin="$root/usr/bin"
# A clean environment: nothing of the build (PATH, LD_LIBRARY_PATH, venv) leaks in.
run() {
    env -i PATH=/usr/bin:/bin HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" \
        XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache" XDG_RUNTIME_DIR="$tmp/run" \
        TMPDIR="$tmp" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "$@"
}
mkdir -p "$tmp/home" "$tmp/data" "$tmp/config" "$tmp/cache" "$tmp/run"
chmod 700 "$tmp/run"

venv_marker="/.venv/"
for exe in beamscope beamscope-cli beamscope-worker; do
    runpath="$(readelf -d "$bin/$exe" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')"
    [ "$runpath" = "\$ORIGIN/../lib/beamscope" ] || fail "$exe RUNPATH is '$runpath'"
    run ldd "$bin/$exe" >"$tmp/ldd" 2>&1 || fail "ldd $exe failed"
    halide="$(sed -n 's/.*libHalide\.so => \(.*\) (0x.*/\1/p' "$tmp/ldd")"
    [ -n "$halide" ] && [ "$(readlink -f "$halide")" = "$root/usr/lib/beamscope/libHalide.so" ] ||
        fail "$exe does not load the private libHalide: $(grep Halide "$tmp/ldd")"
    grep -q "not found" "$tmp/ldd" && fail "$exe: $(grep 'not found' "$tmp/ldd" | head -n 3)"
    grep -qE "$build|$venv_marker" "$tmp/ldd" && fail "$exe loads from the build tree or venv"
    version_line="$(run "$bin/$exe" --version 2>&1)"
    [ "$version_line" = "$exe $version (Halide 21.0.0)" ] ||
        fail "$exe --version printed '$version_line'"
done
# The Slurm nodes' runner of shipped artifacts: installed, and loads no Halide (nor LLVM).
run ldd "$bin/beamscope-aot-runner" >"$tmp/ldd" 2>&1 || fail "ldd beamscope-aot-runner failed"
grep -qiE "halide|llvm|not found" "$tmp/ldd" &&
    fail "beamscope-aot-runner: $(grep -iE 'halide|llvm|not found' "$tmp/ldd" | head -n 3)"
run "$bin/beamscope-aot-runner" >/dev/null 2>"$tmp/aot.err"
[ $? -eq 2 ] && grep -q "usage: beamscope-aot-runner" "$tmp/aot.err" ||
    fail "beamscope-aot-runner without arguments: $(cat "$tmp/aot.err")"
# No installed ELF file names the build tree, the source tree or the venv (a RUNPATH or a data
# path compiled in). Header names are left out: Halide.h's inline functions carry __FILE__ in
# their assertion messages, which name the header and open nothing.
while IFS= read -r -d '' f; do
    head -c 4 "$f" | grep -q 'ELF' || continue
    paths="$(grep -aoE "($source_dir|$venv_marker)[[:print:]]*" "$f" | grep -avE '\.(h|hpp|inl)$' | sort -u)"
    [ -z "$paths" ] || fail "${f#"$root"} names the build machine's tree: $(head -n 3 <<<"$paths" | tr '\n' ' ')"
done < <(find "$root" -type f -print0)

flags="$(run "$bin/beamscope-cli" halide-flags 2>&1)"
grep -q -- "-I$root/usr/lib/beamscope/include" <<<"$flags" || fail "halide-flags: $flags"

# ---- run from the installed paths -------------------------------------------------------------
run "$bin/beamscope-cli" search stencil_chain -p length=4 >"$tmp/search" 2>&1 ||
    fail "search failed: $(tail -n 3 "$tmp/search")"
grep -q '^pipeline stencil_chain on V100' "$tmp/search" || fail "search: no pipeline line"
grep -q '^predicted cost [0-9.]* ms' "$tmp/search" || fail "search: no predicted cost"
grep -q 'compute output' "$tmp/search" || fail "search: no loop nest of the output"

# One-shot bench on PoCL: measured without --measure, by the installed worker.
run "$bin/beamscope-cli" bench stencil_chain -p length=2 -p width=64 -p height=64 \
    --device opencl --top 1 --beam 2 --no-db --json -q >"$tmp/bench.json" 2>"$tmp/bench.err" ||
    fail "bench failed: $(tail -n 3 "$tmp/bench.err")"
python3 - "$tmp/bench.json" <<'PY' || fail "bench report: see above"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["device"]["kind"] == "opencl", r["device"]
chosen = [c for c in r["candidates"] if c["label"] == r["chosen"]]
assert chosen, "no chosen candidate"
c = chosen[0]
assert not c["failure"], c["failure"]
assert c["correct"] and c["measured_ms"]["median"] > 0, c
print(f"bench: {r['chosen']} measured {c['measured_ms']['median']:.4f} ms on {r['device']['name']}")
PY

# --no-measure: compiled, not run; --measure is still accepted.
run "$bin/beamscope-cli" bench stencil_chain -p length=2 -p width=64 -p height=64 \
    --device opencl --top 1 --beam 2 --no-db --json -q --no-measure >"$tmp/nomeasure.json" \
    2>"$tmp/nomeasure.err" || fail "bench --no-measure failed: $(tail -n 3 "$tmp/nomeasure.err")"
python3 - "$tmp/nomeasure.json" <<'PY' || fail "bench --no-measure report: see above"
import json, sys
r = json.load(open(sys.argv[1]))
assert all(not c.get("measured_ms") for c in r["candidates"]), r["candidates"]
PY
run "$bin/beamscope-cli" bench stencil_chain -p length=1 -p width=16 -p height=16 --device none \
    --top 1 --beam 1 --no-db -q --measure >/dev/null 2>"$tmp/measure.err" ||
    fail "bench --measure is not accepted: $(tail -n 1 "$tmp/measure.err")"

run "$bin/beamscope" --app stencil_chain --steps 5 --screenshot "$tmp/shot.png" >"$tmp/gui.log" 2>&1 ||
    fail "screenshot run failed: $(tail -n 3 "$tmp/gui.log")"
python3 - "$tmp/shot.png" <<'PY' || fail "screenshot is not a real window image"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert w >= 800 and h >= 600, (w, h)
assert len(data) > 50_000, f"{len(data)} bytes: too small for a window with a DAG"
print(f"screenshot {w}x{h}, {len(data)} bytes")
PY
[ -n "${PACKAGE_SCREENSHOT_COPY:-}" ] && cp "$tmp/shot.png" "$PACKAGE_SCREENSHOT_COPY"

# ---- desktop integration ----------------------------------------------------------------------
desktop-file-validate "$root/usr/share/applications/io.github.beamscope.beamscope.desktop" ||
    fail "desktop-file-validate"
# --no-net: the screenshot URL is not fetched (the test machine is offline).
appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.beamscope.beamscope.metainfo.xml" ||
    fail "appstreamcli validate"
python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" \
    "$root/usr/share/icons/hicolor/scalable/apps/io.github.beamscope.beamscope.svg" ||
    fail "the icon is not well-formed SVG"
for page in beamscope beamscope-cli; do
    gzip -dc "$root/usr/share/man/man1/$page.1.gz" >"$tmp/$page.1" || fail "$page.1.gz"
    grep -q "^\.TH \"\?${page^^}" "$tmp/$page.1" || fail "$page.1 has no .TH header"
done
grep -q 'search' "$tmp/beamscope-cli.1" || fail "beamscope-cli.1 lacks the search command"
grep -q 'screenshot' "$tmp/beamscope.1" || fail "beamscope.1 lacks --screenshot"

if [ "$failed" -eq 0 ]; then
    echo "PASS: package e2e"
    exit 0
fi
exit 1
