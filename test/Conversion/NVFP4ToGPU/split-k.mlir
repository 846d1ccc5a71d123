// K split across CTAs and a row's partial last step. K = 2880: a row is 90
// loads of 16 bytes, so 32 lanes walk it in 2 whole steps and a last step
// of 26 lanes; cta-split-k = 3 cuts it into 3 slices of 32 loads, the last
// one 26 long. The CTAs of a row block add their partials through a global
// workspace (cta-reduction=global) or as a thread-block cluster (auto's
// choice up to 8 CTAs).
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a cta-split-k=3 split-k=1 rows-per-thread=4 rows-per-block=16 cta-reduction=global" \
// RUN:   | FileCheck %s
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a cta-split-k=3 split-k=1 rows-per-thread=4 rows-per-block=16" \
// RUN:   | FileCheck %s --check-prefix=CLUSTER
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a cta-split-k=3 split-k=1 rows-per-thread=4 rows-per-block=16 cta-reduction=cluster" \
// RUN:   | FileCheck %s --check-prefix=CLUSTER
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a cta-split-k=1 split-k=1 rows-per-thread=4 rows-per-block=16" \
// RUN:   | FileCheck %s --check-prefix=ONE

// 64 rows / 16 = 4 row blocks, times 3 K slices.
// CHECK-LABEL: func.func @gemv_64x2880x2_nvfp4_linear_f16
// CHECK: gpu.launch_func {{.*}} blocks in (%c12, %c2, %c1)
// CHECK-SAME: cta_reduction = "global", cta_split_k = 3
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

// As a cluster of the 3 CTAs of a row block: no workspace or counters;
// every CTA arrives at the cluster barrier when it starts and waits before
// its leaders write their partials into the first CTA's shared memory
// (mapa to rank 0), then arrives (release) and waits (acquire) again; the
// first CTA adds the 3 partials of each row in slice order.
// CLUSTER-LABEL: func.func @gemv_64x2880x2_nvfp4_linear_f16
// CLUSTER: gpu.launch_func {{.*}} blocks in (%c12, %c2, %c1)
// CLUSTER-SAME: cta_reduction = "cluster", cta_split_k = 3
// CLUSTER-NOT: memref.global
// CLUSTER: gpu.func @nvfp4_gemv_64x2880x2_nvfp4_linear_f16
// CLUSTER-SAME: workgroup(%[[PARTS:.*]] : memref<3x16xf32, #gpu.address_space<workgroup>>)
// CLUSTER-SAME: nvvm.cluster_dim = array<i32: 3, 1, 1>
// CLUSTER-NEXT: nvvm.cluster.arrive.relaxed
// CLUSTER: %[[BX:.*]] = gpu.block_id  x
// CLUSTER: %[[SLICE:.*]] = arith.remui %[[BX]], %c3
// CLUSTER: gpu.shuffle xor
// CLUSTER: nvvm.cluster.wait
// CLUSTER-COUNT-4: nvvm.mapa %{{.*}}, %c0_i32{{[_0-9]*}} : !llvm.ptr -> !llvm.ptr
// CLUSTER: nvvm.cluster.arrive
// CLUSTER-NEXT: nvvm.cluster.wait
// CLUSTER: %[[FIRST:.*]] = arith.cmpi eq, %[[SLICE]], %{{.*}} : index
// CLUSTER-NEXT: scf.if %[[FIRST]] {
// Lane j of a row group adds slice j's partial: one load a row.
// CLUSTER-COUNT-4: memref.load %[[PARTS]]
// CLUSTER: arith.truncf %{{.*}} : f32 to f16
// CLUSTER-NOT: memref.atomic_rmw
// CLUSTER-NOT: nvvm.memory.barrier
// CLUSTER: gpu.return

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

// The cost model splits across at most a portable cluster's 8 CTAs unless
// the reduction goes through global memory: one row of K = 32768 read by 2
// lanes has 512 steps.
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 1x32768x1 | nvfp4-opt --convert-nvfp4-to-gpu="lanes-per-row=2" | FileCheck %s --check-prefix=CAP
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 1x32768x1 | nvfp4-opt --convert-nvfp4-to-gpu="lanes-per-row=2 cta-reduction=global" | FileCheck %s --check-prefix=NOCAP
// CAP: cta_reduction = "cluster", cta_split_k = 8 : i64
// CAP: nvvm.cluster_dim = array<i32: 8, 1, 1>
// NOCAP: cta_reduction = "global", cta_split_k = 32 : i64
// NOCAP-NOT: nvvm.cluster_dim
