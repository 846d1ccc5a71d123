#!/usr/bin/env bash
# What `make demo` shows: nvfp4 IR parsed and verified, executed on the CPU,
# and lowered to PTX kernels with launch manifests for Hopper and Blackwell.
set -euo pipefail
opt=$1
runner=$2
runner_libs=$3
out=build/demo

echo "== 1. Parse and verify a GEMV of the benchmark shape 7168 x 16384"
"$opt" examples/gemv_7168x16384x1.mlir

echo
echo "== 2. Execute a small GEMV on the CPU (expected [[38, 6, 9.5, 1], [-11, -3, -1.75, -0.25]])"
"$opt" examples/gemv_cpu.mlir --nvfp4-cpu-pipeline |
  "$runner" -e main -entry-point-result=void -shared-libs="$runner_libs"

echo
echo "== 3. Lower the benchmark GEMVs to PTX with launch manifests"
echo "   (sm_90a and sm_100a CUDA-core kernels; sm_100a tcgen05 tensor-core kernels)"
rm -rf "$out"
targets=("sm_90a|chip=sm_90a" "sm_100a|chip=sm_100a"
         "sm_100a-tcgen05|chip=sm_100a strategy=tcgen05")
for target in "${targets[@]}"; do
  dir=${target%%|*}
  for example in examples/gemv_7168x16384x1.mlir examples/gemv_4096x7168x8.mlir \
                 examples/gemv_7168x2048x4.mlir; do
    "$opt" "$example" --nvfp4-to-ptx="${target#*|} export-dir=$out/$dir" \
      -o /dev/null
  done
done
for f in "$out"/*/*.ptx; do
  dir=$(basename "$(dirname "$f")")
  chip=${dir%%-*}
  kernel=$(basename "$f" .ptx)
  decode=$(sed -n 's/.*"decode": "\(.*\)".*/\1/p' "${f%.ptx}.json")
  grep -q 'tcgen05.mma' "$f" && decode=tcgen05
  printf '%-16s %-46s %-8s %5d PTX lines' "$dir" "$kernel" "$decode" \
    "$(wc -l < "$f")"
  if command -v ptxas >/dev/null 2>&1; then
    report=$(ptxas -arch="$chip" -v "$f" -o /dev/null 2>&1)
    regs=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' <<<"$report" | head -1)
    spills=$(sed -n 's/.*, \([0-9]*\) bytes spill stores.*/\1/p' <<<"$report" | head -1)
    printf ', ptxas: %s registers, %s spill bytes' "$regs" "$spills"
  fi
  echo
done
echo
echo "Manifest of the first kernel ($out/sm_90a):"
cat "$(ls "$out"/sm_90a/*.json | grep -v '\.sequence\.json$' | head -1)"
