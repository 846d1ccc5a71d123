// decode=mma with async-copy-stages: each lane copies its bytes of a whole
// step (cp.async: 16 bytes of a row or of b, and the aligned 4-byte word of
// each scale pair) into its slots of its warp's stage in dynamic shared
// memory, stages - 1 steps ahead, and reads them back after its own wait.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a decode=mma async-copy-stages=3 split-k=2" | FileCheck %s
// The kernels assemble, and the launch asks for the stages' bytes.
// RUN: rm -rf %t && nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a decode=mma async-copy-stages=3 split-k=2 export-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/nvfp4_gemv_256x2048x1_n8_nvfp4_blocked128x4_f16.json
// RUN: FileCheck %s --check-prefix=PTX < %t/nvfp4_gemv_256x2048x1_n8_nvfp4_blocked128x4_f16.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/nvfp4_gemv_256x2048x1_n8_nvfp4_blocked128x4_f16.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/nvfp4_gemv_64x2064x1_n4_nvfp4_blocked128x4_f16.ptx -o /dev/null %}
// What the stages cannot take is a located error (and mma-stages-invalid.mlir).
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma async-copy-stages=9" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma async-copy-stages=2 loads-in-flight=2" 2>&1 | FileCheck %s --check-prefix=LIF
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma async-copy-stages=8 split-k=16 rows-per-thread=8" 2>&1 | FileCheck %s --check-prefix=FIT
// RANGE: error: 'nvfp4.gemv' op async-copy-stages must be in [2, 8], got 9
// LIF: error: 'nvfp4.gemv' op decode=mma: async-copy-stages keeps steps in flight in shared memory, loads-in-flight in registers; give one of them
// FIT: error: 'nvfp4.gemv' op decode=mma async-copy-stages = 8 needs {{[0-9]+}} bytes of shared memory a CTA (stages x warps x {{[0-9]+}} bytes a warp's stage, and the split-k partials), more than the 232448

// 3 stages x 4 warps x (3 x 512 + 3 x 128) bytes (2 rows a lane).
// CHECK: gpu.launch_func {{.*}} dynamic_shared_memory_size %c23040_i32
// CHECK: llvm.mlir.global external @__nvfp4_mma_stages() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: gpu.func @nvfp4_gemv_256x2048x1_n8_nvfp4_blocked128x4_f16(
// Two steps copied before the loop, one group each.
// CHECK-COUNT-2: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// Eight vectors: no lane reads another's copy, so no warp barrier.
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> i16
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache ={{ +}}cg
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache ={{ +}}ca
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
// MANIFEST-DAG: "shared_bytes": 23040
// MANIFEST-DAG: "async_copy_stages": 3
// PTX: .extern .shared .align 16 .b8 __nvfp4_mma_stages[];
// PTX: cp.async.cg.shared.global
// PTX: cp.async.wait_group 1;
func.func @n8(%a: memref<1x256x1024xi8>, %sfa: memref<1x2x32x512xf8E4M3FN>,
    %b: memref<1x8x1024xi8>, %sfb: memref<1x1x32x512xf8E4M3FN>,
    %c: memref<1x8x256xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x256x1024xi8>, memref<1x2x32x512xf8E4M3FN>, memref<1x8x1024xi8>,
        memref<1x1x32x512xf8E4M3FN> into memref<1x8x256xf16>
  return
}

// Four vectors on rows of 129 blocks (1032 bytes: 8 bytes off 16 every
// other row): a's 16 bytes are two 8-byte copies, and lanes of vectors 4-7
// read the slots of the lanes that copied vector 3 after a warp barrier.
// CHECK-LABEL: gpu.func @nvfp4_gemv_64x2064x1_n4_nvfp4_blocked128x4_f16(
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: %{{.*}} = arith.constant -1 : i32
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache ={{ +}}ca
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global
func.func @n4(%a: memref<1x64x1032xi8>, %sfa: memref<1x1x33x512xf8E4M3FN>,
    %b: memref<1x4x1032xi8>, %sfb: memref<1x1x33x512xf8E4M3FN>,
    %c: memref<1x4x64xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x64x1032xi8>, memref<1x1x33x512xf8E4M3FN>, memref<1x4x1032xi8>,
        memref<1x1x33x512xf8E4M3FN> into memref<1x4x64xf16>
  return
}
