#!/usr/bin/env bash
# Compiles the GPU sweep here (needs nvfp4-opt), for bench/gpu-sweep/gpu.sh on a
# GPU machine without LLVM:
#
#   bench/gpu-sweep/compile.sh OUTDIR [COUNT [SEED]]
#
# OUTDIR/shapes.txt lists the random shapes (bench/gpu-sweep/shapes.py, default
# 240); OUTDIR/kernels/ gets their PTX and manifests for sm_90a with the
# cost model's choices, plus a few scale-layout conversions. Carry OUTDIR,
# and the repository for nvfp4-run's sources, to the GPU machine.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
opt=${NVFP4_OPT:-$root/build/bin/nvfp4-opt}
[[ $# -ge 1 ]] || { echo "usage: $0 OUTDIR [COUNT [SEED]]" >&2; exit 2; }
out=$1
mkdir -p "$out"
rm -rf "$out/kernels" && mkdir -p "$out/kernels"
python3 "$root/bench/gpu-sweep/shapes.py" "${2:-240}" ${3:+"$3"} > "$out/shapes.txt"
# Batches of 20 shapes a module keep each nvfp4-opt run short.
grep -v '^#' "$out/shapes.txt" | xargs -n 20 |
  while read -r specs; do
    # shellcheck disable=SC2086
    python3 "$root/scripts/nvfp4_ir.py" $specs |
      "$opt" --nvfp4-to-ptx="chip=sm_90a export-dir=$out/kernels" -o /dev/null
  done
"$opt" "$root/test/Tools/nvfp4-run/convert-scale-layout.mlir" \
  --nvfp4-to-ptx="chip=sm_90a export-dir=$out/kernels" -o /dev/null
echo "compile.sh: $(ls "$out"/kernels/*.json | wc -l) kernels in $out/kernels"
