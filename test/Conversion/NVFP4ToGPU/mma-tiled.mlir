// tiled_codes take the tensor-core kernel by themselves, for one vector as
// for N and for 16-bit vectors, and quad-pairs does not apply to them (the
// kernel's loads of a are whole 512-byte runs without it); the launch says
// the codes are tiled, for the runner to lay a out so.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a" | FileCheck %s
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a decode=mma quad-pairs=true" | FileCheck %s

// CHECK:     gpu.launch_func @nvfp4_gemv_64x1024x1_nvfp4
// CHECK-SAME: decode = "mma"
// CHECK-SAME: quad_pairs = false
// CHECK-SAME: tiled_codes = true
// CHECK:     gpu.launch_func @nvfp4_gemv_64x1024x1_vbf16
// CHECK-SAME: decode = "mma"
// CHECK-SAME: tiled_codes = true
// CHECK-LABEL: gpu.func @nvfp4_gemv_64x1024x1_nvfp4
// CHECK-NOT: gpu.shuffle xor {{.*}}, %c4_i32
// CHECK:     nvgpu.mma.sync
func.func @one(%a: memref<1x64x512xi8>, %sfa: memref<1x64x64xf8E4M3FN>,
    %b: memref<1x512xi8>, %sfb: memref<1x64xf8E4M3FN>,
    %c: memref<1x64xf16>) {
  nvfp4.gemv <nvfp4> <linear> tiled_codes %a, %sfa, %b, %sfb into %c
      : memref<1x64x512xi8>, memref<1x64x64xf8E4M3FN>, memref<1x512xi8>,
        memref<1x64xf8E4M3FN> into memref<1x64xf16>
  return
}

func.func @wide(%a: memref<1x64x512xi8>, %sfa: memref<1x1x16x512xf8E4M3FN>,
    %b: memref<1x1024xbf16>, %c: memref<1x64xf32>) {
  nvfp4.gemv <nvfp4> <blocked128x4> tiled_codes %a, %sfa, %b into %c
      : memref<1x64x512xi8>, memref<1x1x16x512xf8E4M3FN>, memref<1x1024xbf16>
        into memref<1x64xf32>
  return
}
