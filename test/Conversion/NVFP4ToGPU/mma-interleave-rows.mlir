// decode=mma with blocked scales: a lane's 4 rows (two tiles a warp) or 2
// rows (one tile) are rows 32 apart whose scales share one 16-byte line of
// an atom, loaded once a step (16 or 8 bytes); b's scales stay a pair a
// load. Not where whole atoms of rows would add CTAs (257 rows), with
// linear scales, with async-copy-stages, or with interleave-rows=false.
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a decode=mma rows-per-thread=4 split-k=2" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a decode=mma rows-per-thread=2 split-k=2" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a decode=mma rows-per-thread=4 split-k=2 interleave-rows=false" \
// RUN:   | FileCheck %s --check-prefix=PLAIN
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a decode=mma rows-per-thread=4 split-k=2 async-copy-stages=2" \
// RUN:   | FileCheck %s --check-prefix=PLAIN

// 256 rows: as many CTAs either way (4 of 64 rows, 8 of 32).
// CHECK-LABEL: func.func @atoms
// CHECK:       gpu.launch_func
// CHECK-SAME:  interleave_rows = true
// TWO-SAME:    grid = [4, 1, 1]
// ONE-SAME:    grid = [8, 1, 1]
// CHECK-LABEL: gpu.func @nvfp4_gemv_256x2048x1_n8_nvfp4_blocked128x4_f16
// TWO:         vector.load %{{.*}} : memref<1x2x32x512xf8E4M3FN>, vector<16xf8E4M3FN>
// ONE:         vector.load %{{.*}} : memref<1x2x32x512xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK-NOT:   memref<1x2x32x512xf8E4M3FN>, vector<2xf8E4M3FN>
// CHECK:       vector.load %{{.*}} : memref<1x1x32x512xf8E4M3FN>, vector<2xf8E4M3FN>
// CHECK:       arith.shrui
// CHECK:       nvgpu.mma.sync
// PLAIN-LABEL: func.func @atoms
// PLAIN:       interleave_rows = false
// PLAIN-LABEL: gpu.func @nvfp4_gemv_256x2048x1_n8_nvfp4_blocked128x4_f16
// PLAIN-NOT:   vector<16xf8E4M3FN>
// PLAIN-NOT:   vector<8xf8E4M3FN>
func.func @atoms(%a: memref<1x256x1024xi8>, %sfa: memref<1x2x32x512xf8E4M3FN>, %b: memref<1x8x1024xi8>, %sfb: memref<1x1x32x512xf8E4M3FN>, %c: memref<1x8x256xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x256x1024xi8>, memref<1x2x32x512xf8E4M3FN>, memref<1x8x1024xi8>, memref<1x1x32x512xf8E4M3FN> into memref<1x8x256xf16>
  return
}

// -----

// 257 rows: 5 (or 9) CTAs, 6 (12) for whole atoms.
// CHECK-LABEL: func.func @grid_would_grow
// CHECK:       interleave_rows = false
// TWO-SAME:    grid = [5, 1, 1]
// ONE-SAME:    grid = [9, 1, 1]
// CHECK-LABEL: gpu.func @nvfp4_gemv_257x2048x1_n8_nvfp4_blocked128x4_f16
// CHECK-NOT:   vector<16xf8E4M3FN>
// CHECK-NOT:   vector<8xf8E4M3FN>
func.func @grid_would_grow(%a: memref<1x257x1024xi8>, %sfa: memref<1x3x32x512xf8E4M3FN>, %b: memref<1x8x1024xi8>, %sfb: memref<1x1x32x512xf8E4M3FN>, %c: memref<1x8x257xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x257x1024xi8>, memref<1x3x32x512xf8E4M3FN>, memref<1x8x1024xi8>, memref<1x1x32x512xf8E4M3FN> into memref<1x8x257xf16>
  return
}

// -----

// CHECK-LABEL: func.func @linear
// CHECK:       interleave_rows = false
func.func @linear(%a: memref<1x256x1024xi8>, %sfa: memref<1x256x128xf8E4M3FN>, %b: memref<1x8x1024xi8>, %sfb: memref<1x8x128xf8E4M3FN>, %c: memref<1x8x256xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x256x1024xi8>, memref<1x256x128xf8E4M3FN>, memref<1x8x1024xi8>, memref<1x8x128xf8E4M3FN> into memref<1x8x256xf16>
  return
}
