// RUN: nvfp4-opt %s -split-input-file --convert-nvfp4-to-tcgen05 -verify-diagnostics
// RUN: not nvfp4-opt %s --convert-nvfp4-to-tcgen05="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not nvfp4-opt %s --convert-nvfp4-to-tcgen05="stages=9" 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="strategy=tcgen05 chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=CHIP

// CHIP: error: 'nvfp4.gemv' op the tcgen05 lowering targets sm_100a, not 'sm_90a'
// STAGES: error: 'nvfp4.gemv' op cannot lower to tcgen05: stages must be in [1, 8]

func.func @static(%a: memref<1x128x32xi8>, %sfa: memref<1x128x4xf8E4M3FN>,
    %b: memref<1x32xi8>, %sfb: memref<1x4xf8E4M3FN>, %c: memref<1x128xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x128x32xi8>, memref<1x128x4xf8E4M3FN>, memref<1x32xi8>,
        memref<1x4xf8E4M3FN> into memref<1x128xf32>
  return
}

// -----

func.func @dynamic(%a: memref<?x128x32xi8>, %sfa: memref<?x128x4xf8E4M3FN>,
    %b: memref<?x32xi8>, %sfb: memref<?x4xf8E4M3FN>, %c: memref<?x128xf32>) {
  // expected-error @+1 {{needs static, identity-layout memrefs for the tcgen05 lowering}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x128x32xi8>, memref<?x128x4xf8E4M3FN>, memref<?x32xi8>,
        memref<?x4xf8E4M3FN> into memref<?x128xf32>
  return
}
