// Rows past M read the last row: their indices are clamped to M - 1. With
// row-offsets, where the grid has no such row (M a multiple of a CTA's
// rows, of 128 with interleaved rows), both kernels index rows without the
// clamp, so that a thread's rows, and their addresses, stay a constant
// stride apart; the manifest's row_offsets says which was built.
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a row-offsets=true" | FileCheck %s
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=4 rows-per-block=16 split-k=1 cta-split-k=1 row-offsets=true" \
// RUN:   | FileCheck %s --check-prefix=INTERLEAVED
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=4 rows-per-block=16 split-k=1 cta-split-k=1 interleave-rows=false row-offsets=true" \
// RUN:   | FileCheck %s --check-prefix=PLAIN
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=OFF

// OFF-LABEL: func.func @aligned
// OFF: row_offsets = false
// OFF-LABEL: gpu.func @nvfp4_gemv_256x2048x1_nvfp4_blocked128x4_f16
// OFF: arith.minui {{.*}}, %c255
// CHECK-LABEL: func.func @aligned
// CHECK: row_offsets = true
// CHECK-LABEL: gpu.func @nvfp4_gemv_256x2048x1_nvfp4_blocked128x4_f16
// CHECK-NOT: arith.minui {{.*}}, %c255
// CHECK: gpu.return
// PLAIN-LABEL: gpu.func @nvfp4_gemv_256x2048x1_nvfp4_blocked128x4_f16
// PLAIN-NOT: arith.minui {{.*}}, %c255
// PLAIN: gpu.return
// INTERLEAVED-LABEL: gpu.func @nvfp4_gemv_256x2048x1_nvfp4_blocked128x4_f16
// INTERLEAVED-NOT: arith.minui {{.*}}, %c255
// INTERLEAVED: gpu.return
func.func @aligned(%a: memref<1x256x1024xi8>, %sfa: memref<1x2x32x512xf8E4M3FN>,
                   %b: memref<1x1024xi8>, %sfb: memref<1x1x32x512xf8E4M3FN>,
                   %c: memref<1x256xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x256x1024xi8>, memref<1x2x32x512xf8E4M3FN>, memref<1x1024xi8>,
        memref<1x1x32x512xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

// 130 rows in CTAs of 16.
// PLAIN-LABEL: func.func @ragged
// PLAIN: row_offsets = false
// PLAIN-LABEL: gpu.func @nvfp4_gemv_130x2048x1_nvfp4_blocked128x4_f16
// PLAIN: arith.minui {{.*}}, %c129
// INTERLEAVED-LABEL: gpu.func @nvfp4_gemv_130x2048x1_nvfp4_blocked128x4_f16
// INTERLEAVED: arith.minui {{.*}}, %c129
func.func @ragged(%a: memref<1x130x1024xi8>, %sfa: memref<1x2x32x512xf8E4M3FN>,
                  %b: memref<1x1024xi8>, %sfb: memref<1x1x32x512xf8E4M3FN>,
                  %c: memref<1x130xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x130x1024xi8>, memref<1x2x32x512xf8E4M3FN>, memref<1x1024xi8>,
        memref<1x1x32x512xf8E4M3FN> into memref<1x130xf16>
  return
}

// -----

// 192 rows are 12 CTAs of 16, but interleaved row groups cover two atoms of
// 128 rows: those rows are clamped, the plain ones are not.
// INTERLEAVED-LABEL: gpu.func @nvfp4_gemv_192x2048x1_nvfp4_blocked128x4_f16
// INTERLEAVED: arith.minui {{.*}}, %c191
// PLAIN-LABEL: gpu.func @nvfp4_gemv_192x2048x1_nvfp4_blocked128x4_f16
// PLAIN-NOT: arith.minui {{.*}}, %c191
// PLAIN: gpu.return
func.func @partial_atom(%a: memref<1x192x1024xi8>,
                        %sfa: memref<1x2x32x512xf8E4M3FN>,
                        %b: memref<1x1024xi8>,
                        %sfb: memref<1x1x32x512xf8E4M3FN>,
                        %c: memref<1x192xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x192x1024xi8>, memref<1x2x32x512xf8E4M3FN>, memref<1x1024xi8>,
        memref<1x1x32x512xf8E4M3FN> into memref<1x192xf16>
  return
}

// -----

// The tensor-core kernel (eight vectors).
// OFF-LABEL: gpu.func @nvfp4_gemv_256x2048x1_n8_nvfp4_blocked128x4_f16
// OFF: arith.minui {{.*}}, %c255
// CHECK-LABEL: gpu.func @nvfp4_gemv_256x2048x1_n8_nvfp4_blocked128x4_f16
// CHECK-NOT: arith.minui {{.*}}, %c255
// CHECK: gpu.return
func.func @mma_aligned(%a: memref<1x256x1024xi8>,
                       %sfa: memref<1x2x32x512xf8E4M3FN>,
                       %b: memref<1x8x1024xi8>,
                       %sfb: memref<1x1x32x512xf8E4M3FN>,
                       %c: memref<1x8x256xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x256x1024xi8>, memref<1x2x32x512xf8E4M3FN>, memref<1x8x1024xi8>,
        memref<1x1x32x512xf8E4M3FN> into memref<1x8x256xf16>
  return
}

// -----

// CHECK-LABEL: gpu.func @nvfp4_gemv_130x2048x1_n8_nvfp4_blocked128x4_f16
// CHECK: arith.minui {{.*}}, %c129
func.func @mma_ragged(%a: memref<1x130x1024xi8>,
                      %sfa: memref<1x2x32x512xf8E4M3FN>,
                      %b: memref<1x8x1024xi8>,
                      %sfb: memref<1x1x32x512xf8E4M3FN>,
                      %c: memref<1x8x130xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x130x1024xi8>, memref<1x2x32x512xf8E4M3FN>, memref<1x8x1024xi8>,
        memref<1x1x32x512xf8E4M3FN> into memref<1x8x130xf16>
  return
}
