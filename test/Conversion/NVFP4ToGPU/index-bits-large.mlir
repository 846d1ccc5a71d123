// A GEMV with a buffer of 1 GiB keeps 64-bit indices: by default, and
// index-bits=32 is an error.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu | FileCheck %s --implicit-check-not=dlti
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="index-bits=32" 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: index_bits = 64
// ERR: index-bits-large.mlir:[[@LINE+2]]:3: error: 'nvfp4.gemv' op index-bits=32: a buffer of 1073741824 bytes needs 64-bit offsets (32 bits serve buffers under 1 GiB)
func.func @gemv_32768x65536x1_nvfp4_linear_f16(%a: memref<1x32768x32768xi8>, %sfa: memref<1x32768x4096xf8E4M3FN>, %b: memref<1x32768xi8>, %sfb: memref<1x4096xf8E4M3FN>, %c: memref<1x32768xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x32768x32768xi8>, memref<1x32768x4096xf8E4M3FN>, memref<1x32768xi8>, memref<1x4096xf8E4M3FN> into memref<1x32768xf16>
  return
}
