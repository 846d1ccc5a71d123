#!/usr/bin/env bash
# Gathers the kernels two compiled suites disagree on, for one timed run
# that compares them (bench/suite/gpu.sh, then bench/suite/compare.py):
#
#   bench/suite/pair.sh BASEDIR NEWDIR OUTDIR [--repeat]
#
# BASEDIR and NEWDIR are bench/suite/compile.sh outputs (one subdirectory
# per variant, e.g. before and after a change, or without and with an
# option). Every kernel of NEWDIR whose PTX differs from BASEDIR's kernel
# of the same variant and name goes to OUTDIR/new, BASEDIR's to
# OUTDIR/base (manifests with them); kernel names carry the format and
# layout, so the variants share the two directories. --repeat also copies
# base to OUTDIR/zbase, timed last, to see the run's drift.
set -euo pipefail
usage() { echo "usage: $0 BASEDIR NEWDIR OUTDIR [--repeat]" >&2; exit 2; }
[[ $# -eq 3 || ( $# -eq 4 && $4 == --repeat ) ]] || usage
base=$1 new=$2 out=$3
[[ -d $base && -d $new ]] || { echo "pair.sh: no directory $base or $new" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/base" "$out/new"
[[ -f $new/shapes.txt ]] && cp "$new/shapes.txt" "$out/"
count=0
for ptx in "$new"/*/*.ptx; do
  [[ -e $ptx ]] || continue
  variant=$(basename "$(dirname "$ptx")") kernel=$(basename "$ptx" .ptx)
  old=$base/$variant/$kernel.ptx
  [[ -f $old ]] || { echo "pair.sh: $variant/$kernel is not in $base" >&2; exit 1; }
  cmp -s "$ptx" "$old" && continue
  cp "$old" "$base/$variant/$kernel.json" "$out/base/"
  cp "$ptx" "$new/$variant/$kernel.json" "$out/new/"
  count=$((count + 1))
done
[[ ${4:-} == --repeat ]] && cp -r "$out/base" "$out/zbase"
echo "pair.sh: $count kernels differ ($out/base, $out/new)"
