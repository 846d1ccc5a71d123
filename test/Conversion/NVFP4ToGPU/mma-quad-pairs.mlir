// quad-pairs: the tensor-core kernel reads a and packed vectors 128 bytes a
// row by two quads and trades 16 bytes a row (one shuffle a word), where a
// row has two whole steps or more, 16-byte loads or pairs of 8-byte ones
// where rows are an odd number of 8-byte blocks; with one whole step, with
// async-copy-stages, and in the CUDA-core kernel, it is off and the kernel
// is built as without it.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma quad-pairs=true" | FileCheck %s --check-prefix=ON
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma" | FileCheck %s --check-prefix=OFF
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="decode=mma quad-pairs=true async-copy-stages=2" | FileCheck %s --check-prefix=STAGES
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="decode=f32 quad-pairs=true" | FileCheck %s --check-prefix=CUDACORE

// ON:       gpu.launch_func @nvfp4_gemv_64x2048x1_n8
// ON-SAME:  quad_pairs = true
// ON:       gpu.launch_func @nvfp4_gemv_64x2944x1_n8
// ON-SAME:  quad_pairs = true
// ON:       gpu.launch_func @nvfp4_gemv_64x1040x1_n8_nvfp4_blocked128x4
// ON-SAME:  quad_pairs = true
// ON:       gpu.launch_func @nvfp4_gemv_64x2048x1_n16
// ON-SAME:  quad_pairs = true
// ON:       gpu.launch_func @nvfp4_gemv_64x2048x1_vbf16
// ON-SAME:  quad_pairs = true
// ON:       gpu.launch_func @nvfp4_gemv_64x192x1_n8
// ON-SAME:  quad_pairs = false
// 16 whole steps: pairs; 2 rows and one vector a lane, so two loads and
// four shuffles a row or vector, twelve in all, then the MMAs.
// ON-LABEL: gpu.func @nvfp4_gemv_64x2048x1_n8
// ON:       scf.for
// ON-COUNT-12: gpu.shuffle  xor {{.*}}, %c4_i32{{.*}}, %c32_i32{{.*}} : i32
// ON-NOT:   gpu.shuffle
// ON:       nvgpu.mma.sync
// 23 whole steps (2944): 11 pairs, then the last step alone.
// ON-LABEL: gpu.func @nvfp4_gemv_64x2944x1_n8
// ON:       scf.for
// ON-COUNT-12: gpu.shuffle  xor {{.*}}, %c4_i32{{.*}}, %c32_i32{{.*}} : i32
// ON-NOT:   gpu.shuffle
// ON:       nvgpu.mma.sync
// ON:       scf.for
// ON-NOT:   gpu.shuffle
// ON:       nvgpu.mma.sync
// 8 whole steps of rows of 65 blocks (1040): pairs of 8-byte loads, the
// same shuffles.
// ON-LABEL: gpu.func @nvfp4_gemv_64x1040x1_n8_nvfp4_blocked128x4
// ON:       scf.for
// ON-COUNT-12: gpu.shuffle  xor {{.*}}, %c4_i32{{.*}}, %c32_i32{{.*}} : i32
// ON-NOT:   gpu.shuffle
// ON:       nvgpu.mma.sync
// Sixteen vectors (two MMAs, 4 rows a lane): 4 rows and 2 vectors a lane,
// 24 shuffles.
// ON-LABEL: gpu.func @nvfp4_gemv_64x2048x1_n16
// ON:       scf.for
// ON-COUNT-24: gpu.shuffle  xor {{.*}}, %c4_i32{{.*}}, %c32_i32{{.*}} : i32
// ON-NOT:   gpu.shuffle
// ON:       nvgpu.mma.sync
// A bf16 vector loads 64 bytes a lane as before: a's eight shuffles, then
// the bf16 MMAs.
// ON-LABEL: gpu.func @nvfp4_gemv_64x2048x1_vbf16
// ON:       scf.for
// ON-COUNT-8: gpu.shuffle  xor {{.*}}, %c4_i32{{.*}}, %c32_i32{{.*}} : i32
// ON-NOT:   gpu.shuffle
// ON:       nvvm.mma.sync

// OFF-NOT:  gpu.shuffle  xor
// OFF:      quad_pairs = false
// OFF-NOT:  quad_pairs = true
// STAGES-NOT: quad_pairs = true
// STAGES:   async_copy_stages = 2
// STAGES-SAME: quad_pairs = false
// CUDACORE-NOT: quad_pairs = true
// CUDACORE: decode = "f32"
// CUDACORE-SAME: quad_pairs = false

func.func @even(%a: memref<1x64x1024xi8>, %sfa: memref<1x1x32x512xf8E4M3FN>,
    %b: memref<1x8x1024xi8>, %sfb: memref<1x1x32x512xf8E4M3FN>,
    %c: memref<1x8x64xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x64x1024xi8>, memref<1x1x32x512xf8E4M3FN>,
        memref<1x8x1024xi8>, memref<1x1x32x512xf8E4M3FN>
        into memref<1x8x64xf16>
  return
}
func.func @odd(%a: memref<1x64x1472xi8>, %sfa: memref<1x64x184xf8E4M3FN>,
    %b: memref<1x8x1472xi8>, %sfb: memref<1x8x184xf8E4M3FN>,
    %c: memref<1x8x64xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x64x1472xi8>, memref<1x64x184xf8E4M3FN>,
        memref<1x8x1472xi8>, memref<1x8x184xf8E4M3FN>
        into memref<1x8x64xf16>
  return
}
func.func @halves(%a: memref<1x64x520xi8>,
    %sfa: memref<1x1x17x512xf8E4M3FN>, %b: memref<1x8x520xi8>,
    %sfb: memref<1x1x17x512xf8E4M3FN>, %c: memref<1x8x64xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x64x520xi8>, memref<1x1x17x512xf8E4M3FN>,
        memref<1x8x520xi8>, memref<1x1x17x512xf8E4M3FN>
        into memref<1x8x64xf16>
  return
}
func.func @sixteen(%a: memref<1x64x1024xi8>, %sfa: memref<1x1x32x512xf8E4M3FN>,
    %b: memref<1x16x1024xi8>, %sfb: memref<1x1x32x512xf8E4M3FN>,
    %c: memref<1x16x64xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x64x1024xi8>, memref<1x1x32x512xf8E4M3FN>,
        memref<1x16x1024xi8>, memref<1x1x32x512xf8E4M3FN>
        into memref<1x16x64xf16>
  return
}
func.func @bf16_vector(%a: memref<1x64x1024xi8>,
    %sfa: memref<1x1x32x512xf8E4M3FN>, %b: memref<1x2048xbf16>,
    %c: memref<1x64xbf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<1x64x1024xi8>, memref<1x1x32x512xf8E4M3FN>,
        memref<1x2048xbf16> into memref<1x64xbf16>
  return
}
func.func @one_step(%a: memref<1x64x96xi8>, %sfa: memref<1x64x12xf8E4M3FN>,
    %b: memref<1x8x96xi8>, %sfb: memref<1x8x12xf8E4M3FN>,
    %c: memref<1x8x64xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x64x96xi8>, memref<1x64x12xf8E4M3FN>,
        memref<1x8x96xi8>, memref<1x8x12xf8E4M3FN>
        into memref<1x8x64xf16>
  return
}
