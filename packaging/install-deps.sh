#!/usr/bin/env bash
# Installs everything Beamscope's build, tests and app need: Debian packages, and Halide 21 +
# CMake >= 3.28 from PyPI into the project-local virtual environment .venv (found by the build).
# Idempotent: when everything is present it prints nothing and exits 0.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
halide_version="21.0.0"
cmake_min="3.28"

debian_packages=(
  build-essential ninja-build pkg-config git python3 python3-venv
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  libgraphviz-dev graphviz
  pocl-opencl-icd ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers clinfo
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libjemalloc-dev
  libpng-dev zlib1g-dev
  libsqlite3-dev sqlite3 libxgboost-dev
  slurm-wlm munge
  xvfb xauth fonts-dejavu-core clang-format
  clang libclang-rt-14-dev
  help2man desktop-file-utils appstream dpkg-dev
)

sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  sudo_if_needed apt-get update -qq
  sudo_if_needed apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Halide's wheel and a recent CMake live in a project-local venv; the build finds it by path.
if [ ! -x "$venv/bin/python" ]; then
  echo "install-deps: creating $venv"
  python3 -m venv "$venv"
fi
have_halide="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("halide"))' 2>/dev/null || true)"
have_cmake="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("cmake"))' 2>/dev/null || true)"
cmake_ok=no
if [ -n "$have_cmake" ] && [ "$(printf '%s\n%s\n' "$cmake_min" "$have_cmake" | sort -V | head -n1)" = "$cmake_min" ]; then
  cmake_ok=yes
fi
if [ "$have_halide" != "$halide_version" ] || [ "$cmake_ok" != yes ]; then
  echo "install-deps: installing halide==$halide_version and cmake>=$cmake_min into $venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "halide==$halide_version" "cmake>=$cmake_min" "ninja"
fi
