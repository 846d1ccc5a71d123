// The tcgen05 kernel's tensor copies (tma-copies, on by default): a's
// 128 x 32-byte slabs (32-byte swizzle: the layout the MMA's descriptors
// read) and blocked sfa atoms move by nvgpu.tma.async.load, issued by thread
// 0 and counted by the slot's "full" nvgpu mbarrier; every wait is
// nvvm.mbarrier.try_wait in a plain loop, no inline PTX. The IR between the
// passes, the PTX, the manifest (read by nvfp4-run --check and the ISA
// model of nvfp4-tcgen05-check, which places the boxes with its own model
// of the copy) and ptxas. (Assembled and modelled only: there is no
// Blackwell GPU to run them on.)
//
// RUN: nvfp4-opt %s -split-input-file --convert-nvfp4-to-tcgen05 --canonicalize --cse | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: nvfp4-opt %s -split-input-file --nvfp4-to-ptx="strategy=tcgen05 chip=sm_100a export-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/nvfp4_gemv_200x1024x2_nvfp4_blocked128x4_f16_tcgen05.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t/nvfp4_gemv_200x1024x2_nvfp4_blocked128x4_f16_tcgen05.json
// RUN: FileCheck %s --check-prefix=MXJSON < %t/nvfp4_gemv_64x2048x1_mxfp4_linear_f32_tcgen05.json
// RUN: cd %t && nvfp4-run --check nvfp4_gemv_200x1024x2_nvfp4_blocked128x4_f16_tcgen05.json nvfp4_gemv_64x2048x1_mxfp4_linear_f32_tcgen05.json nvfp4_gemv_128x80x1_nvfp4_linear_f16_tcgen05.json | FileCheck %s --check-prefix=RUNNER
// RUN: nvfp4-tcgen05-check %t/nvfp4_gemv_200x1024x2_nvfp4_blocked128x4_f16_tcgen05.ptx --m 200 --k 1024 --l 2 --layout blocked | FileCheck %s --check-prefix=MODEL
// RUN: nvfp4-tcgen05-check %t/nvfp4_gemv_64x2048x1_mxfp4_linear_f32_tcgen05.ptx --m 64 --k 2048 --format mxfp4 | FileCheck %s --check-prefix=MODEL
// RUN: not nvfp4-tcgen05-check %t/nvfp4_gemv_200x1024x2_nvfp4_blocked128x4_f16_tcgen05.ptx --m 200 --k 1024 --l 2 --layout blocked --mutate expect-tx | FileCheck %s --check-prefix=COUNTED
// RUN: not nvfp4-tcgen05-check %t/nvfp4_gemv_64x2048x1_mxfp4_linear_f32_tcgen05.ptx --m 64 --k 2048 --format mxfp4 --mutate unswizzled-staging | FileCheck %s --check-prefix=UNSWIZZLED
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t/nvfp4_gemv_200x1024x2_nvfp4_blocked128x4_f16_tcgen05.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning --implicit-check-not=error %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t/nvfp4_gemv_64x2048x1_mxfp4_linear_f32_tcgen05.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning --implicit-check-not=error %}

// NVFP4, blocked scales: a and sfa by tensor copies. The kernel takes the
// two maps' addresses after c (the host passes 0; the runtime encodes the
// maps from the manifest), described in the launch dictionary.
// CHECK-LABEL: func.func @nvfp4_blocked
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: gpu.launch_func @[[NAME:nvfp4_gemv_200x1024x2_nvfp4_blocked128x4_f16_tcgen05]]::@[[NAME]]
// CHECK-SAME: dynamic_shared_memory_size %c21584_i32
// CHECK-SAME: %arg4 : memref<2x200xf16>, %[[ZERO]] : i64, %[[ZERO]] : i64)
// CHECK-SAME: tma_a = true, tma_sfa = true
// CHECK-SAME: params = ["a", "sfa", "b", "sfb", "c", "a_tensor_map", "sfa_tensor_map"]
// CHECK-SAME: shared_bytes = 21584 : i64
// CHECK-SAME: tensor_maps = [{box = [32, 128, 1], data_type = "uint8", dims = [512, 200, 2], element_strides = [1, 1, 1], l2_promotion = "256b", oob_fill = "zero", param = "a_tensor_map", strides = [512, 102400], swizzle = "32b", tensor = "a"},
// CHECK-SAME: {box = [128, 1, 1, 1], data_type = "uint32", dims = [128, 16, 2, 2], element_strides = [1, 1, 1, 1], l2_promotion = "256b", oob_fill = "zero", param = "sfa_tensor_map", strides = [512, 8192, 16384], swizzle = "none", tensor = "sfa"}]

// CHECK: gpu.func @[[NAME]](%{{.*}}, %[[AMAP:.*]]: i64, %[[SFAMAP:.*]]: i64) kernel
// CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @__nvfp4_tcgen05_smem : !llvm.ptr<3>
// CHECK-DAG: %[[APTR:.*]] = llvm.inttoptr %[[AMAP]] : i64 to !llvm.ptr
// CHECK-DAG: %[[A:.*]] = builtin.unrealized_conversion_cast %[[APTR]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<1x128x32xi8, #gpu.address_space<workgroup>>, swizzle = swizzle_32b, l2promo = l2promo_256b, oob = zero, interleave = none>
// CHECK-DAG: %[[SFAPTR:.*]] = llvm.inttoptr %[[SFAMAP]] : i64 to !llvm.ptr
// CHECK-DAG: %[[SFA:.*]] = builtin.unrealized_conversion_cast %[[SFAPTR]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<1x1x1x128xi32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = l2promo_256b, oob = zero, interleave = none>

// The four full barriers follow the four MMA barriers (21504 + 4 x 8).
// CHECK: %[[FULLPTR:.*]] = llvm.getelementptr %[[SMEM]][21536] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[FULL:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)> to !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: nvvm.mbarrier.init
// CHECK-COUNT-4: nvgpu.mbarrier.init %[[FULL]][%{{.*}}], %c1
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: nvgpu.tma.prefetch.descriptor %[[A]]
// CHECK-NEXT: nvgpu.tma.prefetch.descriptor %[[SFA]]

// Prologue, stage 0 into slot 0: thread 0 arms the barrier with 128 x 32 +
// 512 bytes, then copies a's box (K byte 0, the row tile's first row, the
// batch) and the atom (column block 0, the row tile, the batch) into shared
// memory views of the slot (a at 0, sfa at 4096 + 256).
// CHECK: nvvm.tcgen05.alloc
// CHECK: scf.if
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%c0], %c4608
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %block_id_x, %c128 : index
// CHECK: %[[ADST:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<1x128x32xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT: nvgpu.tma.async.load %[[A]][%c0, %[[ROW]], %block_id_y], %[[FULL]][%c0] to %[[ADST]]
// CHECK-NEXT: llvm.getelementptr %[[SMEM]][4352]
// CHECK: %[[SFADST:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<1x1x1x128xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT: nvgpu.tma.async.load %[[SFA]][%c0, %c0, %block_id_x, %block_id_y], %[[FULL]][%c0] to %[[SFADST]]
// CHECK-NEXT: }
// b and sfb stay per-thread cp.async; no per-thread copy of a or sfa.
// CHECK-NOT: cache = cg
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = ca
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK: nvvm.cp.async.commit.group

// Stage j: the own cp.async groups, then the slot's full barrier in phase
// (j / 4) % 2, before the sign check reads the staged sfa word.
// CHECK: scf.for %[[J:.*]] = %c0 to %c16 step %c1 {
// CHECK: nvvm.cp.async.wait.group 2
// CHECK: %[[FULLJ:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[PHASE:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: scf.while : () -> () {
// CHECK-NEXT: %[[DONE:.*]] = nvvm.mbarrier.try_wait %[[FULLJ]], %[[PHASE]], %c10000000_i32 : !llvm.ptr<3>, i32, i32 -> i1
// CHECK-NEXT: %[[WAITING:.*]] = arith.xori %[[DONE]], %true : i1
// CHECK-NEXT: scf.condition(%[[WAITING]])
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK: nvvm.barrier #nvvm.reduction<or>
// CHECK: nvvm.tcgen05.mma.block_scale
// CHECK: nvvm.tcgen05.commit
// Refill: after the MMA barrier of stage j - 1, stage j + 3 into its slot.
// CHECK: scf.while
// CHECK: nvvm.mbarrier.try_wait
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[SLOT:.*]]], %c4608
// CHECK: nvgpu.tma.async.load %[[A]][%{{.*}}, %{{.*}}, %block_id_y], %[[FULL]][%[[SLOT]]]
// CHECK: nvgpu.tma.async.load %[[SFA]][%c0, %{{.*}}, %block_id_x, %block_id_y], %[[FULL]][%[[SLOT]]]
// No inline assembly but the one move that pins tcgen05.ld's result.
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $1;"
// CHECK-NOT: llvm.inline_asm
func.func @nvfp4_blocked(%a: memref<2x200x512xi8>, %sfa: memref<2x2x16x512xf8E4M3FN>,
    %b: memref<2x512xi8>, %sfb: memref<2x1x16x512xf8E4M3FN>, %c: memref<2x200xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x200x512xi8>, memref<2x2x16x512xf8E4M3FN>, memref<2x512xi8>,
        memref<2x1x16x512xf8E4M3FN> into memref<2x200xf16>
  return
}

// -----

// MXFP4, linear scales, M = 64: a's box is the whole of A's 64 rows; a K128
// stage is two boxes (two K64 slabs, 4096 bytes apart), 2 x 64 x 32 bytes.
// Linear scales are rearranged by the threads, so there is one map.
// CHECK-LABEL: func.func @mxfp4_linear
// CHECK: tma_a = true, tma_sfa = false
// CHECK-SAME: params = ["a", "sfa", "b", "sfb", "c", "a_tensor_map"]
// CHECK-SAME: tensor_maps = [{box = [32, 64, 1], data_type = "uint8", dims = [1024, 64, 1]
// CHECK: gpu.func @nvfp4_gemv_64x2048x1_mxfp4_linear_f32_tcgen05
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%c0], %c4096
// CHECK: nvgpu.tma.async.load %{{.*}}[%c0, %{{.*}}, %{{.*}}], %{{.*}}[%c0] to %{{.*}} : {{.*}} -> memref<1x64x32xi8, #gpu.address_space<workgroup>>
// CHECK: llvm.getelementptr %{{.*}}[4096]
// CHECK: nvgpu.tma.async.load %{{.*}}[%c32, %{{.*}}, %{{.*}}], %{{.*}}[%c0] to %{{.*}} : {{.*}} -> memref<1x64x32xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: nvgpu.tma.async.load
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = ca
func.func @mxfp4_linear(%a: memref<1x64x1024xi8>, %sfa: memref<1x64x64xf8E8M0FNU>,
    %b: memref<1x1024xi8>, %sfb: memref<1x64xf8E8M0FNU>, %c: memref<1x64xf32>) {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x64x1024xi8>, memref<1x64x64xf8E8M0FNU>, memref<1x1024xi8>,
        memref<1x64xf8E8M0FNU> into memref<1x64xf32>
  return
}

// -----

// K = 80: rows of 40 bytes are no multiple of 16 (a map's strides must
// be), so every copy stays per-thread and the kernel takes no map.
// CHECK-LABEL: func.func @no_map
// CHECK: tma_a = false, tma_sfa = false
// CHECK-SAME: params = ["a", "sfa", "b", "sfb", "c"]
// CHECK-NOT: tensor_maps
// CHECK: gpu.func @nvfp4_gemv_128x80x1_nvfp4_linear_f16_tcgen05(%{{[^)]*}}: memref<1x128xf16>) kernel
// CHECK-NOT: nvgpu.
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca
// CHECK-NOT: nvgpu.
func.func @no_map(%a: memref<1x128x40xi8>, %sfa: memref<1x128x5xf8E4M3FN>,
    %b: memref<1x40xi8>, %sfb: memref<1x5xf8E4M3FN>, %c: memref<1x128xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x128x40xi8>, memref<1x128x5xf8E4M3FN>, memref<1x40xi8>,
        memref<1x5xf8E4M3FN> into memref<1x128xf16>
  return
}

// PTX: .param .u64 nvfp4_gemv_200x1024x2_nvfp4_blocked128x4_f16_tcgen05_param_5,
// PTX-NEXT: .param .u64 nvfp4_gemv_200x1024x2_nvfp4_blocked128x4_f16_tcgen05_param_6
// PTX-COUNT-8: mbarrier.init.shared.b64
// PTX-NEXT: fence.mbarrier_init.release.cluster;
// PTX-NEXT: prefetch.tensormap [[[AMAP:%rd[0-9]+]]];
// PTX-NEXT: prefetch.tensormap [[[SFAMAP:%rd[0-9]+]]];
// PTX: mov.b32 [[TX:%r[0-9]+]], 4608;
// PTX: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [__nvfp4_tcgen05_smem+21536], [[TX]];
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [[[AMAP]], {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [__nvfp4_tcgen05_smem+21536];
// PTX: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [[[SFAMAP]], {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [__nvfp4_tcgen05_smem+21536];
// PTX: cp.async.wait_group 2;
// PTX: mbarrier.try_wait.parity.shared.b64 [[DONE:%p[0-9]+]], [{{%rd[0-9]+}}], {{%r[0-9]+}}, {{%r[0-9]+}};
// PTX-NEXT: not.pred [[WAITING:%p[0-9]+]], [[DONE]];
// PTX-NEXT: @[[WAITING]] bra $L__BB
// PTX: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16

// JSON: "params": [
// JSON: "a_tensor_map",
// JSON-NEXT: "sfa_tensor_map"
// JSON: "shared_bytes": 21584,
// JSON: "tensor_maps": [
// JSON-NEXT: {
// JSON-NEXT: "box": [
// JSON-NEXT: 32,
// JSON-NEXT: 128,
// JSON-NEXT: 1
// JSON: "swizzle": "32b",
// JSON-NEXT: "tensor": "a"
// JSON: "data_type": "uint32",
// JSON: "param": "sfa_tensor_map",
// JSON: "swizzle": "none",
// JSON-NEXT: "tensor": "sfa"

// MXJSON: "tma_a": true,
// MXJSON-NEXT: "tma_sfa": false,
// MXJSON: "a_tensor_map"
// MXJSON-NEXT: ],

// RUNNER: OK gemv 200x1024x2 nvfp4 blocked128x4 f16 sm_100a
// RUNNER: OK gemv 64x2048x1 mxfp4 linear f32 sm_100a
// RUNNER: OK gemv 128x80x1 nvfp4 linear f16 sm_100a

// MODEL: OK: {{[0-9]+}} rows equal the float64 reference
// COUNTED: FAIL: the PTX's mbarrier.arrive.expect_tx expects 4624 bytes, the tensor copies of a stage write 4608
// UNSWIZZLED: FAIL: {{[0-9]+}} of 64 rows differ from the reference

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS: used 1 barriers
