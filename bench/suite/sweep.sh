#!/usr/bin/env bash
# Compiles every configuration of bench/suite/candidates.txt (or of the
# file NVFP4_SWEEP_CANDIDATES names) for a shape selection or shapes file,
# one variant directory per configuration, for bench/suite/gpu.sh
# (NVFP4_SUITE_VERIFY=0 NVFP4_SUITE_FLUSH=clean) and
# bench/suite/sweep_report.py:
#
#   bench/suite/sweep.sh OUTDIR [WHICH [VARIANT]]
#
# WHICH is bench/suite/compile.sh's (default "tune"), VARIANT defaults to
# nvfp4:linear. A configuration that cannot lower some shape is reported
# and left out.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[[ $# -ge 1 ]] || { echo "usage: $0 OUTDIR [WHICH [VARIANT]]" >&2; exit 2; }
out=$1 which=${2:-tune} variant=${3:-nvfp4:linear}
rm -rf "$out" && mkdir -p "$out"
candidates=${NVFP4_SWEEP_CANDIDATES:-$root/bench/suite/candidates.txt}
[[ -f $candidates ]] || { echo "sweep.sh: no candidates file $candidates" >&2; exit 1; }
grep -v '^#' "$candidates" | while read -r name options; do
  [[ -n $name ]] || continue
  if NVFP4_SUITE_OPTIONS="$options" "$root/bench/suite/compile.sh" \
      "$out/.work" "$which" "$variant" >/dev/null 2>"$out/$name.err"; then
    mv "$out/.work/${variant/:/_}" "$out/$name"
    rm "$out/$name.err"
    echo "$name: $(ls "$out/$name"/*.json | grep -v '\.sequence\.json$' | wc -l) kernels"
  else
    echo "$name: does not lower every shape ($out/$name.err)"
  fi
done
mv "$out/.work/shapes.txt" "$out/shapes.txt" 2>/dev/null || true
rm -rf "$out/.work"
