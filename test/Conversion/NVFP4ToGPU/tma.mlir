// tma: a's async-copy stages are filled by tensor-memory-accelerator copies
// (nvgpu.tma.async.load, one box per K slice and step, issued by a producer
// warp) whose completion each thread waits for on the stage's full nvgpu
// mbarrier, and which each consumer warp releases on its empty one; the
// kernel takes a's tensor map as its last parameter and the launch carries
// the map's description. The PTX pipeline lowers all of it through NVVM.
//
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a async-copy-stages=3 tma=true split-k=2 rows-per-block=8 rows-per-thread=4 lanes-per-row=32 cta-split-k=1" \
// RUN:   | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a async-copy-stages=3 tma=true split-k=2 rows-per-block=8 rows-per-thread=4 lanes-per-row=32 cta-split-k=1 export-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/nvfp4_gemv_300x8192x2_nvfp4_linear_f16.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t/nvfp4_gemv_300x8192x2_nvfp4_linear_f16.json
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t/nvfp4_gemv_300x8192x2_nvfp4_linear_f16.ptx -o %t/k.cubin %}

func.func @gemv(%a: memref<2x300x4096xi8>, %sfa: memref<2x300x512xf8E4M3FN>,
                %b: memref<2x4096xi8>, %sfb: memref<2x512xf8E4M3FN>,
                %c: memref<2x300xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x300x4096xi8>, memref<2x300x512xf8E4M3FN>, memref<2x4096xi8>,
        memref<2x512xf8E4M3FN> into memref<2x300xf16>
  return
}

// The host passes 0 for the map: the runtime encodes it from the manifest.
// CHECK: %[[NOMAP:.*]] = arith.constant 0 : i64
// CHECK: gpu.launch_func {{.*}} args({{.*}}, %[[NOMAP]] : i64)
// CHECK-SAME: params = ["a", "sfa", "b", "sfb", "c", "a_tensor_map"]
// CHECK-SAME: tensor_maps = [{box = [64, 8, 1], data_type = "uint64", dims = [512, 300, 2], element_strides = [1, 1, 1], l2_promotion = "256b", oob_fill = "zero", param = "a_tensor_map", strides = [4096, 1228800], swizzle = "none", tensor = "a"}]
// 3 stages x 2 slices of 8 rows x 64 8-byte elements, 128-byte aligned.
// CHECK: gpu.func {{.*}}(%{{.*}}: memref<2x300x4096xi8>, {{.*}}, %[[MAP:.*]]: i64)
// CHECK-SAME: workgroup(
// CHECK-SAME: memref<6x8x64xi64, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}
// CHECK-SAME: nvvm.reqntid = array<i32: 160, 1, 1>
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[MAP]] : i64 to !llvm.ptr
// CHECK: %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[PTR]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<1x8x64xi64, #gpu.address_space<workgroup>>, swizzle = none, l2promo = l2promo_256b, oob = zero, interleave = none>
// A full and an empty barrier a stage; the empty ones count the 4 consumer
// warps (128 threads); the producer warp makes 160.
// CHECK: %[[BARS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
// CHECK: nvgpu.mbarrier.init %[[BARS]][%{{.*}}], %c1
// CHECK: nvgpu.mbarrier.init %[[BARS]][%c3{{.*}}], %c4
// CHECK-COUNT-4: nvgpu.mbarrier.init %[[BARS]]
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// Consumers: the next step's scales and b are loaded before the wait, and
// each warp releases the stage after its decode.
// CHECK: %[[SPLIT:.*]]:4 = scf.if
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BARS]]
// CHECK: vector.load {{.*}} : memref<6x8x64xi64, #gpu.address_space<workgroup>>, vector<2xi64>
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.bar.warp.sync
// CHECK: nvgpu.mbarrier.arrive %[[BARS]]
// CHECK: } else {
// The producer fills the 3 stages (a box per slice each), then refills a
// stage once its empty barrier has seen every consumer warp.
// CHECK: nvgpu.tma.prefetch.descriptor %[[DESC]]
// CHECK-NOT: predicate
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%{{.*}}], %c8192
// CHECK-COUNT-2: nvgpu.tma.async.load %[[DESC]]
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK-COUNT-2: nvgpu.tma.async.load %[[DESC]]
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK-COUNT-2: nvgpu.tma.async.load %[[DESC]]
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BARS]]
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK-COUNT-2: nvgpu.tma.async.load %[[DESC]]
// CHECK: scf.yield %cst, %cst, %cst, %cst
// CHECK-NOT: nvgpu.device_async_copy

// PTX: .param .u64 {{.*}}_param_5
// PTX-DAG: prefetch.tensormap
// PTX-DAG: mbarrier.init.shared.b64
// PTX-DAG: fence.mbarrier_init.release.cluster;
// PTX-DAG: mbarrier.arrive.expect_tx.shared.b64
// PTX-DAG: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: mbarrier.try_wait.parity.shared.b64
// PTX-DAG: ld.shared.v4
// PTX-DAG: fence.proxy.async.shared::cta
// PTX-DAG: bar.warp.sync
// PTX-DAG: mbarrier.arrive.shared.b64
// PTX-NOT: cp.async.cg

// JSON: "params": [
// JSON: "a_tensor_map"
// JSON: "tensor_maps": [
// JSON: "box": [
// JSON-NEXT: 64,
// JSON-NEXT: 8,
// JSON-NEXT: 1

// A box never exceeds the tensor (nvfp4-run refuses such maps): one row
// (M = 1) and a row of 4 elements (K = 64) cut the box to [4, 1, 1].
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 1x64x3:f32 | nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_90a async-copy-stages=3 tma=true" | FileCheck %s --check-prefix=SMALL
// SMALL: tensor_maps = [{box = [4, 1, 1], data_type = "uint64", dims = [4, 1, 3]
// SMALL: !nvgpu.tensormap.descriptor<tensor = memref<1x1x4xi64
