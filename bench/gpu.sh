#!/usr/bin/env bash
# Runs the kernels of PTXDIR on this machine's GPU.
#
#   bench/gpu.sh PTXDIR [OUTDIR]
#
# Builds nvfp4-run (no MLIR needed), verifies every PTXDIR/*.json manifest
# with two seeds and both input distributions, times the bench_*.json ones
# (docs/problem.md section 4: cold L2, events, median of 200), and prints a summary
# last. Logs go to OUTDIR when given. Exits non-zero when any verification
# fails or any manifest cannot be run.
set -euo pipefail

die() { echo "gpu.sh: error: $*" >&2; exit 1; }

[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: $0 PTXDIR [OUTDIR]" >&2; exit 2; }
ptxdir=$1
[[ -d $ptxdir ]] || die "$ptxdir is not a directory"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build-gpu
reps=${NVFP4_BENCH_REPS:-200}
seeds=(1 2)
dists=(full weak)

if [[ $# -eq 2 ]]; then
  logs=$2
  mkdir -p "$logs"
else
  logs=$(mktemp -d)
  trap 'rm -rf "$logs"' EXIT
fi

shopt -s nullglob
manifests=("$ptxdir"/*.json)
bench=("$ptxdir"/bench_*.json)
[[ ${#manifests[@]} -gt 0 ]] || die "no *.json manifests in $ptxdir"

echo "== build ($build)"
if ! "$root/bench/build-runner.sh" "$build" "$logs/build.log"; then
  tail -n 40 "$logs/build.log" >&2
  die "building nvfp4-run failed (log: $logs/build.log)"
fi
run=$build/bin/nvfp4-run

# A kernel that hangs must not hang the script.
limit=900
status=0

echo "== verify: ${#manifests[@]} manifests x seeds ${seeds[*]} x ${dists[*]}"
: >"$logs/verify.log"
for seed in "${seeds[@]}"; do
  for dist in "${dists[@]}"; do
    if ! timeout "$limit" "$run" --seed "$seed" --dist "$dist" \
        "${manifests[@]}" 2>&1 | tee -a "$logs/verify.log"; then
      status=1
    fi
  done
done

: >"$logs/bench.log"
if [[ ${#bench[@]} -gt 0 ]]; then
  echo "== bench: ${#bench[@]} manifests, $reps repetitions"
  if ! timeout "$limit" "$run" --bench --reps "$reps" "${bench[@]}" 2>&1 |
      tee "$logs/bench.log"; then
    status=1
  fi
fi

# Summary: counts, then one row per timed kernel parsed from the BENCH lines.
pass=$(grep -c '^PASS ' "$logs/verify.log" || true)
fail=$(grep -c '^FAIL ' "$logs/verify.log" || true)
errors=$(cat "$logs/verify.log" "$logs/bench.log" |
         grep -c '^nvfp4-run: error:' || true)
expected=$(( ${#manifests[@]} * ${#seeds[@]} * ${#dists[@]} ))
echo
echo "== summary"
grep -h -E '^(DEVICE|COPY) ' "$logs/bench.log" || true
echo "verification: $pass of $expected passed, $fail failed, $errors errors"
if [[ ${#bench[@]} -gt 0 ]]; then
  printf '%-28s %-24s %-20s %10s %9s %8s %10s\n' manifest shape format \
    'median_us' 'GB/s' '%copy' 'floor_us'
  # gemv lines name shape, format, layout and output; conversion lines
  # shape, direction and element type.
  sed -nE 's/^BENCH [^ ]+ ([^ ]+) ([^ ]+) ([^ :]+) ?([^:]*): ([0-9.]+) us median .*\), ([0-9.]+) GB\/s, ([0-9.]+)% of copy .*floor ([0-9.]+) us \[(.*)\]$/\9 \1 \2-\3-\4 \5 \6 \7 \8/p' \
      "$logs/bench.log" |
    while read -r name shape format median gbps pct floor; do
      format=${format%-}
      printf '%-28s %-24s %-20s %10s %9s %8s %10s\n' "$name" "$shape" \
        "$format" "$median" "$gbps" "$pct" "$floor"
    done
fi
if [[ $status -ne 0 || $pass -ne $expected ]]; then
  echo "gpu.sh: FAILED: not every manifest verified (see the FAIL and error lines above)" >&2
  exit 1
fi
echo "all verified"
