// With blocked scales a thread takes the 4 rows 32 apart whose scales share
// one 16-byte line of an atom, and loads that line once per step; otherwise
// it loads each row's scales separately.
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=4 rows-per-block=16 split-k=1 cta-split-k=1" | FileCheck %s
// RUN: nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=4 rows-per-block=16 split-k=1 cta-split-k=1 interleave-rows=false" \
// RUN:   | FileCheck %s --check-prefix=PLAIN

// 130 rows pad to 2 atoms = 64 row groups of 4 rows; 4 groups a CTA.
// CHECK-LABEL: func.func @blocked
// CHECK: gpu.launch_func
// CHECK-SAME: interleave_rows = true
// CHECK-SAME: grid = [16, 2, 1]
// CHECK-LABEL: gpu.func @nvfp4_gemv_130x2048x2_nvfp4_blocked128x4_f16
// CHECK: vector.load {{.*}} : memref<2x2x32x512xf8E4M3FN>, vector<16xf8E4M3FN>
// CHECK-NOT: memref<2x2x32x512xf8E4M3FN>, vector<2xf8E4M3FN>
// CHECK: nvvm.convert.f8x2.to.f16x2

// PLAIN-LABEL: func.func @blocked
// PLAIN: interleave_rows = false
// PLAIN-SAME: grid = [9, 2, 1]
// PLAIN-LABEL: gpu.func @nvfp4_gemv_130x2048x2_nvfp4_blocked128x4_f16
// PLAIN-NOT: vector<16xf8E4M3FN>
// PLAIN: vector.load {{.*}} : memref<2x2x32x512xf8E4M3FN>, vector<2xf8E4M3FN>
func.func @blocked(%a: memref<2x130x1024xi8>, %sfa: memref<2x2x32x512xf8E4M3FN>,
                   %b: memref<2x1024xi8>, %sfb: memref<2x1x32x512xf8E4M3FN>,
                   %c: memref<2x130xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x130x1024xi8>, memref<2x2x32x512xf8E4M3FN>, memref<2x1024xi8>,
        memref<2x1x32x512xf8E4M3FN> into memref<2x130xf16>
  return
}

// -----

// K = 1040 (65 columns) takes 8-byte loads: one column a load, one byte of
// each row's word; MXFP4's 16-byte load is one column too.
// CHECK-LABEL: func.func @odd_columns
// CHECK: interleave_rows = true
// CHECK-LABEL: func.func @mxfp4
// CHECK: interleave_rows = true
// CHECK-LABEL: gpu.func @nvfp4_gemv_130x1040x2_nvfp4_blocked128x4_f16
// CHECK: vector.load {{.*}} : memref<2x2x17x512xf8E4M3FN>, vector<16xf8E4M3FN>
// CHECK-NOT: vector<2xf8E4M3FN>
// CHECK-COUNT-4: arith.trunci {{.*}} : i32 to i8
// CHECK-LABEL: gpu.func @nvfp4_gemv_130x2048x2_mxfp4_blocked128x4_f16
// CHECK: vector.load {{.*}} : memref<2x2x16x512xf8E8M0FNU>, vector<16xf8E8M0FNU>
// CHECK-COUNT-4: arith.trunci {{.*}} : i32 to i8

// PLAIN-LABEL: func.func @odd_columns
// PLAIN: interleave_rows = false
// PLAIN-LABEL: func.func @mxfp4
// PLAIN: interleave_rows = false
func.func @odd_columns(%a: memref<2x130x520xi8>, %sfa: memref<2x2x17x512xf8E4M3FN>,
                       %b: memref<2x520xi8>, %sfb: memref<2x1x17x512xf8E4M3FN>,
                       %c: memref<2x130xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x130x520xi8>, memref<2x2x17x512xf8E4M3FN>, memref<2x520xi8>,
        memref<2x1x17x512xf8E4M3FN> into memref<2x130xf16>
  return
}

func.func @mxfp4(%a: memref<2x130x1024xi8>, %sfa: memref<2x2x16x512xf8E8M0FNU>,
                 %b: memref<2x1024xi8>, %sfb: memref<2x1x16x512xf8E8M0FNU>,
                 %c: memref<2x130xf16>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x130x1024xi8>, memref<2x2x16x512xf8E8M0FNU>, memref<2x1024xi8>,
        memref<2x1x16x512xf8E8M0FNU> into memref<2x130xf16>
  return
}
