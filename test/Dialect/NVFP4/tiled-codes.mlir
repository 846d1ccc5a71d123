// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | nvfp4-opt -split-input-file | FileCheck %s

// tiled_codes: a keeps its type; M must be a multiple of 16 and K of 128,
// both static. Anything else is a located error.

// CHECK-LABEL: func @tiled
// CHECK: nvfp4.gemv <nvfp4> <blocked128x4> tiled_codes %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}} alpha(%{{.*}}) : memref<2x48x128xi8>
func.func @tiled(%a: memref<2x48x128xi8>, %sfa: memref<2x1x4x512xf8E4M3FN>,
                 %b: memref<2x8x128xi8>, %sfb: memref<2x1x4x512xf8E4M3FN>,
                 %c: memref<2x8x48xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <blocked128x4> tiled_codes %a, %sfa, %b, %sfb into %c
      alpha(%alpha)
      : memref<2x48x128xi8>, memref<2x1x4x512xf8E4M3FN>, memref<2x8x128xi8>,
        memref<2x1x4x512xf8E4M3FN> into memref<2x8x48xf16>
  return
}

// CHECK-LABEL: func @tiled_mxfp4_bf16
// CHECK: nvfp4.gemv <mxfp4> <linear> tiled_codes %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}} : memref<1x16x64xi8>
func.func @tiled_mxfp4_bf16(%a: memref<1x16x64xi8>,
                            %sfa: memref<1x16x4xf8E8M0FNU>,
                            %b: memref<1x128xbf16>, %c: memref<1x16xf32>) {
  nvfp4.gemv <mxfp4> <linear> tiled_codes %a, %sfa, %b into %c
      : memref<1x16x64xi8>, memref<1x16x4xf8E8M0FNU>, memref<1x128xbf16>
        into memref<1x16xf32>
  return
}

// CHECK-LABEL: func @row_major
// CHECK: nvfp4.gemv <nvfp4> <linear> %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} into
func.func @row_major(%a: memref<1x16x64xi8>, %sfa: memref<1x16x8xf8E4M3FN>,
                     %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>,
                     %c: memref<1x16xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x16x64xi8>, memref<1x16x8xf8E4M3FN>, memref<1x64xi8>,
        memref<1x8xf8E4M3FN> into memref<1x16xf16>
  return
}

// -----

func.func @rows(%a: memref<1x24x64xi8>, %sfa: memref<1x24x8xf8E4M3FN>,
                %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>,
                %c: memref<1x24xf16>) {
  // expected-error @+1 {{tiled_codes needs M a multiple of 16 and K a multiple of 128 (whole tiles of whole steps), got M = 24, K = 128}}
  nvfp4.gemv <nvfp4> <linear> tiled_codes %a, %sfa, %b, %sfb into %c
      : memref<1x24x64xi8>, memref<1x24x8xf8E4M3FN>, memref<1x64xi8>,
        memref<1x8xf8E4M3FN> into memref<1x24xf16>
  return
}

// -----

func.func @k(%a: memref<1x16x40xi8>, %sfa: memref<1x16x5xf8E4M3FN>,
             %b: memref<1x40xi8>, %sfb: memref<1x5xf8E4M3FN>,
             %c: memref<1x16xf16>) {
  // expected-error @+1 {{tiled_codes needs M a multiple of 16 and K a multiple of 128 (whole tiles of whole steps), got M = 16, K = 80}}
  nvfp4.gemv <nvfp4> <linear> tiled_codes %a, %sfa, %b, %sfb into %c
      : memref<1x16x40xi8>, memref<1x16x5xf8E4M3FN>, memref<1x40xi8>,
        memref<1x5xf8E4M3FN> into memref<1x16xf16>
  return
}

// -----

func.func @dynamic(%a: memref<1x?x64xi8>, %sfa: memref<1x?x8xf8E4M3FN>,
                   %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>,
                   %c: memref<1x?xf16>) {
  // expected-error @+1 {{tiled_codes needs a static M and K (they place a's tiles)}}
  nvfp4.gemv <nvfp4> <linear> tiled_codes %a, %sfa, %b, %sfb into %c
      : memref<1x?x64xi8>, memref<1x?x8xf8E4M3FN>, memref<1x64xi8>,
        memref<1x8xf8E4M3FN> into memref<1x?xf16>
  return
}
