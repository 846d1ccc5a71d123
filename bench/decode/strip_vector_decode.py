#!/usr/bin/env python3
"""Removes part of the decode from tensor-core GEMV PTX.

    bench/decode/strip_vector_decode.py [--a-scales | --a-decode] IN.ptx OUT.ptx

A probe of what the decode costs, not a kernel: wrong sums, to be timed
with `nvfp4-run --bench --time-failing`. By default every instruction that
depends on the words of the loop's vector load (`ld.global.v4.b32`) goes,
and each register the MMAs take as their B operand becomes one `and.b32`
of a loaded word (finite f16 values); the vectors' scale chain is left
dead, so ptxas drops it and its load as well. With --a-scales only a's
scale multiplies go (each `mul.rn.f16x2` of a `prmt` result outside b's
decode becomes a `mov`): what moving the scale out of a's decode could
bring. With --a-decode the same as the default is done to a's loads
(`ld.global.nc.L1::no_allocate.v4.u32`) and the MMAs' A operands instead,
except that an operand which was a multiple of a scale is the `and.b32` of
a word with that scale, so that a's scales are still loaded and
converted: what any cheaper decode of a could bring.
"""
import re
import sys

REG = re.compile(r"%r[sd]?\d+")


B_LOAD = r"\s+ld\.global\.v4\.b32\s"
A_LOAD = r"\s+ld\.global\.nc\.L1::no_allocate\.v4\.u32\s"


def main(src, dst, mode):
    try:
        lines = open(src).read().split("\n")
    except OSError as e:
        sys.exit(f"{src}: {e.strerror}")
    a_decode = mode == "--a-decode"
    loads = [i for i, l in enumerate(lines)
             if re.match(A_LOAD if a_decode else B_LOAD, l)]
    if not loads and a_decode:
        sys.exit(f"{src}: no load of a (ld.global.nc.L1::no_allocate.v4.u32):"
                 " not a tensor-core GEMV")
    if not loads:
        sys.exit(f"{src}: no vector load (ld.global.v4.b32): not a "
                 "tensor-core GEMV of packed vectors")
    load = loads[0]
    words = [r for i in loads for r in REG.findall(lines[i].split("[")[0])]
    tainted = set(words)
    operand = 2 if a_decode else 3  # the MMA's line of A or of B
    keep, b_regs = [], []
    scale_of = {}  # a removed multiply's result: its other (kept) operand
    first_mma = None
    i = load + 1
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("mma.sync"):
            # mma spans five lines: opcode, D, A, B, C.
            if first_mma is None:
                first_mma = len(keep)
            b_regs += [r for r in REG.findall(lines[i + operand])
                       if r in tainted]
            keep += lines[i:i + 5]
            i += 5
            continue
        if "bra" in line:
            keep += lines[i:]
            break
        regs = REG.findall(line.split("//")[0])
        if regs and line.strip()[0].isalpha():
            dst_part = line.split(",")[0] if "{" not in line.split(",")[0] \
                else line[:line.index("}") + 1]
            dsts = REG.findall(dst_part)
            srcs = [r for r in regs if r not in dsts]
            if any(r in tainted for r in srcs):
                tainted.update(dsts)
                scale = [r for r in srcs if r not in tainted]
                if a_decode and line.strip().startswith("mul.") and scale:
                    scale_of[dsts[0]] = scale[0]
                i += 1
                continue
        keep.append(line)
        i += 1
    if first_mma is None or not b_regs:
        sys.exit(f"{src}: no MMA takes the "
                 f"{'loads of a' if a_decode else 'vector load'}'s words")
    if mode == "--a-scales":
        out = strip_a_scales(lines, tainted)
        if out == lines:
            sys.exit(f"{src}: no scale multiply of a's operands")
    else:
        # An operand that was a multiple of a kept scale takes its bits
        # from it, so that the scale's load and conversion stay.
        defs = [f"\tand.b32 \t{r}, {words[k % len(words)]}, "
                f"{scale_of.get(r, '0x3C003C00')};"
                for k, r in enumerate(dict.fromkeys(b_regs))]
        keep[first_mma:first_mma] = defs
        out = lines[:load + 1] + keep
    try:
        open(dst, "w").write("\n".join(out))
    except OSError as e:
        sys.exit(f"{dst}: {e.strerror}")


def strip_a_scales(lines, b_decode):
    """`lines` with each f16 multiply of a `prmt` result outside
    `b_decode` (the registers b's decode defines) turned into a copy."""
    prmts = {REG.findall(l)[0] for l in lines
             if re.match(r"\s+prmt\.b32\s", l)} - b_decode
    out = []
    for line in lines:
        m = re.match(r"(\s+)mul\.rn\.f16x2\s+(%r\d+), (%r\d+), (%r\d+);",
                     line)
        operand = m and next((r for r in m.group(3, 4) if r in prmts), None)
        out.append(f"{m.group(1)}mov.b32 \t{m.group(2)}, {operand};"
                   if operand else line)
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    mode = args[0] if args[:1] in (["--a-scales"], ["--a-decode"]) else ""
    if mode:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__.strip().split("\n")[2].strip())
    main(args[0], args[1], mode)
