// The tcgen05 lowering takes packed e2m1 vectors, one (b [L, K/2]) or
// N = 1..16 (b [L, N, K/2], test/Conversion/NVFP4ToTcgen05/vectors.mlir):
// 16-bit vectors (bf16/f16 b, no sfb) and a dynamic number of vectors are
// located errors naming the lowerings that take them (the CUDA-core kernels
// and the loops).
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics --convert-nvfp4-to-tcgen05
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics --nvfp4-to-ptx="strategy=tcgen05"
// One run reports every op, and exits with an error:
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="strategy=tcgen05" 2>&1 | FileCheck %s
// RUN: not nvfp4-opt %s --convert-nvfp4-to-tcgen05 2>&1 | FileCheck %s

// CHECK-DAG: error: 'nvfp4.gemv' op has no tcgen05 kernel for b of 'bf16' values (it takes vectors of packed e2m1); --convert-nvfp4-to-gpu and --nvfp4-cpu-pipeline lower it
func.func @bf16_vector(%a: memref<1x128x32xi8>, %sfa: memref<1x128x4xf8E4M3FN>,
    %b: memref<1x64xbf16>, %c: memref<1x128xf16>) {
  // expected-error @+1 {{has no tcgen05 kernel for b of 'bf16' values}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c
      : memref<1x128x32xi8>, memref<1x128x4xf8E4M3FN>, memref<1x64xbf16>
        into memref<1x128xf16>
  return
}

// -----

// CHECK-DAG: error: 'nvfp4.gemv' op has no tcgen05 kernel for b of 'f16' values
func.func @f16_vectors(%a: memref<2x128x32xi8>, %sfa: memref<2x128x2xf8E8M0FNU>,
    %b: memref<2x3x64xf16>, %c: memref<2x3x128xf32>, %alpha: f32) {
  // expected-error @+1 {{has no tcgen05 kernel for b of 'f16' values}}
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c alpha(%alpha)
      : memref<2x128x32xi8>, memref<2x128x2xf8E8M0FNU>, memref<2x3x64xf16>
        into memref<2x3x128xf32>
  return
}

// -----

// CHECK-DAG: error: 'nvfp4.gemv' op has no tcgen05 kernel for a dynamic number of vectors (the kernel is specialised on N); --convert-nvfp4-to-gpu and --nvfp4-cpu-pipeline lower it
func.func @dynamic_vectors(%a: memref<1x128x32xi8>, %sfa: memref<1x128x4xf8E4M3FN>,
    %b: memref<1x?x32xi8>, %sfb: memref<1x?x4xf8E4M3FN>, %c: memref<1x?x128xf32>) {
  // expected-error @+1 {{has no tcgen05 kernel for a dynamic number of vectors}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x128x32xi8>, memref<1x128x4xf8E4M3FN>, memref<1x?x32xi8>,
        memref<1x?x4xf8E4M3FN> into memref<1x?x128xf32>
  return
}
