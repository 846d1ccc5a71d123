// RUN: nvfp4-opt %s -split-input-file --convert-nvfp4-to-tcgen05="tma-copies=false" --canonicalize --cse | FileCheck %s

// NVFP4, linear scales, K = 1024 (16 stages of K64), 4-slot ring (default).

// CHECK-LABEL: func.func @nvfp4_linear
// CHECK: gpu.launch_func @[[NAME:nvfp4_gemv_256x1024x2_nvfp4_linear_f16_tcgen05]]::@[[NAME]]
// CHECK-SAME: blocks in (%c2, %c2, %c1) threads in (%c128, %c1, %c1)
// CHECK-SAME: dynamic_shared_memory_size %c21552_i32
// CHECK-SAME: nvfp4.launch = {block = [128, 1, 1], chip = "sm_100a"
// CHECK-SAME: config = {copy_bytes = 16 : i64, mma = "tcgen05.mma.kind::mxf4nvf4.block16", mma_shape = [128, 8, 64], stage_k = 64 : i64, stages = 4 : i64, tma_a = false, tma_sfa = false, tmem_columns = 64 : i64}
// CHECK-SAME: grid = [2, 2, 1]
// CHECK-SAME: params = ["a", "sfa", "b", "sfb", "c", "alpha"]
// CHECK-SAME: scale_format = "nvfp4", scale_layout = "linear", shared_bytes = 21552 : i64, strategy = "tcgen05"

// CHECK: gpu.module @[[NAME]] [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">]
// CHECK: llvm.mlir.global external @__nvfp4_tcgen05_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK: gpu.func @[[NAME]]
// CHECK-SAME: kernel attributes {nvfp4.scale_staging = "linear-to-blocked", nvvm.reqntid = array<i32: 128, 1, 1>}

// Descriptor constants from Tcgen05Descriptors.h: the instruction descriptor
// 0x08020480 (M 128, N 8, e2m1 x e2m1, ue4m3 scales), the A and B tiles
// (32-byte swizzle, SBO 256, LBO field 1: 0xC000401000010000) and the
// scale-atom copy (SBO = LBO = 128: 0x400800080000).
// CHECK-DAG: %[[IDESC:.*]] = arith.constant 134349952 : i32
// CHECK-DAG: %[[ABDESC:.*]] = arith.constant -4611615580963667968 : i64
// CHECK-DAG: %[[CPDESC:.*]] = arith.constant 70403104440320 : i64
// CHECK-DAG: %[[SIGNS:.*]] = arith.constant -2139062144 : i32
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[FIELD:.*]] = arith.constant 16383 : i32
// CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @__nvfp4_tcgen05_smem : !llvm.ptr<3>
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK-DAG: %[[SMEM32:.*]] = llvm.ptrtoint %[[SMEM]] : !llvm.ptr<3> to i32

// The thread's negative-scale flag, before any control flow.
// CHECK: %[[FLAG:.*]] = llvm.alloca %c1_i32 x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
// CHECK-NEXT: llvm.store %c0_i32, %[[FLAG]] : i32, !llvm.ptr

// The ring (4 x 5376 bytes) is zeroed once; the mbarriers of the 4 slots,
// then tcgen05.alloc of 64 columns (8 for D, 4 x 4 each for sfa and sfb).
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK: nvvm.mbarrier.init
// CHECK: nvvm.mbarrier.init
// CHECK: nvvm.mbarrier.init
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.tcgen05.alloc %{{.*}}, %c64_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK: %[[TMEM:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32

// Prologue: stages 0-2. a: 2 x 16-byte cp.async.cg a thread; b: 16 bytes;
// sfa: each thread's 4 scales, 4 bytes, to its row's word of the atom; sfb: 4.
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = ca
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group

// Main loop over the 16 stages. Each thread checks the sign bits of its
// row's scale word (its own copy), the sfb thread those of the vector's; the
// barrier ORs the latter into every thread. Then one elected thread of warp
// 0 issues.
// CHECK: scf.for %[[J:.*]] = %c0 to %c16 step %c1 {
// CHECK: nvvm.cp.async.wait.group 2
// CHECK: %[[OWN:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[OWNSIGNS:.*]] = arith.andi %[[OWN]], %[[SIGNS]] : i32
// CHECK-NEXT: %[[VEC:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: arith.andi %{{.*}}, %[[SIGNS]] : i32
// CHECK: } else {
// CHECK-NEXT: scf.yield %c0_i32 : i32
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: %[[ANY:.*]] = nvvm.barrier #nvvm.reduction<or> %[[VEC]] -> i32
// CHECK-NEXT: %[[F0:.*]] = llvm.load %[[FLAG]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[F1:.*]] = arith.ori %[[F0]], %[[OWNSIGNS]] : i32
// CHECK-NEXT: %[[F2:.*]] = arith.ori %[[F1]], %[[ANY]] : i32
// CHECK-NEXT: llvm.store %[[F2]], %[[FLAG]] : i32, !llvm.ptr
// CHECK-NEXT: scf.if
// CHECK-NEXT: %[[ELECTED:.*]] = nvvm.elect.sync -> i1
// CHECK-NEXT: scf.if %[[ELECTED]] {
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK: arith.shrui %{{.*}}, %c4_i32 : i32
// CHECK-NEXT: arith.andi %{{.*}}, %[[FIELD]] : i32
// CHECK-NEXT: arith.extui
// CHECK-NEXT: %[[SFADESC:.*]] = arith.ori %{{.*}}, %[[CPDESC]] : i64
// CHECK: %[[SFA:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.cp %[[SFA]], %[[SFADESC]] {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
// CHECK: %[[SFB:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.cp %[[SFB]], %{{.*}} {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
// CHECK: %[[D:.*]] = llvm.inttoptr %[[TMEM]] : i32 to !llvm.ptr<6>
// CHECK: %[[FIRST:.*]] = arith.cmpi ne, %[[J]], %c0 : index
// CHECK: %[[A:.*]] = arith.ori %{{.*}}, %[[ABDESC]] : i64
// CHECK: arith.addi %{{.*}}, %c4096 : index
// CHECK: %[[B:.*]] = arith.ori %{{.*}}, %[[ABDESC]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma.block_scale %[[D]], %[[A]], %[[B]], %[[IDESC]], %[[FIRST]], %[[SFA]], %[[SFB]] {blockScale = #nvvm.tcgen05_mma_block_scale<block16>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf4nvf4>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
// CHECK-NOT: nvvm.tcgen05.mma
// CHECK: nvvm.tcgen05.commit %{{.*}} : !llvm.ptr<3>
// CHECK-NEXT: }
// Refill the slot of stage j - 1 with stage j + 3 once its MMA completed.
// CHECK: scf.if
// CHECK: scf.if
// CHECK: scf.while : () -> () {
// CHECK-NEXT: %[[DONE:.*]] = nvvm.mbarrier.try_wait %{{.*}}, %{{.*}}, %c10000000_i32 : !llvm.ptr<3>, i32, i32 -> i1
// CHECK-NEXT: %[[WAITING:.*]] = arith.xori %[[DONE]], %true : i1
// CHECK-NEXT: scf.condition(%[[WAITING]])
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: }

// Epilogue: the last commit (stage 15, slot 3, parity 1), then warp w reads
// lanes 32w.. of column 0 (lane field (tid / 32) * 32 << 16).
// CHECK: %[[LAST:.*]] = llvm.getelementptr %[[SMEM]][21528] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: scf.while
// CHECK-NEXT: nvvm.mbarrier.try_wait %[[LAST]], %c1_i32, %c10000000_i32
// CHECK: nvvm.tcgen05.fence <after>
// CHECK: arith.muli %{{.*}}, %c2097152 : index
// CHECK: %[[RES:.*]] = nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : i32
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %[[PINNED:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=r,r" %[[RES]] : (i32) -> i32
// CHECK-NEXT: %[[F:.*]] = arith.bitcast %[[PINNED]] : i32 to f32
// CHECK-NEXT: %[[SEEN:.*]] = llvm.load %[[FLAG]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpi ne, %[[SEEN]], %c0_i32 : i32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[NEG]], %[[NAN]], %[[F]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[R]], %arg5 : f32
// CHECK-NEXT: %[[H:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK: memref.store %[[H]], %arg4[%{{.*}}, %{{.*}}] : memref<2x256xf16>
// CHECK: nvvm.tcgen05.fence <before>
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.tcgen05.fence <after>
// CHECK: nvvm.tcgen05.dealloc %{{.*}}, %c64_i32 : !llvm.ptr<6>, i32
func.func @nvfp4_linear(%a: memref<2x256x512xi8>, %sfa: memref<2x256x64xf8E4M3FN>,
    %b: memref<2x512xi8>, %sfb: memref<2x64xf8E4M3FN>, %c: memref<2x256xf16>,
    %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x256x512xi8>, memref<2x256x64xf8E4M3FN>, memref<2x512xi8>,
        memref<2x64xf8E4M3FN> into memref<2x256xf16>
  return
}

// -----

// NVFP4, blocked scales: thread t copies row t's word of the atom (4 bytes);
// sfb reads the first word of its atom.

// CHECK-LABEL: func.func @nvfp4_blocked
// CHECK: scale_layout = "blocked128x4"
// CHECK: gpu.func @nvfp4_gemv_7168x2048x4_nvfp4_blocked128x4_bf16_tcgen05
// CHECK-SAME: nvfp4.scale_staging = "blocked-copy"
// CHECK-NOT: arith.cmpi ult, %{{.*}}, %c32 : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK: nvvm.tcgen05.mma.block_scale {{.*}}kind = #nvvm.block_scale_kind<mxf4nvf4>
// CHECK-NOT: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @nvfp4_blocked(%a: memref<4x7168x1024xi8>, %sfa: memref<4x56x32x512xf8E4M3FN>,
    %b: memref<4x1024xi8>, %sfb: memref<4x1x32x512xf8E4M3FN>,
    %c: memref<4x7168xbf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<4x7168x1024xi8>, memref<4x56x32x512xf8E4M3FN>, memref<4x1024xi8>,
        memref<4x1x32x512xf8E4M3FN> into memref<4x7168xbf16>
  return
}
