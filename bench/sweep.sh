#!/usr/bin/env bash
# The tuning sweep of docs/benchmarks.md: every benchmark shape of
# docs/problem.md section 4 under each configuration below, compiled into OUTDIR as
# bench_<config>_<kernel>.{ptx,json} for bench/gpu.sh or nvfp4-run --bench.
#
#   bench/sweep.sh OUTDIR [CHIP]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:?usage: $0 OUTDIR [CHIP]}
chip=${2:-sm_90a}
shapes=("7168 16384 1" "4096 7168 8" "7168 2048 4" "4096 7168 1" "7168 2048 1")
# name: rows-per-thread threads loads-in-flight lanes-per-row split-k
# extra-options. Override with NVFP4_SWEEP_CONFIGS (one config a line).
default_configs="\
r4t128u2 4 128 2 32 1 prefetch=false
r4t128u1p 4 128 1 32 1
r4t128u2p 4 128 2 32 1
r2t128u2p 2 128 2 32 1
r2t128u4p 2 128 4 32 1
r8t128u1p 8 128 1 32 1
r4t128u1l16s2 4 128 1 16 2
r4t256u1l16s2 4 256 1 16 2
r4t128u1l8s4 4 128 1 8 4
r2t128u1l16s4 2 128 1 16 4
r4t128u1nohint 4 128 1 32 1 cache-hints=false"
mapfile -t configs <<<"${NVFP4_SWEEP_CONFIGS:-$default_configs}"
for shape in "${shapes[@]}"; do
  read -r m k l <<<"$shape"
  for config in "${configs[@]}"; do
    read -r name rows threads inflight lanes split extra <<<"$config"
    # Lanes and slices share a row only as far as its bytes divide evenly.
    while (( (k / 2) % (lanes * 16 * split) != 0 )); do
      if (( lanes > 1 )); then lanes=$((lanes / 2)); else split=$((split / 2)); fi
    done
    rpb=$((threads / lanes / split * rows))
    "$root/bench/compile.sh" "$out" "bench_$name" "${m}x${k}x${l}" \
      "chip=$chip rows-per-thread=$rows rows-per-block=$rpb loads-in-flight=$inflight lanes-per-row=$lanes split-k=$split ${extra:-}"
  done
done
ls "$out"/*.json | grep -v '\.sequence\.json$' | wc -l
