#!/usr/bin/env bash
# Compiles the decode-step benchmark into OUTDIR, one subdirectory of PTX +
# manifests per variant of the right-hand side, for bench/suite/gpu.sh:
#
#   bench/decode/compile.sh OUTDIR [LAYOUT [VARIANT...]]
#
# The five shapes of docs/problem.md (NVFP4, LAYOUT scales, default
# blocked128x4) with one packed vector (n1, today's GEMV), N = 2, 4, 8 and
# 16 packed vectors (n2 ... n16), and one bf16 or f16 vector (bf16, f16);
# every variant unless some are named. A variant ending in t (n1t, n8t,
# bf16t, ...) is the same with a's codes tiled (tiled_codes). Extra pipeline options come from
# NVFP4_DECODE_OPTIONS. bench/suite/gpu.sh OUTDIR LOGDIR runs them (its
# report names the shapes from OUTDIR/shapes.txt); bench/decode/report.py
# then compares each variant with n1.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
opt=${NVFP4_OPT:-$root/build/bin/nvfp4-opt}
[[ $# -ge 1 ]] || { echo "usage: $0 OUTDIR [LAYOUT [VARIANT...]]" >&2; exit 2; }
out=$1 layout=${2:-blocked128x4}
shift $(( $# >= 2 ? 2 : 1 ))
variants=("$@")
[[ ${#variants[@]} -gt 0 ]] || variants=(n1 n2 n4 n8 n16 bf16 f16)
shapes=(7168x16384x1 4096x7168x8 7168x2048x4 4096x7168x1 7168x2048x1)
declare -A fields=([n1]="" [n2]=":n2" [n4]=":n4" [n8]=":n8" [n16]=":n16"
                   [bf16]=":vbf16" [f16]=":vf16")
for v in "${!fields[@]}"; do fields[${v}t]="${fields[$v]}:tiled"; done
mkdir -p "$out"
for i in "${!shapes[@]}"; do
  echo "p$((i + 1)) ${shapes[$i]//x/ }"
done > "$out/shapes.txt"
for variant in "${variants[@]}"; do
  [[ -v fields[$variant] ]] || { echo "$0: unknown variant '$variant'" >&2; exit 2; }
  dir=$out/$variant
  rm -rf "$dir" && mkdir -p "$dir"
  specs=()
  for shape in "${shapes[@]}"; do
    specs+=("$shape:nvfp4:$layout${fields[$variant]}")
  done
  python3 "$root/scripts/nvfp4_ir.py" "${specs[@]}" |
    "$opt" --nvfp4-to-ptx="chip=sm_90a ${NVFP4_DECODE_OPTIONS:-} export-dir=$dir" \
      -o /dev/null
  echo "$variant: $(ls "$dir"/*.json | grep -v '\.sequence\.json$' | wc -l) kernels in $dir"
done
