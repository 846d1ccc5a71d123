#!/usr/bin/env python3
"""Checks the shape and configuration files the benchmarks name:

    bench/suite/check_sets.py [--opt nvfp4-opt] FILE...

A file whose name ends in "candidates.txt" lists configurations ("name
options...", as bench/suite/sweep.sh reads them): every name must be new
and nvfp4-opt must accept every configuration's options on a plain GEMV.
Any other file lists shapes ("name M K L", as bench/suite/compile.sh reads
them): M and L positive, K a positive multiple of 16 (names may repeat,
as shapes.py's "problem"). Lines starting with # are comments. Prints
one line a file; the first error ends the run with a one-line message
and exit status 1.
"""
import argparse
import os
import subprocess
import sys

# A GEMV every configuration lowers: K long enough to split, M to spread.
PROBE = """func.func @probe(%a: memref<1x256x2048xi8>, %sfa: memref<1x256x256xf8E4M3FN>,
    %b: memref<1x2048xi8>, %sfb: memref<1x256xf8E4M3FN>, %c: memref<1x256xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x256x2048xi8>, memref<1x256x256xf8E4M3FN>, memref<1x2048xi8>,
        memref<1x256xf8E4M3FN> into memref<1x256xf16>
  return
}
"""


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
        dims = fields[1:]
        if not all(d.isdigit() for d in dims):
            fail(path, number, 'M, K and L must be positive integers')
        m, k, l = map(int, dims)
        if m < 1 or l < 1 or k < 16 or k % 16:
            fail(path, number,
                 'M and L must be positive, K a positive multiple of 16')
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
