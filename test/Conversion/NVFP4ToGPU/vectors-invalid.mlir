// The CUDA-core lowering of N vectors and 16-bit vectors refuses, at the
// op, what it cannot build.
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics --convert-nvfp4-to-gpu="chip=sm_90a decode=dp4a"

func.func @bf16_dp4a(%a: memref<1x128x32xi8>, %sfa: memref<1x128x4xf8E4M3FN>,
    %b: memref<1x64xbf16>, %c: memref<1x128xf16>) {
  // expected-error @+1 {{decode=dp4a needs b of packed e2m1; b of 'bf16' values takes decode=f32 (the default)}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c
      : memref<1x128x32xi8>, memref<1x128x4xf8E4M3FN>, memref<1x64xbf16>
        into memref<1x128xf16>
  return
}

// -----

func.func @dynamic_vectors(%a: memref<1x128x32xi8>, %sfa: memref<1x128x4xf8E4M3FN>,
    %b: memref<1x?x32xi8>, %sfb: memref<1x?x4xf8E4M3FN>, %c: memref<1x?x128xf32>) {
  // expected-error @+1 {{needs static, identity-layout memrefs for the GPU lowering}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x128x32xi8>, memref<1x128x4xf8E4M3FN>, memref<1x?x32xi8>,
        memref<1x?x4xf8E4M3FN> into memref<1x?x128xf32>
  return
}
