#!/usr/bin/env python3
"""Removes the decode of the right-hand vectors from tensor-core GEMV PTX.

    bench/decode/strip_vector_decode.py IN.ptx OUT.ptx

A probe of what the vectors' decode costs, not a kernel: every instruction
that depends on the words of the loop's vector load (`ld.global.v4.b32`)
goes, and each register the MMAs take as their B operand becomes one
`and.b32` of a loaded word (finite f16 values, wrong sums). Time the result
with nvfp4-run's tolerances opened (--rtol 1e30 --atol 1e30). The vectors'
scale chain is left dead, so ptxas drops it and its load as well.
"""
import re
import sys

REG = re.compile(r"%r[sd]?\d+")


def main(src, dst):
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
    defs = [f"\tand.b32 \t{r}, {words[k % len(words)]}, 0x3C003C00;"
            for k, r in enumerate(dict.fromkeys(b_regs))]
    keep[first_mma:first_mma] = defs
    try:
        open(dst, "w").write("\n".join(lines[:load + 1] + keep))
    except OSError as e:
        sys.exit(f"{dst}: {e.strerror}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().split("\n")[2].strip())
    main(sys.argv[1], sys.argv[2])
