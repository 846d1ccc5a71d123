// decode=mma takes NVFP4 with packed or 16-bit b, and only the options of the
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

