#!/usr/bin/env python3
"""Random GEMV shapes for the GPU sweep, one scripts/nvfp4_ir.py spec a line:

    bench/gpu-sweep/shapes.py [COUNT [SEED]]

M uniform in [1, 20000] (a third of them below 300, where row tails and
small grids live), K a multiple of the block (16 for nvfp4, 32 for mxfp4)
up to 32768, L in [1, 8], the format, layout and output type uniform, alpha
in three of four. a stays below 256 MB. The seed is printed first, as a
comment; the same seed gives the same shapes.
"""
import random
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 240
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20261201
rng = random.Random(seed)
print(f"# bench/gpu-sweep/shapes.py {count} {seed}")
seen = set()
while len(seen) < count:
    fmt = rng.choice(["nvfp4", "mxfp4"])
    block = 16 if fmt == "nvfp4" else 32
    m = rng.randint(1, 300) if rng.random() < 1 / 3 else rng.randint(1, 20000)
    k = block * rng.randint(1, 32768 // block)
    l = rng.randint(1, 8)
    if m * k // 2 * l > 256 << 20:
        continue
    spec = (f"{m}x{k}x{l}:{fmt}:{rng.choice(['linear', 'blocked128x4'])}:"
            f"{rng.choice(['f16', 'bf16', 'f32'])}")
    if rng.random() < 0.25:
        spec += ":noalpha"
    if spec not in seen:
        seen.add(spec)
        print(spec)
