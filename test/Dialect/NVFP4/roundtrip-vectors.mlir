// RUN: nvfp4-opt %s | nvfp4-opt | FileCheck %s
// RUN: nvfp4-opt %s --mlir-print-op-generic | nvfp4-opt | FileCheck %s

// The N-vector forms of nvfp4.gemv: packed e2m1 b with scales in both
// layouts, 16-bit b without scales, one vector and sixteen, dynamic N.

// CHECK-LABEL: func @vectors_linear
// CHECK: nvfp4.gemv <nvfp4> <linear> %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}} alpha(%{{.*}}) : memref<2x256x64xi8>, memref<2x256x8xf8E4M3FN>, memref<2x4x64xi8>, memref<2x4x8xf8E4M3FN> into memref<2x4x256xf16>
func.func @vectors_linear(%a: memref<2x256x64xi8>, %sfa: memref<2x256x8xf8E4M3FN>,
                          %b: memref<2x4x64xi8>, %sfb: memref<2x4x8xf8E4M3FN>,
                          %c: memref<2x4x256xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x256x64xi8>, memref<2x256x8xf8E4M3FN>, memref<2x4x64xi8>,
        memref<2x4x8xf8E4M3FN> into memref<2x4x256xf16>
  return
}

// CHECK-LABEL: func @vectors_blocked_mxfp4
// CHECK: nvfp4.gemv <mxfp4> <blocked128x4> %{{.*}} into %{{.*}} : memref<1x130x256xi8>, memref<1x2x4x512xf8E8M0FNU>, memref<1x16x256xi8>, memref<1x1x4x512xf8E8M0FNU> into memref<1x16x130xbf16>
func.func @vectors_blocked_mxfp4(%a: memref<1x130x256xi8>,
                                 %sfa: memref<1x2x4x512xf8E8M0FNU>,
                                 %b: memref<1x16x256xi8>,
                                 %sfb: memref<1x1x4x512xf8E8M0FNU>,
                                 %c: memref<1x16x130xbf16>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x130x256xi8>, memref<1x2x4x512xf8E8M0FNU>, memref<1x16x256xi8>,
        memref<1x1x4x512xf8E8M0FNU> into memref<1x16x130xbf16>
  return
}

// CHECK-LABEL: func @one_vector_with_dim
// CHECK: nvfp4.gemv <nvfp4> <linear> {{.*}} : memref<1x8x32xi8>, memref<1x8x4xf8E4M3FN>, memref<1x1x32xi8>, memref<1x1x4xf8E4M3FN> into memref<1x1x8xf32>
func.func @one_vector_with_dim(%a: memref<1x8x32xi8>, %sfa: memref<1x8x4xf8E4M3FN>,
                               %b: memref<1x1x32xi8>, %sfb: memref<1x1x4xf8E4M3FN>,
                               %c: memref<1x1x8xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x8x32xi8>, memref<1x8x4xf8E4M3FN>, memref<1x1x32xi8>,
        memref<1x1x4xf8E4M3FN> into memref<1x1x8xf32>
  return
}

// CHECK-LABEL: func @bf16_vectors
// CHECK: nvfp4.gemv <mxfp4> <linear> %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}} : memref<2x256x64xi8>, memref<2x256x4xf8E8M0FNU>, memref<2x3x128xbf16> into memref<2x3x256xf32>
func.func @bf16_vectors(%a: memref<2x256x64xi8>, %sfa: memref<2x256x4xf8E8M0FNU>,
                        %b: memref<2x3x128xbf16>, %c: memref<2x3x256xf32>) {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c
      : memref<2x256x64xi8>, memref<2x256x4xf8E8M0FNU>, memref<2x3x128xbf16>
        into memref<2x3x256xf32>
  return
}

// CHECK-LABEL: func @f16_one_vector_blocked
// CHECK: nvfp4.gemv <nvfp4> <blocked128x4> %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}} alpha(%{{.*}}) : memref<1x130x64xi8>, memref<1x2x2x512xf8E4M3FN>, memref<1x128xf16> into memref<1x130xf16>
func.func @f16_one_vector_blocked(%a: memref<1x130x64xi8>,
                                  %sfa: memref<1x2x2x512xf8E4M3FN>,
                                  %b: memref<1x128xf16>, %c: memref<1x130xf16>,
                                  %alpha: f32) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c alpha(%alpha)
      : memref<1x130x64xi8>, memref<1x2x2x512xf8E4M3FN>, memref<1x128xf16>
        into memref<1x130xf16>
  return
}

// CHECK-LABEL: func @vectors_dynamic
// CHECK: nvfp4.gemv <nvfp4> <linear> {{.*}} : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN> into memref<?x?x?xf32>
// CHECK: nvfp4.gemv <nvfp4> <linear> {{.*}} : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xf16> into memref<?x?x?xf32>
func.func @vectors_dynamic(%a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>,
                           %b: memref<?x?x?xi8>, %sfb: memref<?x?x?xf8E4M3FN>,
                           %bh: memref<?x?x?xf16>, %c: memref<?x?x?xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xi8>,
        memref<?x?x?xf8E4M3FN> into memref<?x?x?xf32>
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %bh into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xf16>
        into memref<?x?x?xf32>
  return
}
