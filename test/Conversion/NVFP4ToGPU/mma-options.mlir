// Options of the CUDA-core kernel that the tensor-core one cannot honour are
// errors with decode=mma; without a decode they keep the CUDA-core kernel.
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma lanes-per-row=8" 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma bytes-per-load=8" 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma cta-split-k=65" 2>&1 | FileCheck %s --check-prefix=CTA
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma rows-per-thread=3" 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma tma=true async-copy-stages=2" 2>&1 | FileCheck %s --check-prefix=TMA
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma split-k=17" 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma split-k=33" 2>&1 | FileCheck %s --check-prefix=SPLITRANGE
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma rows-per-block=48 rows-per-thread=4" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma rows-per-block=1024 split-k=2" 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma pin-loads=true" 2>&1 | FileCheck %s --check-prefix=PIN
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma cta-split-k=2 cta-reduction=cluster" 2>&1 | FileCheck %s --check-prefix=REDUCE
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma cta-split-k=4 split-k=5" 2>&1 | FileCheck %s --check-prefix=SLICES
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="cta-split-k=2" | FileCheck %s --check-prefix=KEEP
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="cta-reduction=cluster" | FileCheck %s --check-prefix=KEEPRED
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="pin-loads=true" | FileCheck %s --check-prefix=KEEPPIN
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="split-k=2" | FileCheck %s --check-prefix=KEEPSPLIT
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma split-k=2" | FileCheck %s --check-prefix=MMASPLIT
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma cta-split-k=2" | FileCheck %s --check-prefix=MMACTA
// LANES: mma-options.mlir:[[@LINE+29]]:3: error: 'nvfp4.gemv' op decode=mma takes lanes-per-row = 4 (the MMA fragment's layout), got 8
// BYTES: error: 'nvfp4.gemv' op decode=mma takes bytes-per-load = 16 (the MMA fragment's layout), got 8
// CTA: error: 'nvfp4.gemv' op cta-split-k must be in [1, 64], got 65
// ROWS: error: 'nvfp4.gemv' op decode=mma takes rows-per-thread = 2, 4 or 8 (two rows of each 16-row tile), got 3
// TMA: error: 'nvfp4.gemv' op decode=mma: vector-in-shared and tma apply to the CUDA-core kernel only
// PIN: error: 'nvfp4.gemv' op decode=mma: pin-loads applies to the CUDA-core kernel only
// REDUCE: error: 'nvfp4.gemv' op decode=mma adds the partials of cta-split-k through global memory (cta-reduction=global)
// SLICES: error: 'nvfp4.gemv' op split-k * cta-split-k = 20 slices leave some without work: a row has 16 steps of 64 bytes
// SPLIT: error: 'nvfp4.gemv' op split-k * cta-split-k = 17 slices leave some without work: a row has 16 steps of 64 bytes
// SPLITRANGE: error: 'nvfp4.gemv' op split-k must be in [1, 32], got 33
// BLOCK: error: 'nvfp4.gemv' op decode=mma needs rows-per-block a multiple of the 32 rows of a warp (8 x rows-per-thread), got 48
// WARPS: error: 'nvfp4.gemv' op decode=mma: rows-per-block / (8 x rows-per-thread) warps x split-k = 128 warps; a CTA holds at most 32
// KEEP: cta_split_k = 2
// KEEP-SAME: decode = "dp4a"
// KEEPRED: decode = "dp4a"
// KEEPPIN: decode = "dp4a"
// KEEPPIN-SAME: pin_loads = true
// KEEPSPLIT: decode = "dp4a"
// KEEPSPLIT-SAME: split_k = 2
// MMASPLIT: decode = "mma"
// MMASPLIT-SAME: split_k = 2
// MMACTA: gpu.launch_func
// MMACTA-SAME: blocks in (%c32,
// MMACTA-SAME: cta_reduction = "global", cta_split_k = 2 : i64, decode = "mma"
// MMACTA: memref.global "private" @nvfp4_split_k_partials : memref<2x1x4x256xf32
// MMACTA: memref.global "private" @nvfp4_split_k_counters : memref<1x16xi32
func.func @n4(%a: memref<1x256x1024xi8>, %sfa: memref<1x256x128xf8E4M3FN>,
    %b: memref<1x4x1024xi8>, %sfb: memref<1x4x128xf8E4M3FN>,
    %c: memref<1x4x256xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x256x1024xi8>, memref<1x256x128xf8E4M3FN>, memref<1x4x1024xi8>,
        memref<1x4x128xf8E4M3FN> into memref<1x4x256xf16>
  return
}
