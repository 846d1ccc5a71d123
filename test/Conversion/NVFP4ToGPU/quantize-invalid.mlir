// Quantizers the GPU lowering cannot take: a located error each, never a
// silent non-match.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu -split-input-file -verify-diagnostics

func.func @dynamic(%x: memref<1x?x32xf32>, %q: memref<1x?x16xi8>,
                   %s: memref<1x?x2xf8E4M3FN>) {
  // expected-error @+1 {{'nvfp4.quantize' op needs static, identity-layout memrefs for the GPU lowering}}
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s
      : memref<1x?x32xf32> into memref<1x?x16xi8>, memref<1x?x2xf8E4M3FN>
  return
}

// -----

func.func @dynamic_dequantize(%q: memref<?x4x16xi8>,
                              %s: memref<?x4x1xf8E8M0FNU>,
                              %y: memref<?x4x32xbf16>) {
  // expected-error @+1 {{'nvfp4.dequantize' op needs static, identity-layout memrefs for the GPU lowering}}
  nvfp4.dequantize <mxfp4> <linear> %q, %s into %y
      : memref<?x4x16xi8>, memref<?x4x1xf8E8M0FNU> into memref<?x4x32xbf16>
  return
}

// -----

// 70000 batches: more than the 65535 CTAs the grid's y dimension allows.
func.func @batches(%x: memref<70000x1x16xf32>, %q: memref<70000x1x8xi8>,
                   %s: memref<70000x1x1xf8E4M3FN>) {
  // expected-error @+1 {{'nvfp4.quantize' op needs a grid of 1 x 70000 CTAs, more than CUDA allows (2^31 - 1 x 65535)}}
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s
      : memref<70000x1x16xf32> into memref<70000x1x8xi8>,
        memref<70000x1x1xf8E4M3FN>
  return
}
