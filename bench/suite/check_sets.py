#!/usr/bin/env python3
"""Checks the shape and configuration files the benchmarks name:

    bench/suite/check_sets.py [--opt nvfp4-opt] FILE...

A file whose name ends in "candidates.txt" lists configurations ("name
options...", as bench/suite/sweep.sh reads them): every name must be new
and nvfp4-opt must accept every configuration's options on a plain GEMV.
Any other file lists shapes ("name M K L", as bench/suite/compile.sh reads
them): each must be a GEMV the IR writer (scripts/nvfp4_ir.py) accepts,
so M, K and L positive and K a multiple of the NVFP4 block (names may
repeat, as shapes.py's "problem"). Lines starting with # are comments. Prints
one line a file; the first error ends the run with a one-line message
and exit status 1.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
from nvfp4_ir import SpecError, gemv_function  # noqa: E402

# A GEMV every configuration lowers: K long enough to split, M to spread.
PROBE = gemv_function("256x4096x1:nvfp4:linear:f16")


def entries(path):
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if line.strip() and not line.startswith('#'):
                yield number, line.split()


def fail(path, number, message):
    sys.exit(f'check_sets.py: {path}:{number}: {message}')


def check_shapes(path):
    count = 0
    for number, fields in entries(path):
        if len(fields) != 4:
            fail(path, number, 'expected "name M K L"')
        # The IR writer's rules (the ones compile.sh meets): positive
        # sizes, K a multiple of the NVFP4 block.
        try:
            gemv_function('x'.join(fields[1:]) + ':nvfp4:linear:f16')
        except SpecError as error:
            fail(path, number, str(error))
        count += 1
    return f'{count} shapes'


def check_candidates(path, opt):
    names = set()
    count = 0
    for number, (name, *options) in entries(path):
        if name in names:
            fail(path, number, f'configuration name "{name}" used twice')
        names.add(name)
        run = subprocess.run(
            [opt, '-', '-o', os.devnull,
             f'--nvfp4-to-ptx=chip=sm_90a {" ".join(options)}'],
            input=PROBE, capture_output=True, text=True)
        if run.returncode:
            error = (run.stderr.strip().splitlines() or ['no message'])[0]
            fail(path, number, f'nvfp4-opt rejects "{name}": {error}')
        count += 1
    return f'{count} configurations'


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--opt', default='nvfp4-opt')
    parser.add_argument('files', nargs='+')
    args = parser.parse_args()
    for path in args.files:
        if not os.path.isfile(path):
            sys.exit(f'check_sets.py: no file {path}')
        if path.endswith('candidates.txt'):
            summary = check_candidates(path, args.opt)
        else:
            summary = check_shapes(path)
        print(f'{os.path.basename(path)}: {summary}')


if __name__ == '__main__':
    main()
