// RUN: nvfp4-opt %s -split-input-file --convert-nvfp4-to-tcgen05="stages=2" --canonicalize --cse | FileCheck %s

// K = 80: the last stage holds 16 of 64 values. Rows are 40 bytes, so a and b
// move in 8-byte cp.async (.ca) with a source size that zero-fills past K;
// K/16 = 5 scales a row are not 4-byte aligned, so linear scales are loaded
// byte by byte and stored to their atom positions, zero past column 5.
// M = 200 is not a multiple of 128: rows past M re-read row 199 and are not
// stored.

// CHECK-LABEL: func.func @nvfp4_tail_linear
// CHECK: copy_bytes = 8 : i64
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: arith.minsi %{{.*}}, %c199 : index
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> i8
// CHECK: %[[KEEP:.*]] = arith.select %{{.*}}, %{{.*}}, %c0_i8 : i8
// CHECK: llvm.store %[[KEEP]], %{{.*}} : i8, !llvm.ptr<3>
// CHECK: arith.cmpi ult, %{{.*}}, %c200 : index
func.func @nvfp4_tail_linear(%a: memref<2x200x40xi8>, %sfa: memref<2x200x5xf8E4M3FN>,
    %b: memref<2x40xi8>, %sfb: memref<2x5xf8E4M3FN>, %c: memref<2x200xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x200x40xi8>, memref<2x200x5xf8E4M3FN>, memref<2x40xi8>,
        memref<2x5xf8E4M3FN> into memref<2x200xf32>
  return
}

// -----

// Blocked scales with K/16 = 5: the atom of the last stage (stage 1) holds 3
// padding columns whose bytes need not be finite. Each thread copies its
// row's word with a source size of min(5 - 4 stage, 4) bytes: 1 on the last
// stage, the rest zero-filled.

// CHECK-LABEL: func.func @nvfp4_tail_blocked
// CHECK: %[[COLS:.*]] = arith.subi %c5, %{{.*}} : index
// CHECK: %[[LO:.*]] = arith.maxsi %[[COLS]], %c0 : index
// CHECK: %[[N:.*]] = arith.minsi %[[LO]], %c4 : index
// CHECK: %[[N32:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca, %[[N32]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
func.func @nvfp4_tail_blocked(%a: memref<1x256x40xi8>, %sfa: memref<1x2x2x512xf8E4M3FN>,
    %b: memref<1x40xi8>, %sfb: memref<1x1x2x512xf8E4M3FN>, %c: memref<1x256xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x256x40xi8>, memref<1x2x2x512xf8E4M3FN>, memref<1x40xi8>,
        memref<1x1x2x512xf8E4M3FN> into memref<1x256xf16>
  return
}
