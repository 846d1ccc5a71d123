#!/usr/bin/env bash
# Runs the compiled suite on this machine's GPU (CUDA, CMake and Ninja; no
# LLVM needed):
#
#   bench/suite/gpu.sh SUITEDIR OUTDIR
#
# Builds nvfp4-run and read_once, verifies every kernel of every variant
# directory (seed 1, Full inputs, float64 reference), times each with
# nvfp4-run --bench (cold L2, median of 200) and measures the read-once
# ceiling of each kernel's byte count in the same run, for each flush mode
# in NVFP4_SUITE_FLUSH (default "clean dirty"); then prints the report
# (bench/suite/report.py). Exits non-zero when a verification fails.
# NVFP4_SUITE_REPS sets the timed repetitions (default 200, at least 100);
# NVFP4_SUITE_VERIFY=0 skips the seeded verification (a configuration sweep:
# the timed run still checks its output against the reference).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[[ $# -eq 2 ]] || { echo "usage: $0 SUITEDIR OUTDIR" >&2; exit 2; }
suite=$1 out=$2
mkdir -p "$out"
build=$root/build-gpu
"$root/bench/build-runner.sh" "$build" "$out/build.log"
nvcc -O3 -arch=sm_90a -o "$build/read_once" "$root/bench/suite/read_once.cu"
run=$build/bin/nvfp4-run
status=0
for dir in "$suite"/*/; do
  variant=$(basename "$dir")
  if [[ ${NVFP4_SUITE_VERIFY:-1} != 0 ]]; then
    # Verification is host-bound (the float64 reference): in parallel, on
    # the manifests (not the functions' sequence files).
    manifests=$(ls "$dir"/*.json | grep -v '\.sequence\.json$')
    echo "$manifests" | xargs -P "$(nproc)" -n 4 "$run" --seed 1 --json \
      > "$out/verify_$variant.jsonl" 2>&1 || status=1
    echo "$variant verified: $(grep -cE '"status": ?"pass"' \
      "$out/verify_$variant.jsonl" || true) of $(echo "$manifests" | wc -l)"
  fi
  # Weak inputs (few distinct values: the fastest decode) need e2m1
  # vectors; 16-bit vectors and the quantizers take Full.
  dist=weak
  if grep -qE '"vector": *"b?f16"|"op": *"(de)?quantize' "$dir"/*.json; then
    dist=full
  fi
  for flush in ${NVFP4_SUITE_FLUSH:-clean dirty}; do
    "$run" --bench --json --flush "$flush" --dist "$dist" \
      --reps "${NVFP4_SUITE_REPS:-200}" "$dir"/*.json \
      > "$out/bench_${variant}_$flush.jsonl" 2>&1 || status=1
  done
done
for flush in ${NVFP4_SUITE_FLUSH:-clean dirty}; do
  # The ceiling is smooth in the byte count: measuring it for one variant's
  # sizes (NVFP4_SUITE_CEILING_VARIANT) and interpolating saves device time.
  sizes=$(cat "$out"/bench_${NVFP4_SUITE_CEILING_VARIANT:-*}_"$flush".jsonl |
    python3 -c 'import json,sys
print(" ".join(sorted({str(json.loads(l)["bench"]["unique_bytes"]) for l in sys.stdin if "\"bench\"" in l})))')
  # shellcheck disable=SC2086
  "$build/read_once" --flush "$flush" $sizes > "$out/ceiling_$flush.txt"
done
python3 "$root/bench/suite/report.py" "$suite" "$out" | tee "$out/report.md"
exit $status
