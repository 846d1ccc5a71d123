#!/usr/bin/env python3
"""Removes part of the decode from tensor-core GEMV PTX.

    bench/decode/strip_vector_decode.py [--a-scales] IN.ptx OUT.ptx

A probe of what the decode costs, not a kernel: wrong sums, to be timed
with nvfp4-run's tolerances opened (--rtol 1e30 --atol 1e30). By default
every instruction that depends on the words of the loop's vector load
(`ld.global.v4.b32`) goes, and each register the MMAs take as their B
operand becomes one `and.b32` of a loaded word (finite f16 values); the
vectors' scale chain is left dead, so ptxas drops it and its load as well.
With --a-scales only a's scale multiplies go (each `mul.rn.f16x2` of a
`prmt` result outside b's decode becomes a `mov`): what moving the scale
out of a's decode could bring.
"""
import re
import sys

REG = re.compile(r"%r[sd]?\d+")


def main(src, dst, a_scales):
    try:
        lines = open(src).read().split("\n")
    except OSError as e:
        sys.exit(f"{src}: {e.strerror}")
    load = next((i for i, l in enumerate(lines)
                 if re.match(r"\s+ld\.global\.v4\.b32\s", l)), None)
    if load is None:
        sys.exit(f"{src}: no vector load (ld.global.v4.b32): not a "
                 "tensor-core GEMV of packed vectors")
    words = REG.findall(lines[load].split("[")[0])
    tainted = set(words)
    keep, b_regs = [], []
    first_mma = None
    i = load + 1
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("mma.sync"):
            # mma spans five lines: opcode, D, A, B, C.
            if first_mma is None:
                first_mma = len(keep)
            b_regs += [r for r in REG.findall(lines[i + 3]) if r in tainted]
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
                i += 1
                continue
        keep.append(line)
        i += 1
    if first_mma is None or not b_regs:
        sys.exit(f"{src}: no MMA takes the vector load's words")
    if a_scales:
        out = strip_a_scales(lines, tainted)
        if out == lines:
            sys.exit(f"{src}: no scale multiply of a's operands")
    else:
        defs = [f"\tand.b32 \t{r}, {words[k % len(words)]}, 0x3C003C00;"
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
    a_scales = args[:1] == ["--a-scales"]
    if a_scales:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__.strip().split("\n")[2].strip())
    main(args[0], args[1], a_scales)
