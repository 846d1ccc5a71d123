// Batched GEMV, L = 3: every batch has its own a, sfa, b and sfb, and c[l]
// must use only batch l of each.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// M = 2, K = 32 (two blocks of 16; bytes 0-7 and 8-15 of a row).
// e2m1 bytes: low nibble = even element. 0x21 = (0.5, 1), 0x77 = (6, 6),
// 0x44 = (2, 2), 0x0F = (-6, 0), 0x02 = (1, 0), 0x20 = (0, 1),
// 0x0B = (-1.5, 0), 0x50 = (0, 3), 0x07 = (6, 0), 0x30 = (0, 1.5),
// 0x22 = (1, 1), 0x99 = (-0.5, -0.5).
memref.global "private" constant @a_bytes : memref<3x2x16xi8> = dense<[
  [[0x21, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
   [0, 0, 0, 0, 0, 0, 0, 0, 0x77, 0, 0, 0, 0, 0, 0, 0]],
  [[0x44, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
   [0, 0, 0, 0, 0, 0, 0, 0, 0x0F, 0, 0, 0, 0, 0, 0, 0]],
  [[0x02, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0],
   [0x0B, 0, 0, 0, 0, 0, 0, 0, 0x50, 0, 0, 0, 0, 0, 0, 0]]]>
memref.global "private" constant @b_bytes : memref<3x16xi8> = dense<[
  [0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
   0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22],
  [0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99,
   0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99],
  [0x07, 0, 0, 0, 0, 0, 0, 0, 0x30, 0, 0, 0, 0, 0, 0, 0]]>
memref.global "private" constant @sfa_values : memref<3x2x2xf8E4M3FN> = dense<[
  [[2.0, 1.0], [1.0, 0.5]],
  [[1.0, 1.0], [1.0, 8.0]],
  [[1.0, 1.0], [2.0, 0.5]]]>
memref.global "private" constant @sfb_values : memref<3x2xf8E4M3FN> = dense<[
  [1.0, 1.0], [4.0, 1.0], [0.5, 2.0]]>

func.func @main() {
  %a = memref.get_global @a_bytes : memref<3x2x16xi8>
  %b = memref.get_global @b_bytes : memref<3x16xi8>
  %sfa = memref.get_global @sfa_values : memref<3x2x2xf8E4M3FN>
  %sfb = memref.get_global @sfb_values : memref<3x2xf8E4M3FN>
  %c = memref.alloc() : memref<3x2xf32>
  %nan = arith.constant 0x7FC00000 : f32
  linalg.fill ins(%nan : f32) outs(%c : memref<3x2xf32>)
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<3x2x16xi8>, memref<3x2x2xf8E4M3FN>, memref<3x16xi8>,
        memref<3x2xf8E4M3FN> into memref<3x2xf32>
  // Batch 0, b = 1, sfb = [1, 1]:
  //   row 0: (0.5 + 1) * 2 * 1               = 3
  //   row 1: (6 + 6) * 0.5 * 1               = 6
  // Batch 1, b = -0.5, sfb = [4, 1]:
  //   row 0: (2 + 2) * -0.5 * 1 * 4          = -8
  //   row 1: (-6 * -0.5) * 8 * 1             = 24
  // Batch 2, b = 6 at k = 0 and 1.5 at k = 17, sfb = [0.5, 2]:
  //   row 0: 1 * 6 * 1 * 0.5 + 1 * 1.5 * 1 * 2   = 3 + 3 = 6
  //   row 1: -1.5 * 6 * 2 * 0.5 + 3 * 1.5 * 0.5 * 2 = -9 + 4.5 = -4.5
  // CHECK:      {{\[}}[3, 6],
  // CHECK-NEXT:  [-8, 24],
  // CHECK-NEXT:  [6, -4.5]]
  %u = memref.cast %c : memref<3x2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %c : memref<3x2xf32>
  return
}
