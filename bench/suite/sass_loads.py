#!/usr/bin/env python3
"""Where ptxas put the global loads of each kernel, without a disassembler.

    bench/suite/sass_loads.py [--arch sm_90a] K.ptx...

Assembles each PTX with ptxas and prints, per kernel: its SASS instructions
(the .text section over 16 bytes), its registers, and the 1-based index of
every LDG (the opcode in the low 12 bits of an sm_90 instruction is 0x981;
the positions match `cuobjdump -sass`). docs/benchmarks.md, item 18.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

LDG_OPCODE = 0x981


def text_sections(path, readelf='readelf'):
    """(file offset, size) of each .text section of the cubin `path`."""
    out = subprocess.run([readelf, '-S', '-W', path], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        fields = line.replace('[ ', '[').split()
        if len(fields) > 5 and fields[1].startswith('.text.'):
            yield int(fields[4], 16), int(fields[5], 16)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--arch', default='sm_90a')
    parser.add_argument('--ptxas', default='ptxas')
    parser.add_argument('ptx', nargs='+')
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, 'k.cubin')
        for ptx in args.ptx:
            run = subprocess.run([args.ptxas, f'-arch={args.arch}', '-v', ptx,
                                  '-o', cubin], capture_output=True, text=True)
            if run.returncode:
                sys.exit(f'sass_loads.py: ptxas failed on {ptx}: '
                         f'{run.stderr.strip()}')
            regs = re.search(r'Used (\d+) registers', run.stderr)
            data = open(cubin, 'rb').read()
            for offset, size in text_sections(cubin):
                loads = [i // 16 + 1 for i in range(0, size, 16)
                         if struct.unpack_from('<Q', data, offset + i)[0]
                         & 0xfff == LDG_OPCODE]
                print(os.path.basename(ptx), size // 16,
                      regs.group(1) if regs else '?', *loads)


if __name__ == '__main__':
    main()
