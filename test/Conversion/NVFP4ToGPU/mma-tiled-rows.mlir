// Tiled codes index a lane's rows unclamped wherever the grid has no row
// past M (its loads then share one address), without the row-offsets
// option that row-major codes need; rows past M are clamped as before.
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=4" | FileCheck %s

// CHECK-LABEL: func.func @aligned
// CHECK: gpu.launch_func @nvfp4_gemv_64x1024x1_n8_nvfp4
// CHECK-SAME: row_offsets = true
// CHECK-SAME: tiled_codes = true
// CHECK-LABEL: gpu.func @nvfp4_gemv_64x1024x1_n8_nvfp4
// CHECK-NOT: arith.minui {{.*}}, %c63
// CHECK: gpu.return
func.func @aligned(%a: memref<1x64x512xi8>, %sfa: memref<1x64x64xf8E4M3FN>,
    %b: memref<1x8x512xi8>, %sfb: memref<1x8x64xf8E4M3FN>,
    %c: memref<1x8x64xf16>) {
  nvfp4.gemv <nvfp4> <linear> tiled_codes %a, %sfa, %b, %sfb into %c
      : memref<1x64x512xi8>, memref<1x64x64xf8E4M3FN>, memref<1x8x512xi8>,
        memref<1x8x64xf8E4M3FN> into memref<1x8x64xf16>
  return
}

// -----

// 48 rows in warps of 32.
// CHECK-LABEL: func.func @ragged
// CHECK: gpu.launch_func @nvfp4_gemv_48x1024x1_n8_nvfp4
// CHECK-SAME: row_offsets = false
// CHECK-LABEL: gpu.func @nvfp4_gemv_48x1024x1_n8_nvfp4
// CHECK: arith.minui {{.*}}, %c47
func.func @ragged(%a: memref<1x48x512xi8>, %sfa: memref<1x48x64xf8E4M3FN>,
    %b: memref<1x8x512xi8>, %sfb: memref<1x8x64xf8E4M3FN>,
    %c: memref<1x8x48xf16>) {
  nvfp4.gemv <nvfp4> <linear> tiled_codes %a, %sfa, %b, %sfb into %c
      : memref<1x48x512xi8>, memref<1x48x64xf8E4M3FN>, memref<1x8x512xi8>,
        memref<1x8x64xf8E4M3FN> into memref<1x8x48xf16>
  return
}

// -----

// Row-major codes keep the clamp unless row-offsets is given.
// CHECK-LABEL: func.func @rows
// CHECK: gpu.launch_func @nvfp4_gemv_64x1024x1_n8_nvfp4
// CHECK-SAME: row_offsets = false
// CHECK-LABEL: gpu.func @nvfp4_gemv_64x1024x1_n8_nvfp4
// CHECK: arith.minui {{.*}}, %c63
func.func @rows(%a: memref<1x64x512xi8>, %sfa: memref<1x64x64xf8E4M3FN>,
    %b: memref<1x8x512xi8>, %sfb: memref<1x8x64xf8E4M3FN>,
    %c: memref<1x8x64xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x64x512xi8>, memref<1x64x64xf8E4M3FN>, memref<1x8x512xi8>,
        memref<1x8x64xf8E4M3FN> into memref<1x8x64xf16>
  return
}
