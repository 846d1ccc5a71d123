// RUN: nvfp4-opt %s -split-input-file --convert-nvfp4-to-tcgen05="stages=3 tma-copies=false" --canonicalize --cse | FileCheck %s

// MXFP4 (ue8m0 scales, one per 32 values): a stage is one 128x4 scale atom
// column, K = 128, so two tcgen05.mma.kind::mxf4.block_scale.block32 per
// stage read the same TMEM scale columns with scale-factor IDs 0 and 2
// (instruction descriptors 0x08820480 and 0x488204A0).

// CHECK-LABEL: func.func @mxfp4_linear
// CHECK: dynamic_shared_memory_size %c29216_i32
// CHECK-SAME: config = {copy_bytes = 16 : i64, mma = "tcgen05.mma.kind::mxf4.block32", mma_shape = [128, 8, 64], stage_k = 128 : i64, stages = 3 : i64, tma_a = false, tma_sfa = false, tmem_columns = 32 : i64}
// CHECK-SAME: scale_format = "mxfp4"
// CHECK: gpu.func @nvfp4_gemv_256x1024x1_mxfp4_linear_f16_tcgen05
// CHECK-SAME: nvfp4.scale_staging = "linear-to-blocked"
// CHECK-DAG: %[[ID0:.*]] = arith.constant 142738560 : i32
// CHECK-DAG: %[[ID2:.*]] = arith.constant 1216480416 : i32
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// 3 slots x (8 + 4 + 4) columns + 8 for D fit in 32 TMEM columns.
// CHECK: nvvm.tcgen05.alloc %{{.*}}, %c32_i32
// a: 8192 bytes a stage, 4 x 16-byte chunks a thread.
// CHECK-COUNT-4: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// ue8m0 scales have no sign: a plain barrier, no sign check.
// CHECK-NOT: llvm.alloca
// CHECK: scf.for %[[J:.*]] = %c0 to %c8 step %c1 {
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK-NEXT: nvvm.elect.sync
// CHECK: nvvm.tcgen05.cp %[[SFA:[^,]*]], %{{.*}} {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
// CHECK: nvvm.tcgen05.cp %[[SFB:[^,]*]], %{{.*}} {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
// CHECK: %[[FIRST:.*]] = arith.cmpi ne, %[[J]], %c0 : index
// CHECK: nvvm.tcgen05.mma.block_scale %[[D:[^,]*]], %{{.*}}, %{{.*}}, %[[ID0]], %[[FIRST]], %[[SFA]], %[[SFB]] {blockScale = #nvvm.tcgen05_mma_block_scale<block32>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf4>}
// The second MMA's A slab starts 4096 bytes on (128 rows x 32 bytes).
// CHECK: arith.addi %{{.*}}, %c4096 : index
// CHECK: nvvm.tcgen05.mma.block_scale %[[D]], %{{.*}}, %{{.*}}, %[[ID2]], %[[TRUE]], %[[SFA]], %[[SFB]] {blockScale = #nvvm.tcgen05_mma_block_scale<block32>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf4>}
// CHECK-NOT: nvvm.tcgen05.mma
// CHECK: nvvm.tcgen05.commit
// Last stage 7: slot 1 (barrier at 29184 + 8), parity (7 / 3) % 2 = 0.
// CHECK: %[[LAST:.*]] = llvm.getelementptr %{{.*}}[29192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: scf.while
// CHECK-NEXT: nvvm.mbarrier.try_wait %[[LAST]], %c0_i32, %c10000000_i32
// CHECK: nvvm.tcgen05.dealloc %{{.*}}, %c32_i32
func.func @mxfp4_linear(%a: memref<1x256x512xi8>, %sfa: memref<1x256x32xf8E8M0FNU>,
    %b: memref<1x512xi8>, %sfb: memref<1x32xf8E8M0FNU>, %c: memref<1x256xf16>,
    %alpha: f32) {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x256x512xi8>, memref<1x256x32xf8E8M0FNU>, memref<1x512xi8>,
        memref<1x32xf8E8M0FNU> into memref<1x256xf16>
  return
}

// -----

// CHECK-LABEL: func.func @mxfp4_blocked
// CHECK: gpu.func @nvfp4_gemv_128x2048x2_mxfp4_blocked128x4_f32_tcgen05
// CHECK-SAME: nvfp4.scale_staging = "blocked-copy"
// CHECK: nvvm.tcgen05.mma.block_scale {{.*}}blockScale = #nvvm.tcgen05_mma_block_scale<block32>{{.*}}kind = #nvvm.block_scale_kind<mxf4>
// CHECK: nvvm.tcgen05.mma.block_scale {{.*}}blockScale = #nvvm.tcgen05_mma_block_scale<block32>{{.*}}kind = #nvvm.block_scale_kind<mxf4>
// CHECK: nvvm.tcgen05.ld
// CHECK-NOT: arith.truncf
// CHECK: memref.store %{{.*}} : memref<2x128xf32>
func.func @mxfp4_blocked(%a: memref<2x128x1024xi8>, %sfa: memref<2x1x16x512xf8E8M0FNU>,
    %b: memref<2x1024xi8>, %sfb: memref<2x1x16x512xf8E8M0FNU>, %c: memref<2x128xf32>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x128x1024xi8>, memref<2x1x16x512xf8E8M0FNU>, memref<2x1024xi8>,
        memref<2x1x16x512xf8E8M0FNU> into memref<2x128xf32>
  return
}
