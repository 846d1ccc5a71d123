#!/usr/bin/env bash
# The correctness set of docs/benchmarks.md: the nine competition test shapes
# and the odd shapes (M = 1, M = 130, K = 64, L = 3) in every format, scale
# layout and output type, compiled with the default configuration into
# OUTDIR as verify_<case>_<kernel>.{ptx,json}.
#
#   bench/verify-set.sh OUTDIR [CHIP]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:?usage: $0 OUTDIR [CHIP]}
chip=${2:-sm_90a}
cases=(
  "t1 128 256 1"
  "t2 128 1536 1 --layout blocked128x4"
  "t3 128 3072 1 --output bf16"
  "t4 256 7168 1 --format mxfp4"
  "t5 2432 4608 2 --layout blocked128x4 --output f32"
  "t6 384 7168 2 --no-alpha"
  "t7 512 512 2 --format mxfp4 --layout blocked128x4"
  "t8 512 4096 2"
  "t9 512 1536 2 --output bf16 --layout blocked128x4"
  "m1 1 4096 1"
  "m130 130 2048 1 --layout linear"
  "m130b 130 2048 3 --layout blocked128x4 --format mxfp4"
  "m130nb 130 2048 2 --layout blocked128x4"
  "m1b 1 1024 2 --layout blocked128x4 --output f32"
  "k64 256 64 1"
  "k64mx 200 64 3 --format mxfp4 --output f32"
  "l3 1000 1024 3 --output bf16"
)
for entry in "${cases[@]}"; do
  read -r name m k l options <<<"$entry"
  "$root/bench/compile.sh" "$out" "verify_$name" "$m $k $l ${options:-}" \
    "chip=$chip"
done
ls "$out"/verify_*.json | wc -l
