// Scale-layout conversion kernels (one thread a destination byte, padding
// zeroed) for both scale types and directions, checked by nvfp4-run.
// REQUIRES: cuda
// RUN: rm -rf %t
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a export-dir=%t" -o /dev/null
// RUN: nvfp4-run %t/*.json | FileCheck %s
// CHECK-NOT: FAIL
// CHECK-DAG: PASS convert_scale_layout 130x5x2 linear->blocked128x4
// CHECK-DAG: PASS convert_scale_layout 257x33x1 blocked128x4->linear

func.func @to_blocked(%src: memref<2x130x5xf8E4M3FN>,
                      %dst: memref<2x2x2x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %src, %dst from <linear> to <blocked128x4>
      : memref<2x130x5xf8E4M3FN> to memref<2x2x2x512xf8E4M3FN>
  return
}

func.func @to_linear(%src: memref<1x3x9x512xf8E8M0FNU>,
                     %dst: memref<1x257x33xf8E8M0FNU>) {
  nvfp4.convert_scale_layout %src, %dst from <blocked128x4> to <linear>
      : memref<1x3x9x512xf8E8M0FNU> to memref<1x257x33xf8E8M0FNU>
  return
}
