// K split across CTAs and a row's partial last step. K = 2880: a row is 90
// loads of 16 bytes, so 32 lanes walk it in 2 whole steps and a last step
// of 26 lanes; cta-split-k = 3 cuts it into 3 slices of 32 loads, the last
// one 26 long.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a cta-split-k=3 split-k=1 rows-per-thread=4 rows-per-block=16" \
// RUN:   | FileCheck %s
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a cta-split-k=1 split-k=1 rows-per-thread=4 rows-per-block=16" \
// RUN:   | FileCheck %s --check-prefix=ONE

// 64 rows / 16 = 4 row blocks, times 3 K slices.
// CHECK-LABEL: func.func @gemv_64x2880x2_nvfp4_linear_f16
// CHECK: gpu.launch_func {{.*}} blocks in (%c12, %c2, %c1)
// CHECK-SAME: cta_split_k = 3
// CHECK-SAME: grid = [12, 2, 1]

// The workspace [slices, L, M] and the zeroed counters [L, row blocks].
// CHECK: memref.global "private" @nvfp4_split_k_partials : memref<3x2x64xf32, #gpu.address_space<global>> = uninitialized
// CHECK: memref.global "private" @nvfp4_split_k_counters : memref<2x4xi32, #gpu.address_space<global>> = dense<0>
// CHECK: gpu.func @nvfp4_gemv_64x2880x2_nvfp4_linear_f16
// The CTA's slice and row block from blockIdx.x.
// CHECK: %[[BX:.*]] = gpu.block_id  x
// CHECK: arith.divui %[[BX]], %c3
// CHECK: arith.remui %[[BX]], %c3
// The partial step: lanes past the slice's end keep their sums.
// CHECK: %[[TAIL:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK-COUNT-4: arith.select %[[TAIL]], %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle xor
// Partials out, fence, count in; the last CTA reads them back coherently in
// a fixed order and resets its counter.
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<3x2x64xf32, #gpu.address_space<global>>
// CHECK: nvvm.memory.barrier <gpu>
// CHECK-NEXT: gpu.barrier
// CHECK: memref.atomic_rmw addi %{{.*}}, %{{.*}} : (i32, memref<2x4xi32, #gpu.address_space<global>>) -> i32
// CHECK: arith.cmpi eq, %{{.*}}, %c2_i32
// CHECK: gpu.barrier
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: llvm.load {{.*}} atomic syncscope("device") monotonic {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK: gpu.shuffle xor
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: memref.store %c0_i32{{.*}} : memref<2x4xi32, #gpu.address_space<global>>

// Without the split: no workspace, and the partial step is still there.
// ONE-LABEL: func.func @gemv_64x2880x2_nvfp4_linear_f16
// ONE: grid = [4, 2, 1]
// ONE-NOT: memref.global
// ONE: gpu.func
// ONE: arith.select
// ONE-NOT: memref.atomic_rmw
// ONE: gpu.return

func.func @gemv_64x2880x2_nvfp4_linear_f16(%a: memref<2x64x1440xi8>, %sfa: memref<2x64x180xf8E4M3FN>, %b: memref<2x1440xi8>, %sfb: memref<2x180xf8E4M3FN>, %c: memref<2x64xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha) : memref<2x64x1440xi8>, memref<2x64x180xf8E4M3FN>, memref<2x1440xi8>, memref<2x180xf8E4M3FN> into memref<2x64xf16>
  return
}
