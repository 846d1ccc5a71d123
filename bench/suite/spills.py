#!/usr/bin/env python3
"""The register budgets of a compiled suite against ptxas's own counts.

    bench/suite/spills.py [--ptxas PTXAS] [--arch sm_90a] SUITE NOBUDGET

SUITE and NOBUDGET are bench/suite/compile.sh outputs of the same shapes
and variants, NOBUDGET compiled with NVFP4_SUITE_OPTIONS=max-registers=-1.
Assembles every kernel of both and prints each kernel that spills in SUITE
(its budget from the manifest, the registers ptxas takes with and without
it, the bytes spilled), then how many budgeted kernels there are, how many
spill, and how many have a budget at or under (and under) the registers
ptxas takes without one, with how many of those spill
(docs/benchmarks.md, item 35).

With --collect DIR, each kernel that spills is also copied (its .ptx and
.json) into DIR/budget, its build without a budget into DIR/nobudget, and
SUITE's shapes.txt into DIR: `bench/suite/gpu.sh DIR OUT` then times both.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys


def assemble(ptxas, arch, ptx, cubin=os.devnull):
    """(registers, spill-store bytes) of one PTX file, assembled into
    `cubin`."""
    run = subprocess.run([ptxas, f'-arch={arch}', '-v', ptx, '-o', cubin],
                         capture_output=True, text=True)
    if run.returncode:
        sys.exit(f'spills.py: ptxas failed on {ptx}: {run.stderr.strip()}')
    regs = re.search(r'Used (\d+) registers', run.stderr)
    spill = re.search(r'(\d+) bytes spill stores', run.stderr)
    if not regs:
        sys.exit(f'spills.py: no register count from ptxas for {ptx}')
    return int(regs.group(1)), int(spill.group(1)) if spill else 0


def collect(args, ptx, other, collected):
    """Copies a spilling kernel and its build without a budget into
    --collect's budget/ and nobudget/."""
    name = os.path.basename(ptx)
    if name in collected:
        sys.exit(f'spills.py: two variants hold {name}; --collect needs '
                 'distinct kernel names')
    collected.add(name)
    for source, sub in ((ptx, 'budget'), (other, 'nobudget')):
        dest = os.path.join(args.collect, sub)
        os.makedirs(dest, exist_ok=True)
        for ext in ('.ptx', '.json'):
            shutil.copy(source[:-len('.ptx')] + ext, dest)
    shapes = os.path.join(args.suite, 'shapes.txt')
    if os.path.exists(shapes):
        shutil.copy(shapes, args.collect)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--ptxas', default='ptxas')
    parser.add_argument('--arch', default='sm_90a')
    parser.add_argument('--collect', metavar='DIR')
    parser.add_argument('suite')
    parser.add_argument('nobudget')
    args = parser.parse_args()
    collected = set()
    kernels = sorted(glob.glob(os.path.join(args.suite, '*', '*.ptx')))
    if not kernels:
        sys.exit(f'spills.py: no kernels in {args.suite}')
    budgeted = spilling = at_or_under = at_or_under_spill = 0
    under = under_spill = 0
    for ptx in kernels:
        variant = os.path.basename(os.path.dirname(ptx))
        name = os.path.basename(ptx)
        other = os.path.join(args.nobudget, variant, name)
        if not os.path.exists(other):
            sys.exit(f'spills.py: {variant}/{name} is not in {args.nobudget}')
        with open(ptx[:-len('.ptx')] + '.json') as f:
            budget = json.load(f)['config']['max_registers']
        regs, spill = assemble(args.ptxas, args.arch, ptx)
        own, _ = assemble(args.ptxas, args.arch, other)
        if spill:
            print(f'{variant}/{name[:-4]}: budget {budget}, '
                  f'{regs} registers ({own} without), {spill} bytes spilled')
            if args.collect:
                collect(args, ptx, other, collected)
        if budget <= 0:
            continue
        budgeted += 1
        spilling += bool(spill)
        if budget <= own:
            at_or_under += 1
            at_or_under_spill += bool(spill)
        if budget < own:
            under += 1
            under_spill += bool(spill)
    print(f'{budgeted} budgeted kernels of {len(kernels)}, {spilling} spill; '
          f'budget at or under ptxas\'s own count: {at_or_under} '
          f'({at_or_under_spill} spill), under it: {under} '
          f'({under_spill} spill)')


if __name__ == '__main__':
    main()
