#!/usr/bin/env bash
# Compiles the quantizer benchmark into OUTDIR/quantize (PTX + manifests)
# for bench/suite/gpu.sh:
#
#   bench/quantize/compile.sh OUTDIR
#
# The issue's shape (a 16384 x 7168 activation tensor) in every input type,
# format, layout and with the two-level global scale (two kernels: the
# global scale's reduction, then the quantization); decode-step activation
# batches (1, 8 and 16 rows); dequantization of the large shape; and odd
# shapes (partial blocked atoms, L > 1) for the verification. Extra
# pipeline options come from NVFP4_QUANTIZE_OPTIONS.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
opt=${NVFP4_OPT:-$root/build/bin/nvfp4-opt}
[[ $# -eq 1 ]] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
specs=(
  quantize:16384x7168x1:nvfp4:linear:bf16
  quantize:16384x7168x1:nvfp4:blocked128x4:bf16
  quantize:16384x7168x1:nvfp4:linear:bf16:2l
  quantize:16384x7168x1:mxfp4:linear:bf16
  quantize:16384x7168x1:nvfp4:linear:f16
  quantize:16384x7168x1:nvfp4:linear:f32
  quantize:16x7168x1:nvfp4:linear:bf16:2l
  quantize:8x4096x1:nvfp4:blocked128x4:bf16
  quantize:1x7168x1:nvfp4:linear:bf16:2l
  quantize:130x2880x3:nvfp4:blocked128x4:f16:2l
  quantize:257x96x2:mxfp4:blocked128x4:f32
  dequantize:16384x7168x1:nvfp4:linear:bf16
  dequantize:16384x7168x1:nvfp4:blocked128x4:bf16:gs
  dequantize:16384x7168x1:mxfp4:linear:f32
  dequantize:130x2880x3:nvfp4:blocked128x4:f16:gs
)
dir=$out/quantize
rm -rf "$dir" && mkdir -p "$dir"
# Shapes as the suite report names them (rows x K x L).
for spec in "${specs[@]}"; do
  shape=${spec#*:}
  shape=${shape%%:*}
  echo "${spec//:/_} ${shape//x/ }"
done > "$out/shapes.txt"
python3 "$root/scripts/nvfp4_ir.py" "${specs[@]}" |
  "$opt" --nvfp4-to-ptx="chip=sm_90a ${NVFP4_QUANTIZE_OPTIONS:-} export-dir=$dir" \
    -o /dev/null
echo "quantize: $(ls "$dir"/*.json | grep -v '\.sequence\.json$' | wc -l) kernels in $dir"
