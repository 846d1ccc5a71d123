#!/usr/bin/env python3
"""The one writer of nvfp4 test and benchmark IR: prints a module with one
function per operation given on the command line (the PTX and GPU tests, the
benchmark scripts and nvfp4-sim-check's variants all use it).

A GEMV is M x K x L with optional variant fields, separated by colons:

    MxKxL[:nvfp4|mxfp4][:linear|blocked128x4][:f16|bf16|f32][:nN]
         [:vf16|vbf16][:noalpha][:tiled]

The defaults are those of the reference problem: nvfp4 (e4m3fn scales per 16
values), linear scales, f16 output, one vector of packed e2m1 values with its
scales, with alpha. `nN` (1 <= N <= 16) gives b a vector dimension: N vectors
b [L, N, ...] with c [L, N, M] (without it, b [L, ...] and c [L, M]).
`vf16` and `vbf16` make b 16-bit values, [L, K] or [L, N, K], with no sfb
operand. `tiled` gives the op `tiled_codes`: a holds its codes in the
tensor-core kernel's order (M a multiple of 16, K of 128). A scale layout
conversion is

    convert:ROWSxCOLSxL:e4m3|ue8m0:FROM:TO

and a quantization or its inverse, of ROWS x K values a batch:

    quantize:ROWSxKxL:FORMAT:LAYOUT:f32|f16|bf16[:2l]
    dequantize:ROWSxKxL:FORMAT:LAYOUT:f32|f16|bf16[:gs]

where `2l` (NVFP4 only) writes the two-level global scale and `gs` reads
one.

Operand shapes follow the nvfp4 op documentation (batch outermost). A
malformed spec raises SpecError; the command line prints it and exits 1.
"""
import re
import sys

FORMATS = {"nvfp4": (16, "f8E4M3FN"), "mxfp4": (32, "f8E8M0FNU")}
SCALES = {"e4m3": "f8E4M3FN", "ue8m0": "f8E8M0FNU"}
LAYOUTS = ("linear", "blocked128x4")
OUTPUTS = ("f16", "bf16", "f32")
# The element type of b: packed e2m1 (with scales sfb) or 16-bit values.
VECTORS = {"e2m1": "i8", "f16": "f16", "bf16": "bf16"}
MAX_VECTORS = 16


class SpecError(ValueError):
    """A GEMV or conversion spec this writer cannot turn into IR."""


def ceil_div(a, b):
    return (a + b - 1) // b


def memref(dims, elem):
    return "memref<" + "x".join(str(d) for d in dims) + "x" + elem + ">"


def scale_memref(layout, rows, cols, l, elem, vector=False):
    """The scale operand of `rows` x `cols` scales per batch in `layout`; a
    linear vector operand (`vector`) has no row dimension."""
    if layout == "linear":
        return memref([l, cols] if vector else [l, rows, cols], elem)
    return memref([l, ceil_div(rows, 128), ceil_div(cols, 4), 512], elem)


def parse_shape(text, spec):
    """The three positive sizes of `AxBxC`."""
    sizes = text.split("x")
    if len(sizes) != 3 or not all(x.isdigit() and int(x) > 0 for x in sizes):
        raise SpecError(f"expected three positive sizes AxBxC, got '{text}' "
                        f"in '{spec}'")
    return tuple(int(x) for x in sizes)


def parse_gemv(spec):
    """The shape dict of a GEMV spec: m, k, l, format, layout, output, alpha,
    n (the number of vectors, None for the one-vector form), vector (the
    element type of b: e2m1, f16 or bf16) and tiled (a's codes tiled)."""
    fields = spec.split(":")
    m, k, l = parse_shape(fields[0], spec)
    shape = {"m": m, "k": k, "l": l, "format": "nvfp4", "layout": "linear",
             "output": "f16", "alpha": True, "n": None, "vector": "e2m1",
             "tiled": False}
    for field in fields[1:]:
        if field in FORMATS:
            shape["format"] = field
        elif field in LAYOUTS:
            shape["layout"] = field
        elif field in OUTPUTS:
            shape["output"] = field
        elif field == "noalpha":
            shape["alpha"] = False
        elif field == "tiled":
            shape["tiled"] = True
        elif re.fullmatch(r"n[0-9]+", field):
            n = int(field[1:])
            if not 1 <= n <= MAX_VECTORS:
                raise SpecError(f"N = {n} vectors is not in 1..{MAX_VECTORS} "
                                f"in '{spec}'")
            shape["n"] = n
        elif field.startswith("v"):
            # Packed e2m1 b is the default, spelled by no field.
            if field[1:] not in VECTORS or field == "ve2m1":
                raise SpecError(f"unknown vector type '{field}' (vf16 or "
                                f"vbf16) in '{spec}'")
            shape["vector"] = field[1:]
        else:
            raise SpecError(f"unknown variant '{field}' in '{spec}'")
    return shape


def vector_suffix(s, sep):
    """The n and vector fields of `s` that differ from the default, each
    after `sep`."""
    suffix = ""
    if s.get("n") is not None:
        suffix += f"{sep}n{s['n']}"
    if s.get("vector", "e2m1") != "e2m1":
        suffix += f"{sep}v{s['vector']}"
    return suffix


def gemv_spec(s):
    """The spec of the shape dict `s` (parse_gemv's result), every field
    spelled out: parse_gemv(gemv_spec(s)) == s. n, vector and tiled may be
    absent from `s` (the one packed vector, row-major codes)."""
    return (f"{s['m']}x{s['k']}x{s['l']}:{s['format']}:{s['layout']}:"
            f"{s['output']}" + vector_suffix(s, ":") +
            ("" if s["alpha"] else ":noalpha") +
            (":tiled" if s.get("tiled") else ""))


def gemv_name(s):
    name = f"gemv_{s['m']}x{s['k']}x{s['l']}_{s['format']}_{s['layout']}_"
    return (name + s["output"] + vector_suffix(s, "_") +
            ("" if s["alpha"] else "_noalpha") +
            ("_tiled" if s.get("tiled") else ""))


def gemv_function(spec, name=None):
    s = parse_gemv(spec)
    m, k, l = s["m"], s["k"], s["l"]
    block, scale = FORMATS[s["format"]]
    cols = k // block
    if cols * block != k:
        raise SpecError(f"K = {k} is not a multiple of {block} in '{spec}'")
    n, packed = s["n"], s["vector"] == "e2m1"
    # b and c: [L, ...] for one vector, [L, N, ...] for N vectors.
    outer = [l] if n is None else [l, n]
    operands = [("%a", memref([l, m, k // 2], "i8")),
                ("%sfa", scale_memref(s["layout"], m, cols, l, scale)),
                ("%b", memref(outer + [k // 2 if packed else k],
                              VECTORS[s["vector"]]))]
    if packed:
        operands.append(("%sfb", scale_memref(s["layout"], n or 1, cols, l,
                                              scale, vector=n is None)))
    c = memref(outer + [m], s["output"])
    params = [f"{a}: {t}" for a, t in operands + [("%c", c)]]
    alpha = ""
    if s["alpha"]:
        params.append("%alpha: f32")
        alpha = " alpha(%alpha)"
    return (
        f"func.func @{name or gemv_name(s)}({', '.join(params)}) {{\n"
        f"  nvfp4.gemv <{s['format']}> <{s['layout']}> "
        f"{'tiled_codes ' if s['tiled'] else ''}"
        f"{', '.join(a for a, _ in operands)} into %c{alpha}\n"
        f"      : {', '.join(t for _, t in operands)} into {c}\n"
        f"  return\n"
        f"}}\n")


def parse_convert(spec):
    fields = spec.split(":")
    if len(fields) != 5:
        raise SpecError(f"expected convert:ROWSxCOLSxL:SCALE:FROM:TO, got "
                        f"'{spec}'")
    _, shape, scale, src, dst = fields
    rows, cols, l = parse_shape(shape, spec)
    if scale not in SCALES:
        raise SpecError(f"unknown scale type '{scale}' in '{spec}'")
    for layout in (src, dst):
        if layout not in LAYOUTS:
            raise SpecError(f"unknown layout '{layout}' in '{spec}'")
    return rows, cols, l, scale, src, dst


def convert_function(spec, name=None):
    rows, cols, l, scale, src, dst = parse_convert(spec)
    s = scale_memref(src, rows, cols, l, SCALES[scale])
    d = scale_memref(dst, rows, cols, l, SCALES[scale])
    name = name or f"convert_{rows}x{cols}x{l}_{scale}_{src}_to_{dst}"
    return (f"func.func @{name}(%src: {s}, %dst: {d}) {{\n"
            f"  nvfp4.convert_scale_layout %src, %dst from <{src}> to <{dst}>"
            f" : {s} to {d}\n  return\n}}\n")


def parse_quantize(spec):
    """(op, rows, k, l, format, layout, element type, global scale) of a
    quantize or dequantize spec."""
    fields = spec.split(":")
    op = fields[0]
    flag = "2l" if op == "quantize" else "gs"
    if len(fields) not in (5, 6) or (len(fields) == 6 and fields[5] != flag):
        raise SpecError(f"expected {op}:ROWSxKxL:FORMAT:LAYOUT:TYPE[:{flag}], "
                        f"got '{spec}'")
    rows, k, l = parse_shape(fields[1], spec)
    fmt, layout, elem = fields[2:5]
    if fmt not in FORMATS:
        raise SpecError(f"unknown format '{fmt}' in '{spec}'")
    if layout not in LAYOUTS:
        raise SpecError(f"unknown layout '{layout}' in '{spec}'")
    if elem not in OUTPUTS:
        raise SpecError(f"unknown element type '{elem}' in '{spec}'")
    block = FORMATS[fmt][0]
    if k % block:
        raise SpecError(f"K = {k} is no multiple of the {fmt} block ({block}) "
                        f"in '{spec}'")
    two_level = len(fields) == 6
    if two_level and fmt != "nvfp4":
        raise SpecError(f"only nvfp4 has a global scale, in '{spec}'")
    return op, rows, k, l, fmt, layout, elem, two_level


def quantize_function(spec, name=None):
    op, rows, k, l, fmt, layout, elem, two_level = parse_quantize(spec)
    values = memref([l, rows, k], elem)
    data = memref([l, rows, k // 2], "i8")
    block, scale_elem = FORMATS[fmt]
    scales = scale_memref(layout, rows, k // block, l, scale_elem)
    gs_param = ", %gs: memref<f32>" if two_level else ""
    gs_use = " global_scale(%gs)" if two_level else ""
    gs_type = ", memref<f32>" if two_level else ""
    suffix = (":" + spec.split(":")[5]) if two_level else ""
    name = name or (f"{op}_{rows}x{k}x{l}_{fmt}_{layout}_{elem}"
                    + suffix.replace(":", "_"))
    if op == "quantize":
        return (f"func.func @{name}(%x: {values}, %q: {data}, %s: {scales}"
                f"{gs_param}) {{\n"
                f"  nvfp4.quantize <{fmt}> <{layout}> %x into %q, %s{gs_use}\n"
                f"      : {values} into {data}, {scales}{gs_type}\n"
                f"  return\n}}\n")
    return (f"func.func @{name}(%q: {data}, %s: {scales}, %y: {values}"
            f"{gs_param}) {{\n"
            f"  nvfp4.dequantize <{fmt}> <{layout}> %q, %s{gs_use} into %y\n"
            f"      : {data}, {scales}{gs_type} into {values}\n"
            f"  return\n}}\n")


def function(spec, name=None):
    if spec.startswith("convert:"):
        return convert_function(spec, name)
    if spec.startswith(("quantize:", "dequantize:")):
        return quantize_function(spec, name)
    return gemv_function(spec, name)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    try:
        module = "\n".join(function(spec) for spec in sys.argv[1:])
    except SpecError as error:
        sys.exit(f"nvfp4_ir.py: error: {error}")
    print(module, end="")


if __name__ == "__main__":
    main()
