// RUN: nvfp4-opt %s | nvfp4-opt | FileCheck %s
// RUN: nvfp4-opt %s --mlir-print-op-generic | nvfp4-opt | FileCheck %s

// CHECK-LABEL: func @gemv_linear
// CHECK: nvfp4.gemv <nvfp4> <linear> %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}} alpha(%{{.*}}) : memref<2x256x64xi8>, memref<2x256x8xf8E4M3FN>, memref<2x64xi8>, memref<2x8xf8E4M3FN> into memref<2x256xf16>
func.func @gemv_linear(%a: memref<2x256x64xi8>, %sfa: memref<2x256x8xf8E4M3FN>,
                       %b: memref<2x64xi8>, %sfb: memref<2x8xf8E4M3FN>,
                       %c: memref<2x256xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x256x64xi8>, memref<2x256x8xf8E4M3FN>, memref<2x64xi8>,
        memref<2x8xf8E4M3FN> into memref<2x256xf16>
  return
}

// CHECK-LABEL: func @gemv_blocked_mxfp4
// CHECK: nvfp4.gemv <mxfp4> <blocked128x4> %{{.*}} into %{{.*}} : memref<1x130x256xi8>, memref<1x2x4x512xf8E8M0FNU>, memref<1x256xi8>, memref<1x1x4x512xf8E8M0FNU> into memref<1x130xbf16>
func.func @gemv_blocked_mxfp4(%a: memref<1x130x256xi8>,
                              %sfa: memref<1x2x4x512xf8E8M0FNU>,
                              %b: memref<1x256xi8>,
                              %sfb: memref<1x1x4x512xf8E8M0FNU>,
                              %c: memref<1x130xbf16>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x130x256xi8>, memref<1x2x4x512xf8E8M0FNU>, memref<1x256xi8>,
        memref<1x1x4x512xf8E8M0FNU> into memref<1x130xbf16>
  return
}

// CHECK-LABEL: func @gemv_dynamic
// CHECK: nvfp4.gemv <nvfp4> <linear> {{.*}} : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>, memref<?x?xf8E4M3FN> into memref<?x?xf32>
func.func @gemv_dynamic(%a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>,
                        %b: memref<?x?xi8>, %sfb: memref<?x?xf8E4M3FN>,
                        %c: memref<?x?xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>,
        memref<?x?xf8E4M3FN> into memref<?x?xf32>
  return
}

// CHECK-LABEL: func @convert
// CHECK: nvfp4.convert_scale_layout %{{.*}}, %{{.*}} from <linear> to <blocked128x4> : memref<1x256x16xf8E4M3FN> to memref<1x2x4x512xf8E4M3FN>
// CHECK: nvfp4.convert_scale_layout %{{.*}}, %{{.*}} from <blocked128x4> to <linear> : memref<1x2x4x512xf8E4M3FN> to memref<1x256x16xf8E4M3FN>
func.func @convert(%lin: memref<1x256x16xf8E4M3FN>,
                   %blk: memref<1x2x4x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x256x16xf8E4M3FN> to memref<1x2x4x512xf8E4M3FN>
  nvfp4.convert_scale_layout %blk, %lin from <blocked128x4> to <linear>
      : memref<1x2x4x512xf8E4M3FN> to memref<1x256x16xf8E4M3FN>
  return
}

// CHECK-LABEL: func @quantize_two_level
// CHECK: nvfp4.quantize <nvfp4> <linear> %{{.*}} into %{{.*}}, %{{.*}} global_scale(%{{.*}}) : memref<1x4x32xf32> into memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>, memref<f32>
func.func @quantize_two_level(%x: memref<1x4x32xf32>, %q: memref<1x4x16xi8>,
                              %s: memref<1x4x2xf8E4M3FN>, %gs: memref<f32>) {
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s global_scale(%gs)
      : memref<1x4x32xf32> into memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>,
        memref<f32>
  return
}

// CHECK-LABEL: func @quantize_mxfp4_blocked
// CHECK: nvfp4.quantize <mxfp4> <blocked128x4> %{{.*}} into %{{.*}}, %{{.*}} : memref<3x5x64xbf16> into memref<3x5x32xi8>, memref<3x1x1x512xf8E8M0FNU>
func.func @quantize_mxfp4_blocked(%x: memref<3x5x64xbf16>,
                                  %q: memref<3x5x32xi8>,
                                  %s: memref<3x1x1x512xf8E8M0FNU>) {
  nvfp4.quantize <mxfp4> <blocked128x4> %x into %q, %s
      : memref<3x5x64xbf16> into memref<3x5x32xi8>,
        memref<3x1x1x512xf8E8M0FNU>
  return
}

// CHECK-LABEL: func @dequantize
// CHECK: nvfp4.dequantize <mxfp4> <linear> %{{.*}}, %{{.*}} into %{{.*}} : memref<1x4x16xi8>, memref<1x4x1xf8E8M0FNU> into memref<1x4x32xf32>
// CHECK: nvfp4.dequantize <nvfp4> <linear> %{{.*}}, %{{.*}} global_scale(%{{.*}}) into %{{.*}} : memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>, memref<f32> into memref<1x4x32xf16>
func.func @dequantize(%q: memref<1x4x16xi8>, %s: memref<1x4x1xf8E8M0FNU>,
                      %y: memref<1x4x32xf32>, %s2: memref<1x4x2xf8E4M3FN>,
                      %gs: memref<f32>, %y2: memref<1x4x32xf16>) {
  nvfp4.dequantize <mxfp4> <linear> %q, %s into %y
      : memref<1x4x16xi8>, memref<1x4x1xf8E8M0FNU> into memref<1x4x32xf32>
  nvfp4.dequantize <nvfp4> <linear> %q, %s2 global_scale(%gs) into %y2
      : memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>, memref<f32>
        into memref<1x4x32xf16>
  return
}

// CHECK-LABEL: func @attributes
// CHECK: format = #nvfp4.format<mxfp4>
// CHECK-SAME: layout = #nvfp4.layout<blocked128x4>
func.func @attributes() attributes {format = #nvfp4.format<mxfp4>,
                                    layout = #nvfp4.layout<blocked128x4>} {
  return
}
