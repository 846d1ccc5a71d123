#!/usr/bin/env bash
# Compiles the GEMV suite (bench/suite/shapes.py) into OUTDIR, one
# subdirectory of PTX + manifests per variant:
#
#   bench/suite/compile.sh OUTDIR [WHICH [VARIANT...]]
#
# WHICH is a shapes.py selection (default all) or a file of "name M K L"
# lines in shapes.py's format (e.g. bench/suite/sets/mid-band.txt); a
# VARIANT is FORMAT:LAYOUT (default nvfp4:linear). Extra pipeline options
# (e.g. to try a configuration on every shape) come from
# NVFP4_SUITE_OPTIONS.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
opt=${NVFP4_OPT:-$root/build/bin/nvfp4-opt}
[[ $# -ge 1 ]] || { echo "usage: $0 OUTDIR [WHICH [VARIANT...]]" >&2; exit 2; }
out=$1
which=${2:-all}
shift $(( $# >= 2 ? 2 : 1 ))
variants=("$@")
[[ ${#variants[@]} -gt 0 ]] || variants=(nvfp4:linear)
mkdir -p "$out"
if [[ -f $which ]]; then
  cp "$which" "$out/shapes.txt"
else
  python3 "$root/bench/suite/shapes.py" "$which" > "$out/shapes.txt"
fi
for variant in "${variants[@]}"; do
  format=${variant%%:*} layout=${variant#*:}
  dir=$out/${format}_${layout}
  rm -rf "$dir" && mkdir -p "$dir"
  # MXFP4 needs K a multiple of 32: round up.
  specs=$(awk -v f="$format" -v l="$layout" '!/^#/ {
      k = $3; if (f == "mxfp4" && k % 32) k += 16;
      s = $2 "x" k "x" $4 ":" f ":" l; if (!(s in seen)) printf "%s ", s;
      seen[s] = 1 }' "$out/shapes.txt")
  # shellcheck disable=SC2086
  python3 "$root/scripts/nvfp4_ir.py" $specs |
    "$opt" --nvfp4-to-ptx="chip=sm_90a ${NVFP4_SUITE_OPTIONS:-} export-dir=$dir" \
      -o /dev/null
  echo "$variant: $(ls "$dir"/*.json | grep -v '\.sequence\.json$' | wc -l) kernels in $dir"
done
