// decode=mma takes NVFP4 with packed or f16 b, and only the options of the
// tensor-core kernel: anything else is a located error.
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics --convert-nvfp4-to-gpu="chip=sm_90a decode=mma"

func.func @mxfp4(%a: memref<1x64x512xi8>, %sfa: memref<1x64x32xf8E8M0FNU>,
    %b: memref<1x2x512xi8>, %sfb: memref<1x2x32xf8E8M0FNU>,
    %c: memref<1x2x64xf16>) {
  // expected-error @+1 {{decode=mma needs NVFP4 (e4m3 scales, exact in f16 operands), not MXFP4}}
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x64x512xi8>, memref<1x64x32xf8E8M0FNU>, memref<1x2x512xi8>,
        memref<1x2x32xf8E8M0FNU> into memref<1x2x64xf16>
  return
}

// -----

func.func @bf16(%a: memref<1x64x512xi8>, %sfa: memref<1x64x64xf8E4M3FN>,
    %b: memref<1x1024xbf16>, %c: memref<1x64xf16>) {
  // expected-error @+1 {{decode=mma needs b of packed e2m1 or f16 values, not bf16}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c
      : memref<1x64x512xi8>, memref<1x64x64xf8E4M3FN>, memref<1x1024xbf16>
        into memref<1x64xf16>
  return
}
