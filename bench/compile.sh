#!/usr/bin/env bash
# Compiles GEMV kernels for the GPU runs into OUTDIR (PTX + manifests).
#
#   bench/compile.sh OUTDIR NAME SPEC "PIPELINE OPTIONS"
#
# SPEC is a GEMV of scripts/nvfp4_ir.py (MxKxL[:format][:layout][:output]
# [:noalpha]); writes OUTDIR/NAME_<kernel>.{ptx,json}. Example:
#   bench/compile.sh ptx bench_r4 7168x16384x1 "chip=sm_90a rows-per-thread=4"
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
opt=${NVFP4_OPT:-$root/build/bin/nvfp4-opt}
[[ $# -eq 4 ]] || { echo "usage: $0 OUTDIR NAME SHAPE OPTIONS" >&2; exit 2; }
out=$1 name=$2 shape=$3 options=$4
mkdir -p "$out"
python3 "$root/scripts/nvfp4_ir.py" "$shape" |
  "$opt" --nvfp4-to-ptx="$options export-dir=$out export-prefix=${name}_" \
    -o /dev/null
