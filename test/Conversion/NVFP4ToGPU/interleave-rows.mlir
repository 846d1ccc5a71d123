// With blocked NVFP4 scales a thread takes the 4 rows 32 apart whose scales
// share one 16-byte line of an atom, and loads that line once per step;
// otherwise it loads each row's 2 scales separately.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=4 rows-per-block=16 split-k=1 cta-split-k=1" | FileCheck %s
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=4 rows-per-block=16 split-k=1 cta-split-k=1 interleave-rows=false" \
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
