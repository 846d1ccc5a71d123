#!/usr/bin/env bash
# Builds nvfp4-run without MLIR into BUILDDIR (on a GPU machine: CUDA
# driver, CMake, Ninja and the headers of bench/gpu-deps.sh, found through
# NVFP4_DEPS_PREFIX when set), logging to LOG. Shared by the GPU scripts.
#
#   bench/build-runner.sh BUILDDIR LOG
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ $# -eq 2 ]] || { echo "usage: $0 BUILDDIR LOG" >&2; exit 2; }
build=$1 log=$2
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DNVFP4_ENABLE_MLIR=OFF -DNVFP4_ENABLE_UNITTESTS=OFF \
  ${NVFP4_DEPS_PREFIX:+-DCMAKE_PREFIX_PATH=$NVFP4_DEPS_PREFIX} >"$log" 2>&1
ninja -C "$build" nvfp4-run >>"$log" 2>&1
