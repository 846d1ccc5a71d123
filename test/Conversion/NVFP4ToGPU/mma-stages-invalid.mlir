// decode=mma async-copy-stages on rows it cannot take: a located error.
// RUN: not nvfp4-opt %s --split-input-file --convert-nvfp4-to-gpu="decode=mma async-copy-stages=2" 2>&1 | FileCheck %s --check-prefix=ERR

// ERR: mma-stages-invalid.mlir:[[@LINE+4]]:3: error: 'nvfp4.gemv' op decode=mma async-copy-stages copies whole steps of 64 bytes; a row has 32
func.func @short_rows(%a: memref<1x16x32xi8>, %sfa: memref<1x16x4xf8E4M3FN>,
    %b: memref<1x4x32xi8>, %sfb: memref<1x4x4xf8E4M3FN>,
    %c: memref<1x4x16xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x16x32xi8>, memref<1x16x4xf8E4M3FN>, memref<1x4x32xi8>,
        memref<1x4x4xf8E4M3FN> into memref<1x4x16xf16>
  return
}

// -----

// ERR: mma-stages-invalid.mlir:[[@LINE+4]]:3: error: 'nvfp4.gemv' op decode=mma async-copy-stages copies scales 4 bytes at a time: it needs blocked128x4 scales or linear rows of a multiple of 4 scale columns (K a multiple of 64), got 130 columns
func.func @linear_odd_pairs(%a: memref<1x16x1040xi8>, %sfa: memref<1x16x130xf8E4M3FN>,
    %b: memref<1x4x1040xi8>, %sfb: memref<1x4x130xf8E4M3FN>,
    %c: memref<1x4x16xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x16x1040xi8>, memref<1x16x130xf8E4M3FN>, memref<1x4x1040xi8>,
        memref<1x4x130xf8E4M3FN> into memref<1x4x16xf16>
  return
}
