#!/usr/bin/env bash
# Runs the sweep compiled by bench/gpu-sweep/compile.sh on this machine's GPU
# (CUDA driver and toolkit for compute-sanitizer, CMake, Ninja; no LLVM):
#
#   bench/gpu-sweep/gpu.sh SWEEPDIR OUTDIR
#
# Builds nvfp4-run (bench/build-runner.sh), verifies every kernel against
# the float64 reference with the full and weak input distributions (seeds 1
# and 2) and the edge distributions extreme, overflow and cancel (seed 1;
# docs/numerics.md section 9), then runs compute-sanitizer memcheck and
# racecheck on every
# NVFP4_SWEEP_SANITIZE_EVERY-th kernel (default 10) with seed 1. Writes
# verify.jsonl, sanitize.log and summary.txt to OUTDIR, prints the summary
# and exits non-zero on any mismatch, error or sanitizer report.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[[ $# -eq 2 ]] || { echo "usage: $0 SWEEPDIR OUTDIR" >&2; exit 2; }
sweep=$1 out=$2
mkdir -p "$out"
build=$root/build-gpu
"$root/bench/build-runner.sh" "$build" "$out/build.log"
run=$build/bin/nvfp4-run
manifests=("$sweep"/kernels/*.json)
status=0

: > "$out/verify.jsonl"
for run_case in 1:full 1:weak 2:full 2:weak 1:extreme 1:overflow 1:cancel; do
  seed=${run_case%%:*} dist=${run_case#*:}
  # Verification is host-bound (the float64 reference): in parallel.
  printf '%s\n' "${manifests[@]}" |
    xargs -P "$(nproc)" -n 8 "$run" --seed "$seed" --dist "$dist" --json \
    >> "$out/verify.jsonl" 2>> "$out/verify.err" || status=1
done

sanitizer=${COMPUTE_SANITIZER:-compute-sanitizer}
every=${NVFP4_SWEEP_SANITIZE_EVERY:-10}
: > "$out/sanitize.log"
sanitized=0 sanitizer_errors=0
for i in "${!manifests[@]}"; do
  (( i % every == 0 )) || continue
  for tool in memcheck racecheck; do
    sanitized=$((sanitized + 1))
    # --timeout covers the slower instrumented launch; one child process
    # per manifest, which the sanitizer follows.
    if ! "$sanitizer" --tool "$tool" --target-processes all --error-exitcode 99 \
        "$run" --timeout 1200 "${manifests[$i]}" >> "$out/sanitize.log" 2>&1
    then
      sanitizer_errors=$((sanitizer_errors + 1))
      echo "SANITIZER $tool FAILED ${manifests[$i]}" >> "$out/sanitize.log"
    fi
  done
done
[[ $sanitizer_errors -eq 0 ]] || status=1

python3 - "$out" "${#manifests[@]}" "$sanitized" "$sanitizer_errors" <<'PY' |
import json, sys
out, kernels, sanitized, errors = sys.argv[1], *map(int, sys.argv[2:])
counts, by_dist = {}, {}
for line in open(f"{out}/verify.jsonl"):
    line = line.strip()
    if line.startswith("{"):
        result = json.loads(line)
        s = result.get("status", "?")
        counts[s] = counts.get(s, 0) + 1
        # Conversions and manifests that failed to run have no distribution.
        d = by_dist.setdefault(
            result.get("dist", "no distribution (conversions, errors)"), {})
        d[s] = d.get(s, 0) + 1
runs = sum(counts.values())
print(f"kernels: {kernels}; verification runs: {runs} "
      f"(full and weak with seeds 1 and 2; extreme, overflow and cancel "
      f"with seed 1); " +
      ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
order = ["full", "weak", "extreme", "overflow", "cancel"]
for dist in sorted(by_dist, key=lambda d: (order + [d]).index(d)):
    print(f"  {dist}: " +
          ", ".join(f"{k} {v}" for k, v in sorted(by_dist[dist].items())))
print(f"mismatches: {counts.get('fail', 0)}; errors: {counts.get('error', 0)}")
print(f"sanitizer runs (memcheck + racecheck): {sanitized}; "
      f"with errors: {errors}")
PY
  tee "$out/summary.txt"
grep -q '"status":"fail"\|"status":"error"' "$out/verify.jsonl" && status=1
exit $status
