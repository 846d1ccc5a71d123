#!/usr/bin/env bash
# Copies the header-only libraries nvfp4-run builds against (nlohmann-json,
# CLI11, with their CMake package files) from this machine's Debian packages
# into PREFIX, for a GPU machine that has CUDA and CMake but no package
# registry. Carry PREFIX there and set NVFP4_DEPS_PREFIX=PREFIX for
# bench/gpu.sh and bench/suite/gpu.sh.
#
#   bench/gpu-deps.sh PREFIX
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$1
mkdir -p "$prefix/include" "$prefix/share/cmake"
for pkg in nlohmann-json3-dev libcli11-dev; do
  dpkg -s "$pkg" >/dev/null 2>&1 ||
    { echo "gpu-deps.sh: $pkg is not installed" >&2; exit 1; }
done
cp -r /usr/include/nlohmann /usr/include/CLI "$prefix/include/"
cp -r /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 "$prefix/share/cmake/"
echo "gpu-deps.sh: headers and CMake packages in $prefix"
