#!/usr/bin/env python3
"""Removes part of the decode from tensor-core GEMV PTX.

    bench/decode/strip_vector_decode.py [MODE] IN.ptx OUT.ptx
    MODE: --a-scales | --a-decode | --a-scale-loads | --a-scale-line
          | --no-mma | --half-mma

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

--a-scale-loads and --a-scale-line touch only a's 16-bit scale loads
(`ld.global.b16` after a load of a, before b's): --a-scale-loads makes each
a constant (e4m3 1.25 twice; the multiplies stay), what reading no scales
of a brings; --a-scale-line makes the 2 or 4 of a step of the K loop one
8- or 16-byte load at the first one's address rounded down, each pair
shifted out of its word by 16 (address & 2) bits, the loads of rows 32
apart (whose lines these are only where the rows are; here the lines of
other rows, read by several warps).

--no-mma keeps the whole decode and replaces each MMA by integer and
float instructions that still read all its operands: three `lop3.b32`
fold its A and B registers into one word, which is added (`add.f32`) to
the first accumulator; the other three are copied. What the tensor cores
themselves cost, the clock they run the SMs at included. --half-mma
does so to every other MMA (the first, the third, ...): whether that cost
follows the number of MMAs.
"""
import re
import sys

REG = re.compile(r"%r[sd]?\d+")


B_LOAD = r"\s+ld\.global\.v4\.b32\s"
A_LOAD = r"\s+ld\.global\.nc\.L1::no_allocate\.v4\.u32\s"


SCALE_LOAD = re.compile(r"(\s+)ld\.global\.b16\s+(%rs\d+), \[(%rd\d+)\];")


def a_scale_loads(lines):
    """Indices of a's 16-bit scale loads: those after a load of a with no
    load of b between."""
    found, after_a = [], False
    for i, line in enumerate(lines):
        if re.match(A_LOAD, line):
            after_a = True
        elif re.match(B_LOAD, line):
            after_a = False
        elif after_a and SCALE_LOAD.match(line):
            found.append(i)
    return found


def constant_scales(lines, loads):
    out = list(lines)
    for i in loads:
        m = SCALE_LOAD.match(lines[i])
        out[i] = f"{m.group(1)}mov.b16 \t{m.group(2)}, 0x3A3A;"
    return out


def declare(out, regs):
    """`out` with `regs` (PTX declarations) after its 64-bit registers'."""
    decl = next(i for i, l in enumerate(out)
                if re.match(r"\s+\.reg \.b64\s+%rd<", l))
    out[decl] += "".join(f"\n\t{r}" for r in regs)
    return out


def line_scales(lines, loads):
    start = next(i for i, l in enumerate(lines) if re.match(A_LOAD, l))
    end = next(i for i in range(start, len(lines)) if "bra" in lines[i])
    step = [i for i in loads if start < i < end]
    if len(step) not in (2, 4):
        return None
    out = list(lines)
    first = SCALE_LOAD.match(lines[step[0]])
    indent, addr, n = first.group(1), first.group(3), len(step)
    words = ", ".join(f"%pw{k}" for k in range(n))
    head = [f"{indent}and.b64 \t%pd0, {addr}, -{4 * n};",
            f"{indent}ld.global.v{n}.b32 \t{{{words}}}, [%pd0];",
            f"{indent}cvt.u32.u64 \t%pw4, {addr};",
            f"{indent}and.b32 \t%pw4, %pw4, 2;",
            f"{indent}shl.b32 \t%pw4, %pw4, 3;"]
    for k, i in enumerate(step):
        reg = SCALE_LOAD.match(lines[i]).group(2)
        out[i] = "\n".join((head if k == 0 else []) + [
            f"{indent}shr.b32 \t%pw{5 + k}, %pw{k}, %pw4;",
            f"{indent}cvt.u16.u32 \t{reg}, %pw{5 + k};"])
    return declare(out, [".reg .b32 \t%pw<16>;", ".reg .b64 \t%pd<4>;"])


def without_mmas(lines, every):
    """`lines` with the first of each `every` MMAs replaced."""
    out, i, count = [], 0, 0
    while i < len(lines):
        if not lines[i].strip().startswith("mma.sync"):
            out.append(lines[i])
            i += 1
            continue
        count += 1
        if (count - 1) % every:
            out += lines[i:i + 5]
            i += 5
            continue
        # mma spans five lines: opcode, D, A, B, C.
        d, a, bb, c = (REG.findall(lines[i + k]) for k in range(1, 5))
        ops = a + bb
        if len(d) != 4 or len(c) != 4 or len(ops) < 5:
            return None
        pad = ops + [ops[-1]] * (7 - len(ops))
        out += [f"\tlop3.b32 \t%pw0, {pad[0]}, {pad[1]}, {pad[2]}, 0x96;",
                f"\tlop3.b32 \t%pw0, %pw0, {pad[3]}, {pad[4]}, 0x96;",
                f"\tlop3.b32 \t%pw0, %pw0, {pad[5]}, {pad[6]}, 0x96;",
                f"\tadd.f32 \t{d[0]}, {c[0]}, %pw0;"]
        out += [f"\tmov.b32 \t{d[k]}, {c[k]};" for k in range(1, 4)]
        i += 5
    if not count:
        return None
    return declare(out, [".reg .b32 \t%pw<1>;"])


def write(dst, out):
    try:
        open(dst, "w").write("\n".join(out))
    except OSError as e:
        sys.exit(f"{dst}: {e.strerror}")


def main(src, dst, mode):
    try:
        lines = open(src).read().split("\n")
    except OSError as e:
        sys.exit(f"{src}: {e.strerror}")
    if mode in ("--no-mma", "--half-mma"):
        out = without_mmas(lines, 1 if mode == "--no-mma" else 2)
        if not out:
            sys.exit(f"{src}: no mma.sync: not a tensor-core GEMV")
        return write(dst, out)
    if mode in ("--a-scale-loads", "--a-scale-line"):
        loads = a_scale_loads(lines)
        out = (constant_scales(lines, loads) if mode == "--a-scale-loads"
               else loads and line_scales(lines, loads))
        if not out:
            sys.exit(f"{src}: no 16-bit scale loads of a (2 or 4 a step)")
        return write(dst, out)
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
    write(dst, out)


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
    modes = ("--a-scales", "--a-decode", "--a-scale-loads", "--a-scale-line",
             "--no-mma", "--half-mma")
    mode = args[0] if args[:1] and args[0] in modes else ""
    if mode:
        args = args[1:]
    if len(args) != 2:
        sys.exit("usage: " + __doc__.strip().split("\n")[2].strip())
    main(args[0], args[1], mode)
