#!/usr/bin/env python3
"""Writes the nvfp4 IR of one batched GEMV: make_gemv.py M K L [options].

Used by bench/compile.sh to build kernels for any shape; the IR is the same
as the examples/ files, with the shape, format, layout and output chosen on
the command line.
"""
import argparse

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("m", type=int)
parser.add_argument("k", type=int)
parser.add_argument("l", type=int)
parser.add_argument("--format", choices=["nvfp4", "mxfp4"], default="nvfp4")
parser.add_argument("--layout", choices=["linear", "blocked128x4"],
                    default="linear")
parser.add_argument("--output", choices=["f16", "bf16", "f32"], default="f16")
parser.add_argument("--no-alpha", action="store_true")
args = parser.parse_args()

block = 16 if args.format == "nvfp4" else 32
scale = "f8E4M3FN" if args.format == "nvfp4" else "f8E8M0FNU"
if args.k % block:
    parser.error(f"K = {args.k} is not a multiple of {block}")
m, k, l = args.m, args.k, args.l
cols = k // block
if args.layout == "linear":
    sfa = f"memref<{l}x{m}x{cols}x{scale}>"
    sfb = f"memref<{l}x{cols}x{scale}>"
else:
    rb, cb = (m + 127) // 128, (cols + 3) // 4
    sfa = f"memref<{l}x{rb}x{cb}x512x{scale}>"
    sfb = f"memref<{l}x1x{cb}x512x{scale}>"
a = f"memref<{l}x{m}x{k // 2}xi8>"
b = f"memref<{l}x{k // 2}xi8>"
c = f"memref<{l}x{m}x{args.output}>"
alpha_arg = "" if args.no_alpha else ", %alpha: f32"
alpha_use = "" if args.no_alpha else " alpha(%alpha)"
print(f"""func.func @gemv(%a: {a}, %sfa: {sfa}, %b: {b}, %sfb: {sfb},
                 %c: {c}{alpha_arg}) {{
  nvfp4.gemv <{args.format}> <{args.layout}> %a, %sfa, %b, %sfb into %c{alpha_use}
      : {a}, {sfa}, {b}, {sfb} into {c}
  return
}}""")
