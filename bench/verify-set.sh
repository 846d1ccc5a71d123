#!/usr/bin/env bash
# The correctness set of docs/benchmarks.md: the nine competition test shapes
# and the odd shapes (M = 1, M = 130, K = 64, L = 3) in every format, scale
# layout and output type, compiled with the default configuration into
# OUTDIR as verify_<case>_<kernel>.{ptx,json}.
#
#   bench/verify-set.sh OUTDIR [CHIP [OPTIONS]]
#
# OPTIONS are more pipeline options for every kernel (e.g. decode=f32).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:?usage: $0 OUTDIR [CHIP [OPTIONS]]}
chip=${2:-sm_90a}
options=${3:-}
cases=(
  "t1 128x256x1"
  "t2 128x1536x1:blocked128x4"
  "t3 128x3072x1:bf16"
  "t4 256x7168x1:mxfp4"
  "t5 2432x4608x2:blocked128x4:f32"
  "t6 384x7168x2:noalpha"
  "t7 512x512x2:mxfp4:blocked128x4"
  "t8 512x4096x2"
  "t9 512x1536x2:bf16:blocked128x4"
  "m1 1x4096x1"
  "m130 130x2048x1:linear"
  "m130b 130x2048x3:blocked128x4:mxfp4"
  "m130nb 130x2048x2:blocked128x4"
  "m1b 1x1024x2:blocked128x4:f32"
  "k64 256x64x1"
  "k64mx 200x64x3:mxfp4:f32"
  "l3 1000x1024x3:bf16"
)
for entry in "${cases[@]}"; do
  read -r name spec <<<"$entry"
  "$root/bench/compile.sh" "$out" "verify_$name" "$spec" \
    "chip=$chip $options"
done
ls "$out"/verify_*.json | grep -v '\.sequence\.json$' | wc -l
