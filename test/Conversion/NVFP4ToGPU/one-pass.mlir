// A K slice that ends in a partial step after a whole one is read in one
// pass at 4 rows a thread. K = 2880: a row is 90 loads of 16 bytes, cut
// into 2 slices of 45: 32 lanes walk each in a whole step and a partial
// one of 13 lanes, 8 loads a thread at 4 rows, so every load of a comes
// first and the second step's sums are kept by lanes 0-12 only. With
// one-pass=false, at 2 rows a thread, or with a slice of 3 steps (12
// loads) the partial step follows the whole ones.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=4 split-k=2 cta-split-k=1" | FileCheck %s
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=4 split-k=2 cta-split-k=1 one-pass=false" | FileCheck %s --check-prefix=OFF
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=2 split-k=2 cta-split-k=1" | FileCheck %s --check-prefix=OFF
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=4 split-k=1 cta-split-k=1" | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @gemv_64x2880x1
// CHECK: one_pass_steps = 2 : i64
// CHECK: gpu.func
// CHECK-NOT: scf.for
// CHECK-NOT: scf.if
// CHECK-COUNT-8: llvm.inline_asm {{.*}}ld.global.nc.L1::no_allocate.v4.u32
// CHECK-NOT: ld.global.nc.L1::no_allocate.v4.u32
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK-COUNT-4: arith.select %[[VALID]], %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle xor

// OFF-LABEL: func.func @gemv_64x2880x1
// OFF: one_pass_steps = 0 : i64
// OFF: gpu.func
// OFF: scf.for
// OFF: scf.if
// OFF: gpu.shuffle xor

func.func @gemv_64x2880x1(%a: memref<1x64x1440xi8>, %sfa: memref<1x64x180xf8E4M3FN>, %b: memref<1x1440xi8>, %sfb: memref<1x180xf8E4M3FN>, %c: memref<1x64xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x64x1440xi8>, memref<1x64x180xf8E4M3FN>, memref<1x1440xi8>, memref<1x180xf8E4M3FN> into memref<1x64xf16>
  return
}
