#!/usr/bin/env python3
"""The kernel variants nvfp4-sim-check runs through the GPU simulation.

Each variant is one set of --nvfp4-to-host-sim options (the options of
--nvfp4-to-ptx) and the operations compiled with it. The build compiles one
object per variant (symbols prefixed with the variant name) and a table of
every compiled function for the checker:

    variants.py cmake          NAME|OPTIONS, one variant a line
    variants.py mlir NAME      the module of one variant
    variants.py table OPT      the C++ table (Variants.inc); OPT is the
                               nvfp4-opt that says how each gemv kernel
                               sums (the manifest's "sums")

An operation is a GEMV, MxKxL:format:layout:output[:nN][:vf16|vbf16]
[:noalpha] (N vectors, 16-bit b: the IR writer's spec), a scale layout
conversion, convert:ROWSxCOLSxL:e4m3|ue8m0:FROM:TO, or a quantizer,
quantize:ROWSxKxL:FORMAT:LAYOUT:TYPE[:2l] or dequantize:...[:gs].
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
from nvfp4_ir import (function, parse_convert, parse_gemv,  # noqa: E402
                      parse_quantize)

# Shapes with odd M (1, 130, 257), L up to 3, and K from one block to odd
# numbers of blocks (K = 80 and 1040 NVFP4, 96 and 1056 MXFP4: 5, 65, 3 and 33
# blocks), so rows end in partial steps, CTAs in partial row groups and
# blocked scales in partial atoms.
ODD = [
    "1x64x1:nvfp4:linear:f16",
    "130x80x2:nvfp4:linear:bf16:noalpha",
    "257x1040x1:nvfp4:blocked128x4:f32",
    "130x96x3:mxfp4:linear:f16",
    "257x1056x1:mxfp4:blocked128x4:bf16:noalpha",
    "130x1040x2:nvfp4:blocked128x4:f16:noalpha",
]
# K = 1536: 768 bytes a row, 6 steps of 8 lanes x 16 bytes, 12 of 8 bytes.
WIDE = [
    "130x1536x2:nvfp4:linear:f16",
    "257x1536x1:nvfp4:blocked128x4:bf16:noalpha",
    "130x1536x1:mxfp4:blocked128x4:f32",
    "1x1536x3:mxfp4:linear:f16:noalpha",
]
# K = 2048: 1024 bytes, every lanes-per-row x bytes-per-load divides it.
LONG = [
    "257x2048x1:nvfp4:blocked128x4:f16",
    "130x2048x2:mxfp4:linear:bf16",
    "1x2048x1:nvfp4:linear:f32:noalpha",
]
# K = 2880 (90 loads of 16 bytes: 2 whole steps of 32 lanes and one of 26)
# and K = 4112 (257 loads of 8 bytes): K slices of unequal length.
SPLIT = [
    "130x2880x2:nvfp4:linear:f16",
    "257x2880x1:nvfp4:blocked128x4:bf16:noalpha",
    "130x4112x1:nvfp4:linear:f32",
    "130x2880x2:mxfp4:blocked128x4:f16",
]
# N vectors (b [L, N, K/2] or [L, N, K], c [L, N, M]) and 16-bit vectors
# (no sfb; one, b [L, K], or N), on the odd shapes: packed N = 2, 3, 4, 8
# and 16, f16 and bf16 b with N = 1 (rank 2) and 4; both formats and
# layouts, every output type, K in partial steps (80, 1040, 2880; 96, 1056).
PACKED_N = [
    "130x80x2:nvfp4:linear:f16:n2",
    "257x1040x1:nvfp4:blocked128x4:bf16:n3:noalpha",
    "130x96x3:mxfp4:linear:f32:n8",
    "1x1056x2:mxfp4:blocked128x4:f16:n16:noalpha",
    "130x1040x1:nvfp4:linear:bf16:n16",
    "257x80x3:nvfp4:blocked128x4:f32:n8:noalpha",
    "1x2880x3:nvfp4:linear:f16:n4",
]
WIDE16 = [
    "130x1040x2:nvfp4:linear:f16:vf16",
    "257x96x1:mxfp4:blocked128x4:bf16:vbf16:noalpha",
    "130x80x3:nvfp4:blocked128x4:f32:n4:vbf16",
    "1x1056x2:mxfp4:linear:f16:n4:vf16:noalpha",
    "130x2880x1:nvfp4:blocked128x4:bf16:n4:vf16",
    "130x96x2:mxfp4:linear:f32:vbf16",
]
VECTORS = PACKED_N + WIDE16
# PACKED_N with N = 16 on a short row, for the decode variants.
PACKED_N_SHORT = [spec.replace("130x1040x1", "130x96x1") for spec in PACKED_N]
# The long rows of both, for K split within and across CTAs.
VECTORS_SPLIT = [
    "257x1040x1:nvfp4:blocked128x4:bf16:n3:noalpha",
    "130x1040x1:nvfp4:linear:bf16:n16",
    "1x2880x3:nvfp4:linear:f16:n4",
    "130x1040x2:nvfp4:linear:f16:vf16",
    "130x2880x1:nvfp4:blocked128x4:bf16:n4:vf16",
]
# decode=mma (NVFP4; packed or 16-bit b): N = 1 (rank 2 and 3), 2, 3, 4,
# 8, 16 and f16 and bf16 b; K with no whole step (64, 80), a last half
# chunk (1040) or a last partial step (2880); odd and even scale columns;
# every output.
MMA = [
    "1x64x1:nvfp4:linear:f16",
    "257x1040x1:nvfp4:blocked128x4:f32",
    "130x80x2:nvfp4:linear:f16:n2",
    "257x1040x1:nvfp4:blocked128x4:bf16:n3:noalpha",
    "130x1040x1:nvfp4:linear:bf16:n16",
    "257x80x3:nvfp4:blocked128x4:f32:n8:noalpha",
    "1x2880x3:nvfp4:linear:f16:n4",
    "130x1040x2:nvfp4:linear:f16:vf16",
    "130x2880x1:nvfp4:blocked128x4:bf16:n4:vf16",
    "33x2880x1:nvfp4:linear:f32:n16:vf16:noalpha",
    "130x1040x2:nvfp4:blocked128x4:f32:vbf16",
    "257x2880x1:nvfp4:linear:f16:n8:vbf16:noalpha",
    "33x80x2:nvfp4:blocked128x4:bf16:n16:vbf16",
]
# Those with rows of several steps, for K split across warps.
MMA_LONG = [spec for spec in MMA if "x1040x" in spec or "x2880x" in spec]
# 23 whole steps of 64 bytes (K = 2944), packed and bf16 vectors.
MMA_ODD_STEPS = [
    "130x2944x1:nvfp4:blocked128x4:f16:n8",
    "257x2944x1:nvfp4:linear:bf16:vbf16",
]
# Those async-copy-stages takes (whole steps; blocked scales or linear rows
# of a multiple of 4 columns), and linear rows of 68 columns: 16-byte
# copies of a (1088) next to 8-byte pairs of copies (1040, blocked).
MMA_STAGED = [
    "257x1040x1:nvfp4:blocked128x4:f32",
    "257x1040x1:nvfp4:blocked128x4:bf16:n3:noalpha",
    "1x2880x3:nvfp4:linear:f16:n4",
    "130x2880x1:nvfp4:blocked128x4:bf16:n4:vf16",
    "33x2880x1:nvfp4:linear:f32:n16:vf16:noalpha",
    "130x1088x2:nvfp4:linear:f16:n16",
    "257x2880x1:nvfp4:linear:f16:n8:vbf16:noalpha",
]
# M a multiple of a CTA's rows (of 128 with interleaved rows): with
# row-offsets the kernels index rows without clamping them to M - 1.
ROWS_IN_BOUNDS = [
    "256x1040x1:nvfp4:blocked128x4:f16",
    "128x2048x2:nvfp4:linear:bf16:noalpha",
    "256x1056x1:mxfp4:blocked128x4:f32",
    "128x80x3:nvfp4:linear:f16:n4",
]
MMA_ROWS_IN_BOUNDS = [
    "256x1040x1:nvfp4:blocked128x4:f32:n8",
    "256x2048x1:nvfp4:blocked128x4:f16:n8",
    "128x2880x2:nvfp4:linear:f16:n16:noalpha",
    "256x2048x1:nvfp4:blocked128x4:bf16:vbf16",
]
# Tiled codes (M a multiple of 16, K of 128): one step (128), 3, 8 and
# 23 steps (2944: slices of unequal length), 1 to 17 tiles, every vector
# form; rows unclamped where a CTA's rows divide M (5 of the 6 with the
# default geometry), clamped elsewhere (144 x 1024 x 2, and more under
# 8 rows a lane).
MMA_TILED = [
    "16x128x1:nvfp4:linear:f16:tiled",
    "144x2944x1:nvfp4:blocked128x4:f16:n8:tiled",
    "48x384x3:nvfp4:linear:bf16:n3:noalpha:tiled",
    "144x1024x2:nvfp4:blocked128x4:f32:n16:tiled",
    "272x2944x1:nvfp4:linear:bf16:vbf16:noalpha:tiled",
    "48x1024x2:nvfp4:blocked128x4:f16:n4:vf16:tiled",
]
CONVERT = [
    "convert:130x5x2:e4m3:linear:blocked128x4",
    "convert:130x5x2:e4m3:blocked128x4:linear",
    "convert:257x33x1:ue8m0:linear:blocked128x4",
    "convert:1x65x3:ue8m0:blocked128x4:linear",
    "convert:130x6x1:e4m3:linear:blocked128x4",
    "convert:33x10x2:ue8m0:blocked128x4:linear",
    # A multiple of 4 columns: a thread a word.
    "convert:130x8x2:e4m3:linear:blocked128x4",
    "convert:130x8x2:e4m3:blocked128x4:linear",
    "convert:257x12x1:ue8m0:linear:blocked128x4",
    "convert:1x4x3:ue8m0:blocked128x4:linear",
    "convert:130x8x1:e4m3:blocked128x4:blocked128x4",
    "convert:3x12x2:e4m3:linear:linear",
]

# Quantizers: odd row counts (partial blocked atoms), one to 90 blocks a
# row, L up to 3, grids whose last CTA has blocks past the end, every input
# and output type, both formats and layouts, with and without the global
# scale (whose reduction has 92 CTAs on the longest shape, so the last one
# to arrive varies).
QUANTIZE = [
    "quantize:130x64x2:nvfp4:blocked128x4:bf16:2l",
    "quantize:3x96x1:mxfp4:linear:f32",
    "quantize:257x80x1:nvfp4:linear:f16",
    "quantize:1x1056x3:mxfp4:blocked128x4:bf16",
    "quantize:130x2880x1:nvfp4:linear:f32:2l",
    "quantize:257x16x2:nvfp4:blocked128x4:f16:2l",
    "quantize:33x112x3:nvfp4:linear:bf16",
    "dequantize:130x64x2:nvfp4:blocked128x4:bf16:gs",
    "dequantize:3x96x1:mxfp4:linear:f32",
    "dequantize:257x80x1:nvfp4:linear:f16",
    "dequantize:1x1056x3:mxfp4:blocked128x4:bf16",
    "dequantize:130x160x1:nvfp4:linear:f32:gs",
    "dequantize:5x64x2:mxfp4:linear:f16",
    "dequantize:33x48x2:nvfp4:blocked128x4:f16:gs",
]

VARIANTS = [
    # Chip defaults (split-k, lanes, bytes and loads chosen per shape).
    ("sm90_default", "chip=sm_90a", ODD + WIDE + LONG + CONVERT),
    ("sm90_f32", "chip=sm_90a decode=f32", ODD + WIDE),
    ("sm100_default", "chip=sm_100a", ODD + WIDE + LONG + CONVERT),
    ("quantize_sm90", "chip=sm_90a", QUANTIZE),
    ("quantize_sm100", "chip=sm_100a", QUANTIZE),
    ("sm100_dp4a", "chip=sm_100a decode=dp4a", ODD + LONG),
    ("sm100_f32", "chip=sm_100a decode=f32 split-k=2 lanes-per-row=8", WIDE),
    # split-k 1, 2, 4, with loads in flight that leave a tail in each slice.
    ("splitk1", "split-k=1 lanes-per-row=8", WIDE + LONG),
    ("splitk2_lif2", "split-k=2 lanes-per-row=8 loads-in-flight=2", WIDE),
    ("splitk4_lif3", "split-k=4 lanes-per-row=4 loads-in-flight=3", LONG),
    ("splitk4_cvt", "chip=sm_100a split-k=4 lanes-per-row=4 bytes-per-load=8",
     LONG),
    ("splitk2_f32", "decode=f32 split-k=2 lanes-per-row=4 loads-in-flight=2",
     LONG),
    # Loads in flight: 65 steps (K = 1040, one lane) is no multiple of any.
    ("lif2", "loads-in-flight=2", ODD),
    ("lif3", "loads-in-flight=3 split-k=1", ODD),
    ("lif4_cvt", "chip=sm_100a loads-in-flight=4 split-k=1", ODD),
    ("lif8", "loads-in-flight=8 split-k=1", ODD),
    ("lif5_f32", "decode=f32 loads-in-flight=5 split-k=1", ODD),
    # Rows a thread.
    ("rpt1", "rows-per-thread=1", ODD + WIDE),
    ("rpt2", "rows-per-thread=2 lanes-per-row=8 split-k=1", WIDE),
    ("rpt3", "rows-per-thread=3", ODD),
    ("rpt5_cvt", "chip=sm_100a rows-per-thread=5", ODD),
    ("rpt6_f32", "decode=f32 rows-per-thread=6", ODD),
    ("rpt7", "rows-per-thread=7 split-k=1", WIDE),
    ("rpt8", "rows-per-thread=8", ODD + LONG),
    # Lanes a row and bytes a load.
    ("lanes1", "lanes-per-row=1 split-k=1", WIDE),
    ("lanes2_b8", "lanes-per-row=2 bytes-per-load=8", WIDE),
    ("lanes4_b16", "lanes-per-row=4 bytes-per-load=16 split-k=1", WIDE),
    ("lanes16_b8", "lanes-per-row=16 bytes-per-load=8 split-k=1", WIDE),
    ("lanes32_b16", "lanes-per-row=32 bytes-per-load=16 split-k=2", LONG),
    ("lanes32_b8_cvt", "chip=sm_100a lanes-per-row=32 bytes-per-load=8", LONG),
    ("b8_f32", "decode=f32 bytes-per-load=8 lanes-per-row=8", WIDE),
    # Interleaved rows of blocked scales, on (the default) and off.
    ("interleave", "rows-per-thread=4 bytes-per-load=16 split-k=1", WIDE),
    # One scale column a load: 8-byte NVFP4 loads (one byte of the line's
    # word) and MXFP4 (both 8-byte units of a 16-byte load share a column).
    ("interleave_b8", "rows-per-thread=4 bytes-per-load=8 split-k=1",
     ODD + WIDE),
    # 5 row groups a CTA do not tile an atom's 32 lines: no interleave
    # (interleaved, the 64 row groups of 256 rows would need 12.8 CTAs).
    ("interleave_5_groups",
     "rows-per-thread=4 rows-per-block=20 split-k=1 lanes-per-row=32",
     ["256x1040x1:nvfp4:blocked128x4:f16",
      "256x96x2:mxfp4:blocked128x4:bf16:noalpha"]),
    ("no_interleave", "interleave-rows=false split-k=1", WIDE + LONG),
    ("interleave_cvt", "chip=sm_100a rows-per-thread=4 split-k=2", LONG),
    # The decoded vector in shared memory, with and without split-k.
    ("vec_shared", "vector-in-shared=true split-k=1", ODD + WIDE),
    ("vec_shared_splitk2", "vector-in-shared=true split-k=2 lanes-per-row=8",
     WIDE),
    # Only dp4a shares the decoded vector: the option is ignored for f32.
    ("vec_shared_f32", "decode=f32 vector-in-shared=true", ODD),
    ("vec_shared_splitk4", "vector-in-shared=true split-k=4 lanes-per-row=4 "
     "rows-per-thread=2", LONG),
    # a through shared-memory stages filled by asynchronous copies.
    ("async2", "async-copy-stages=2", ODD + WIDE),
    ("async3_b8_splitk2", "async-copy-stages=3 bytes-per-load=8 split-k=2 "
     "lanes-per-row=8", WIDE + LONG),
    ("async4_vec_shared", "async-copy-stages=4 vector-in-shared=true "
     "cta-split-k=2", SPLIT),
    # Prefetch and cache hints.
    # Programmatic dependent launch: a's first group loaded before the wait
    # (griddepcontrol is a no-op in the simulation, the loop is not).
    ("pdl", "pdl=true", ODD + WIDE),
    ("pdl_vec_shared_ctasplit", "pdl=true vector-in-shared=true "
     "cta-split-k=2 split-k=1", SPLIT),
    ("pdl_no_prefetch", "pdl=true prefetch=false", ODD),
    # Each step's decode waits for all of its loads (a chain of permutes
    # into b's first word, or a's when b is in shared memory).
    ("pin_loads", "pin-loads=true", ODD + WIDE + VECTORS),
    ("pin_loads_vec_shared_lif2", "pin-loads=true vector-in-shared=true "
     "loads-in-flight=2 split-k=1", ODD + WIDE),
    ("pin_loads_cvt_ctasplit", "chip=sm_100a pin-loads=true cta-split-k=2",
     SPLIT),
    # CTAs of other sizes than the cost model's 128 threads (more row
    # groups and K slices in one CTA).
    ("cta_threads_512", "cta-threads=512", ODD + WIDE + VECTORS),
    # 32-bit index arithmetic (addresses as 32-bit offsets from the
    # buffers' 64-bit bases): streaming loads, plain loads without cache
    # hints, the cta-split-k workspace, N and 16-bit vectors.
    ("index32", "index-bits=32", ODD + WIDE + VECTORS),
    ("index32_vec_shared_ctasplit", "index-bits=32 vector-in-shared=true "
     "cta-split-k=2 split-k=1", SPLIT),
    ("index32_ctasplit_global", "index-bits=32 cta-split-k=2 split-k=1 "
     "cta-reduction=global", SPLIT),
    ("index32_cvt_no_hints", "chip=sm_100a index-bits=32 cache-hints=false",
     ODD + VECTORS_SPLIT),
    ("no_prefetch", "prefetch=false", ODD + WIDE),
    # A slice's partial step after its whole ones, where the default reads
    # the slice in one pass; and one pass with the loads before a PDL wait.
    ("one_pass_off", "one-pass=false", ODD + WIDE),
    ("one_pass_splitk2", "rows-per-thread=4 split-k=2 lanes-per-row=32",
     SPLIT),
    ("one_pass_pdl_splitk2", "pdl=true rows-per-thread=4 split-k=2 "
     "lanes-per-row=32", SPLIT),
    ("no_prefetch_lif2", "prefetch=false loads-in-flight=2 split-k=1", ODD),
    ("no_cache_hints", "cache-hints=false", ODD + WIDE),
    ("no_hints_cvt", "chip=sm_100a cache-hints=false prefetch=false", ODD),
    # K split across CTAs: as a cluster (the default up to 8 CTAs) the first
    # CTA adds the partials it received in its shared memory, through the
    # global workspace the last CTA to count itself in; both in a fixed
    # order.
    ("ctasplit3", "cta-split-k=3 split-k=1", SPLIT),
    ("ctasplit3_global", "cta-split-k=3 split-k=1 cta-reduction=global",
     SPLIT),
    ("ctasplit5_lanes2_global", "cta-split-k=5 split-k=1 lanes-per-row=2 "
     "cta-reduction=global", SPLIT),
    ("ctasplit8_lanes4_cluster", "cta-split-k=8 split-k=1 lanes-per-row=4 "
     "cta-reduction=cluster", SPLIT),
    # Past a portable cluster, auto reduces through global memory.
    ("ctasplit12_lanes2", "cta-split-k=12 split-k=1 lanes-per-row=2", SPLIT),
    ("ctasplit2_splitk2", "cta-split-k=2 split-k=2 lanes-per-row=8", SPLIT),
    # More CTAs than lanes: each lane adds several partials.
    ("ctasplit5_lanes2", "cta-split-k=5 split-k=1 lanes-per-row=2", SPLIT),
    ("ctasplit6_lanes4_cvt",
     "chip=sm_100a cta-split-k=6 split-k=1 lanes-per-row=4", SPLIT),
    ("ctasplit2_rpt1_f32", "decode=f32 cta-split-k=2 rows-per-thread=1", SPLIT),
    # The cost model's choice on shapes that it splits.
    ("sm90_default_split", "chip=sm_90a", SPLIT),
    # An explicit CTA size.
    ("rows_per_block8", "rows-per-block=8 rows-per-thread=2 lanes-per-row=16 "
     "split-k=1", WIDE),
    # N vectors and 16-bit vectors: each chip's defaults, K split within
    # and across CTAs, and the other decodes of packed b (16-bit b has f32
    # only).
    ("vectors_sm90", "chip=sm_90a", VECTORS),
    ("vectors_sm100", "chip=sm_100a", VECTORS),
    ("vectors_splitk", "split-k=2 cta-split-k=2 lanes-per-row=4",
     VECTORS_SPLIT),
    ("vectors_splitk_global", "split-k=2 cta-split-k=3 lanes-per-row=4 "
     "cta-reduction=global", VECTORS_SPLIT),
    ("vectors_dp4a_sm100", "chip=sm_100a decode=dp4a", PACKED_N_SHORT),
    ("vectors_f32_rpt2", "decode=f32 rows-per-thread=2 loads-in-flight=2",
     PACKED_N_SHORT),
    # The tensor-core kernel: the cost model's geometry on both chips, K
    # split across 3 and 9 warps (slices of unequal length; on 1040, 9
    # steps, a last slice with the partial step only), 2 and 8 rows a
    # lane, two steps' loads in flight.
    ("mma_sm90", "chip=sm_90a decode=mma", MMA),
    ("mma_sm100", "chip=sm_100a decode=mma", MMA),
    ("mma_split3_rpt2_lif2", "decode=mma split-k=3 rows-per-thread=2 "
     "loads-in-flight=2", MMA_LONG),
    ("mma_split9_rpt8", "decode=mma split-k=9 rows-per-thread=8",
     [MMA[4], MMA[6], MMA[8], MMA[9]]),
    ("mma_split1_lif3_pdl", "decode=mma split-k=1 loads-in-flight=3 pdl=true",
     MMA),
    # Slices of 8 whole steps or more interleave (warp s of S takes steps
    # s, s + S, ...): 2 warps on 22 whole steps and a partial one (2880),
    # and on 23 (2944: 12 and 11), three steps' loads in flight.
    ("mma_split2_lif3_interleaved", "decode=mma split-k=2 loads-in-flight=3",
     MMA_LONG + ["130x2944x1:nvfp4:blocked128x4:f16:n8"]),
    # The same across the 2 CTAs of a cta-split-k.
    ("mma_ctasplit2_interleaved", "decode=mma cta-split-k=2 split-k=1",
     [MMA[9], "130x2944x1:nvfp4:linear:bf16:n4"]),
    # K split across CTAs as well (partials through the workspace, the
    # last CTA adds them): 3 CTAs of 2 warps (1040: slices of 1-2 steps,
    # the last with the partial step only), and 2 CTAs of the cost
    # model's warps with 8 rows a lane.
    ("mma_ctasplit3_split2", "decode=mma cta-split-k=3 split-k=2", MMA_LONG),
    ("mma_ctasplit2_rpt8", "chip=sm_100a decode=mma cta-split-k=2 "
     "rows-per-thread=8", MMA_LONG),
    # Steps copied into shared memory ahead of their decode: 2 and 4
    # stages, slices of unequal length and one with no whole step (split-k
    # 9 on 1040: 9 steps, the last one partial), 8 rows a lane, both chips.
    ("mma_stages2_split9", "chip=sm_90a decode=mma async-copy-stages=2 "
     "split-k=9", MMA_STAGED),
    ("mma_stages4_split5", "chip=sm_100a decode=mma async-copy-stages=4 "
     "split-k=5 rows-per-thread=8", MMA_STAGED),
    ("mma_stages2_ctasplit2", "decode=mma async-copy-stages=2 cta-split-k=2",
     MMA_STAGED),
    # Rows indexed unclamped (row-offsets, rows in bounds): the cost
    # model's geometry, 4 rows a thread with and without interleaved rows
    # (blocked scales), and the tensor-core kernel; on odd M the option
    # keeps the clamp.
    ("row_offsets", "chip=sm_90a row-offsets=true", ROWS_IN_BOUNDS + ODD),
    ("row_offsets_rpt4", "rows-per-thread=4 rows-per-block=16 split-k=1 "
     "row-offsets=true", ROWS_IN_BOUNDS[:3]),
    ("row_offsets_plain_rpt4", "rows-per-thread=4 rows-per-block=16 "
     "split-k=1 interleave-rows=false row-offsets=true", ROWS_IN_BOUNDS[:3]),
    ("mma_row_offsets", "chip=sm_90a decode=mma row-offsets=true",
     MMA_ROWS_IN_BOUNDS + MMA),
    # Two quads a row (quad-pairs), where rows have two whole steps or
    # more (2880: 22 and a partial one; 2048: 16; 1040: 8 and a last half
    # chunk, with 8-byte loads; 2944: 23, the last alone; 80, no whole
    # step, keeps a quad a row):
    # the cost model's geometry on both chips; 3 warps of contiguous
    # slices of 7, 8 and 7 steps on 2880 and 7, 8 and 8 on 2944 (a slice
    # from an odd step takes it alone), 2 rows a lane; interleaved slices
    # of step pairs, across 2 warps and across 2 CTAs of 8 rows a lane
    # (2944: the odd last step to the second); rows unclamped.
    ("mma_quad_pairs", "chip=sm_90a decode=mma quad-pairs=true",
     MMA + MMA_ROWS_IN_BOUNDS),
    ("mma_quad_pairs_sm100", "chip=sm_100a decode=mma quad-pairs=true",
     MMA_LONG),
    ("mma_quad_pairs_split3_rpt2", "decode=mma quad-pairs=true split-k=3 "
     "rows-per-thread=2", MMA_LONG + MMA_ODD_STEPS),
    ("mma_quad_pairs_interleaved", "decode=mma quad-pairs=true split-k=2",
     MMA_LONG + MMA_ODD_STEPS),
    ("mma_quad_pairs_ctasplit2_rpt8", "decode=mma quad-pairs=true "
     "cta-split-k=2 split-k=1 rows-per-thread=8", MMA_LONG + MMA_ODD_STEPS),
    ("mma_quad_pairs_row_offsets", "decode=mma quad-pairs=true "
     "row-offsets=true", MMA_ROWS_IN_BOUNDS),
    # Contiguous slices of 5, 5 and 6 of 16 steps of lines of a row: the
    # slice from step 5 takes it alone, then pairs from 6 (loads counted
    # in test/Random/sim-check-loads.test).
    ("mma_quad_pairs_split3_lines", "decode=mma quad-pairs=true split-k=3 "
     "rows-per-thread=2 row-offsets=true",
     ["256x2048x1:nvfp4:blocked128x4:f16:n8"]),
    # Tiled codes: the kernel they pick by themselves (no decode option),
    # on both chips; K split where rows have steps for every slice: 8 rows
    # a lane over 3 warps; steps copied ahead into shared memory across 2
    # CTAs; interleaved slices, with quad-pairs asked for (tiled codes take
    # whole runs without it).
    ("mma_tiled", "chip=sm_90a", MMA_TILED),
    ("mma_tiled_sm100_split3_rpt8", "chip=sm_100a decode=mma split-k=3 "
     "rows-per-thread=8", MMA_TILED[1:]),
    ("mma_tiled_stages2_ctasplit2", "decode=mma async-copy-stages=2 "
     "cta-split-k=2", MMA_TILED[1:]),
    ("mma_tiled_interleaved", "decode=mma split-k=2 quad-pairs=true",
     MMA_TILED[1:]),
]


def find(name):
    for variant in VARIANTS:
        if variant[0] == name:
            return variant
    sys.exit(f"unknown variant '{name}'")


def cpp_enum(kind, value):
    return {
        "format": {"nvfp4": "ScaleFormat::NVFP4", "mxfp4": "ScaleFormat::MXFP4"},
        "layout": {"linear": "ScaleLayout::Linear",
                   "blocked128x4": "ScaleLayout::Blocked128x4"},
        "output": {"f16": "ElementType::F16", "bf16": "ElementType::BF16",
                   "f32": "ElementType::F32"},
        "scale": {"e4m3": "ScaleFormat::NVFP4", "ue8m0": "ScaleFormat::MXFP4"},
        "vector": {"e2m1": "VectorElement::E2M1", "f16": "VectorElement::F16",
                   "bf16": "VectorElement::BF16"},
    }[kind][value]


# The quantizer fields of a gemv or conversion entry.
NOT_QUANTIZER = "SimOp::GemvOrConvert, nullptr, nullptr, false"


def product_sums(opt, name, options, specs):
    """Per spec of a variant, whether its gemv kernel sums products (the
    tensor-core kernel): what --convert-nvfp4-to-gpu with the variant's
    options puts in each host function's launch."""
    module = "\n".join(function(s, f"{name}_{i}") for i, s in enumerate(specs))
    out = subprocess.run([opt, f"--convert-nvfp4-to-gpu={options}", "-"],
                         input=module, capture_output=True, text=True,
                         check=True).stdout
    funcs = out.split("func.func @")[1:]
    if len(funcs) != len(specs):
        sys.exit(f"variant {name}: {len(funcs)} functions for "
                 f"{len(specs)} specs")
    return [re.search(r'sums = "products"', f) is not None for f in funcs]


def table(opt):
    """Each entry: the variant, its options and spec, the one function
    pointer of the entry point's signature (convert; packed b: a, sfa, b,
    sfb, c without and with alpha; 16-bit b: a, sfa, b, c without and with
    alpha), the shape and types, then N, whether b has a vector dimension
    and b's element type."""
    lines = ["// Generated by tools/nvfp4-sim-check/variants.py: do not edit.",
             'extern "C" {']
    entries = []
    for name, options, specs in VARIANTS:
        products = product_sums(opt, name, options, specs)
        for i, spec in enumerate(specs):
            fn = f"{name}_{i}"
            if spec.startswith("convert:"):
                rows, cols, l, scale, src, dst = parse_convert(spec)
                lines.append(f"void {fn}(void *, void *);")
                entries.append(
                    f'  {{"{name}", "{options}", "{spec}", {fn}, nullptr, '
                    f"nullptr, nullptr, nullptr, {rows}, {cols}, {l}, "
                    f"{cpp_enum('scale', scale)}, {cpp_enum('layout', src)}, "
                    f"{cpp_enum('layout', dst)}, ElementType::F32, false, 1, "
                    f"false, VectorElement::E2M1, {NOT_QUANTIZER}, false, "
                    f"false}},")
                continue
            if spec.startswith(("quantize:", "dequantize:")):
                op, rows, k, l, fmt, layout, elem, gs = parse_quantize(spec)
                args = 4 if gs else 3
                lines.append(f"void {fn}({', '.join(['void *'] * args)});")
                kind = "Quantize" if op == "quantize" else "Dequantize"
                three, four = ("nullptr", fn) if gs else (fn, "nullptr")
                entries.append(
                    f'  {{"{name}", "{options}", "{spec}", nullptr, nullptr, '
                    f"nullptr, nullptr, nullptr, {rows}, {k}, {l}, "
                    f"{cpp_enum('format', fmt)}, {cpp_enum('layout', layout)}, "
                    f"ScaleLayout::Linear, {cpp_enum('output', elem)}, false, "
                    f"1, false, VectorElement::E2M1, SimOp::{kind}, {three}, "
                    f"{four}, {'true' if gs else 'false'}, false, false}},")
                continue
            g = parse_gemv(spec)
            m, k, l, fmt, layout, out, alpha, n, vector = (
                g["m"], g["k"], g["l"], g["format"], g["layout"], g["output"],
                g["alpha"], g["n"], g["vector"])
            # The entry point takes one pointer a buffer: no sfb for 16-bit b.
            buffers = 5 if vector == "e2m1" else 4
            params = ", ".join(["void *"] * buffers + (["float"] if alpha
                                                       else []))
            lines.append(f"void {fn}({params});")
            slot = (0 if vector == "e2m1" else 2) + (1 if alpha else 0)
            ptrs = ", ".join(fn if j == slot else "nullptr" for j in range(4))
            entries.append(
                f'  {{"{name}", "{options}", "{spec}", nullptr, {ptrs}, {m}, '
                f"{k}, {l}, {cpp_enum('format', fmt)}, "
                f"{cpp_enum('layout', layout)}, ScaleLayout::Linear, "
                f"{cpp_enum('output', out)}, {'true' if alpha else 'false'}, "
                f"{n or 1}, {'false' if n is None else 'true'}, "
                f"{cpp_enum('vector', vector)}, {NOT_QUANTIZER}, "
                f"{'true' if products[i] else 'false'}, "
                f"{'true' if g['tiled'] else 'false'}}},")
    lines.append("}")
    lines.append("const SimKernel kSimKernels[] = {")
    lines += entries
    lines.append("};")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "cmake":
        for name, options, _ in VARIANTS:
            print(f"{name}|{options}")
    elif sys.argv[1] == "mlir" and len(sys.argv) == 3:
        name, _, specs = find(sys.argv[2])
        print("\n".join(function(s, f"{name}_{i}")
                        for i, s in enumerate(specs)), end="")
    elif sys.argv[1] == "table" and len(sys.argv) == 3:
        print(table(sys.argv[2]), end="")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
