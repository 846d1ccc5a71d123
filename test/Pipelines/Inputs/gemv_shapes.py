#!/usr/bin/env python3
"""Prints a module with one nvfp4.gemv function per shape given on the
command line, for the PTX tests.

A shape is M x K x L with optional variant fields, separated by colons:

    MxKxL[:nvfp4|mxfp4][:linear|blocked128x4][:f16|bf16|f32][:noalpha]

The defaults are those of the reference problem: nvfp4 (e4m3fn scales per 16
values), linear scales, f16 output, with alpha. Operand shapes follow the
nvfp4.gemv documentation (batch outermost).
"""
import sys

FORMATS = {"nvfp4": (16, "f8E4M3FN"), "mxfp4": (32, "f8E8M0FNU")}
LAYOUTS = ("linear", "blocked128x4")
OUTPUTS = ("f16", "bf16", "f32")


def ceil_div(a, b):
    return (a + b - 1) // b


def parse(spec):
    fields = spec.split(":")
    m, k, l = (int(x) for x in fields[0].split("x"))
    shape = {"m": m, "k": k, "l": l, "format": "nvfp4", "layout": "linear",
             "output": "f16", "alpha": True}
    for field in fields[1:]:
        if field in FORMATS:
            shape["format"] = field
        elif field in LAYOUTS:
            shape["layout"] = field
        elif field in OUTPUTS:
            shape["output"] = field
        elif field == "noalpha":
            shape["alpha"] = False
        else:
            sys.exit(f"unknown variant '{field}' in '{spec}'")
    return shape


def memref(dims, elem):
    return "memref<" + "x".join(str(d) for d in dims) + "x" + elem + ">"


def function(s):
    m, k, l = s["m"], s["k"], s["l"]
    block, scale = FORMATS[s["format"]]
    cols = k // block
    if s["layout"] == "linear":
        sfa, sfb = [l, m, cols], [l, cols]
    else:
        sfa = [l, ceil_div(m, 128), ceil_div(cols, 4), 512]
        sfb = [l, 1, ceil_div(cols, 4), 512]
    types = [memref([l, m, k // 2], "i8"), memref(sfa, scale),
             memref([l, k // 2], "i8"), memref(sfb, scale),
             memref([l, m], s["output"])]
    name = f"gemv_{m}x{k}x{l}_{s['format']}_{s['layout']}_{s['output']}"
    args = ["%a", "%sfa", "%b", "%sfb", "%c"]
    params = [f"{a}: {t}" for a, t in zip(args, types)]
    alpha = ""
    if s["alpha"]:
        params.append("%alpha: f32")
        alpha = " alpha(%alpha)"
    else:
        name += "_noalpha"
    return (
        f"func.func @{name}({', '.join(params)}) {{\n"
        f"  nvfp4.gemv <{s['format']}> <{s['layout']}> %a, %sfa, %b, %sfb "
        f"into %c{alpha}\n"
        f"      : {types[0]}, {types[1]}, {types[2]}, {types[3]} "
        f"into {types[4]}\n"
        f"  return\n"
        f"}}\n")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("\n".join(function(parse(spec)) for spec in sys.argv[1:]), end="")


if __name__ == "__main__":
    main()
