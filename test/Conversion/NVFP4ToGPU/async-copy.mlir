// async-copy-stages: a reaches shared memory through nvgpu asynchronous
// copies (cp.async) that run stages - 1 steps ahead of the decode, and the
// PTX pipeline lowers them through NVVM.
//
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a async-copy-stages=3 rows-per-thread=4" \
// RUN:   | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a async-copy-stages=3 rows-per-thread=4 export-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/nvfp4_gemv_256x4096x1_nvfp4_linear_f16.ptx

func.func @gemv(%a: memref<1x256x2048xi8>, %sfa: memref<1x256x256xf8E4M3FN>,
                %b: memref<1x2048xi8>, %sfb: memref<1x256xf8E4M3FN>,
                %c: memref<1x256xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x256x2048xi8>, memref<1x256x256xf8E4M3FN>, memref<1x2048xi8>,
        memref<1x256xf8E4M3FN> into memref<1x256xf16>
  return
}

// 3 stages x 128 threads x 4 rows x 16 bytes, 16-byte aligned.
// CHECK: gpu.func
// CHECK-SAME: workgroup(
// CHECK-SAME: memref<24576xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}
// Two stages are issued before the loop, four rows each.
// CHECK-COUNT-4: nvgpu.device_async_copy {{.*}}, 16 {bypassL1}
// CHECK: nvgpu.device_async_create_group
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK: %[[GROUP:.*]] = nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_wait %[[GROUP]] {numGroups = 2 : i32}
// CHECK: vector.load {{.*}} : memref<24576xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// After the loop, every copy is waited for.
// CHECK: nvgpu.device_async_wait {{.*}} {numGroups = 0 : i32}

// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group 2;
// PTX: ld.shared.v4
// PTX: cp.async.wait_group 0;
