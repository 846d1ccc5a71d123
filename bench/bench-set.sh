#!/usr/bin/env bash
# The benchmark set of docs/benchmarks.md: the five shapes of docs/problem.md
# section 4 with the default configuration, in the linear and the blocked128x4 scale
# layouts, compiled into OUTDIR as bench_<layout>_<kernel>.{ptx,json}.
#
#   bench/bench-set.sh OUTDIR [CHIP]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:?usage: $0 OUTDIR [CHIP]}
chip=${2:-sm_90a}
for shape in 7168x16384x1 4096x7168x8 7168x2048x4 4096x7168x1 7168x2048x1; do
  for layout in linear blocked128x4; do
    "$root/bench/compile.sh" "$out" "bench_$layout" "$shape:$layout" \
      "chip=$chip"
  done
done
ls "$out"/bench_*.json | grep -v '\.sequence\.json$' | wc -l
