#!/usr/bin/env python3
"""Registers, spills and SASS instructions of two compiled suites, kernel by
kernel, without a GPU.

    bench/suite/static_compare.py [--ptxas PTXAS] [--readelf READELF]
        [--arch sm_90a] [--show TEXT] BEFORE AFTER

BEFORE and AFTER are bench/suite/compile.sh outputs of the same shapes and
variants (e.g. AFTER with NVFP4_SUITE_OPTIONS naming an option to judge).
Every kernel whose PTX differs is assembled in both; its SASS instruction
count is the size of the cubin's .text sections over 16 bytes (what
`cuobjdump -sass` lists, static: a loop counts once). Prints, per variant,
how many kernels changed, the geometric mean (and range) of the
instruction ratio AFTER / BEFORE, the register differences, and each
kernel whose spills changed; --show TEXT also prints every changed kernel
whose name contains TEXT. A proxy for the time, never a substitute:
docs/benchmarks.md, item 40, fewer instructions with no gain.
"""
import argparse
import glob
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sass_loads import text_sections  # noqa: E402
from spills import assemble  # noqa: E402


def stats(args, ptx, scratch):
    cubin = os.path.join(scratch, 'k.cubin')
    regs, spill = assemble(args.ptxas, args.arch, ptx, cubin)
    # Static SASS instructions: the .text sections' bytes over 16.
    instructions = sum(size for _, size in text_sections(cubin, args.readelf))
    return regs, spill, instructions // 16


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--ptxas', default='ptxas')
    parser.add_argument('--readelf', default='readelf')
    parser.add_argument('--arch', default='sm_90a')
    parser.add_argument('--show', default=None,
                        help='print the changed kernels whose name has TEXT')
    parser.add_argument('before')
    parser.add_argument('after')
    args = parser.parse_args()
    variants = sorted(os.path.basename(os.path.dirname(p)) for p in
                      glob.glob(os.path.join(args.before, '*', '')))
    if not variants:
        sys.exit(f'static_compare.py: no variants in {args.before}')
    with tempfile.TemporaryDirectory() as scratch:
        for variant in variants:
            kernels = sorted(glob.glob(
                os.path.join(args.before, variant, '*.ptx')))
            ratios, register_deltas, spills, shown = [], [], [], []
            for ptx in kernels:
                name = os.path.basename(ptx)
                other = os.path.join(args.after, variant, name)
                if not os.path.exists(other):
                    sys.exit(f'static_compare.py: {variant}/{name} is not '
                             f'in {args.after}')
                with open(ptx) as f, open(other) as g:
                    if f.read() == g.read():
                        continue
                old = stats(args, ptx, scratch)
                new = stats(args, other, scratch)
                ratios.append(new[2] / old[2])
                if args.show is not None and args.show in name:
                    shown.append(f'{name[:-4]}: {old[0]} -> {new[0]} '
                                 f'registers, {old[1]} -> {new[1]} bytes '
                                 f'spilled, {old[2]} -> {new[2]} SASS '
                                 'instructions')
                register_deltas.append(new[0] - old[0])
                if old[1] != new[1]:
                    spills.append(f'{name[:-4]} {old[1]} -> {new[1]} bytes')
            line = f'{variant}: {len(ratios)} of {len(kernels)} changed'
            if ratios:
                mean = math.exp(sum(map(math.log, ratios)) / len(ratios))
                line += (f'; SASS instructions {mean:.3f} of before '
                         f'({min(ratios):.3f}-{max(ratios):.3f}); registers '
                         f'{min(register_deltas):+d} to '
                         f'{max(register_deltas):+d} (mean '
                         f'{sum(register_deltas) / len(ratios):+.1f})')
            print(line)
            for spill in spills:
                print(f'  spills: {spill}')
            for kernel in shown:
                print(f'  {kernel}')


if __name__ == '__main__':
    main()
