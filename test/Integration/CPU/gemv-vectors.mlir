// GEMV of N vectors: each vector has its own b row and sfb row, and c[n]
// uses only those; and 16-bit vectors, which carry no sfb and are summed
// value by value in f32: (a * b) * sfa, in k order.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// M = 2, K = 32 (two NVFP4 blocks: bytes 0-7 and 8-15 of a row), N = 3.
// e2m1 bytes: low nibble = even element. 0x21 = (0.5, 1), 0x77 = (6, 6),
// 0x22 = (1, 1), 0x04 = (2, 0), 0x30 = (0, 1.5), 0x99 = (-0.5, -0.5).
memref.global "private" constant @a_bytes : memref<1x2x16xi8> = dense<[
  [[0x21, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
   [0, 0, 0, 0, 0, 0, 0, 0, 0x77, 0, 0, 0, 0, 0, 0, 0]]]>
memref.global "private" constant @b_bytes : memref<1x3x16xi8> = dense<[
  [[0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
    0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22],
   [0x04, 0, 0, 0, 0, 0, 0, 0, 0x30, 0, 0, 0, 0, 0, 0, 0],
   [0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99,
    0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99]]]>
memref.global "private" constant @sfa_values : memref<1x2x2xf8E4M3FN> = dense<[
  [[2.0, 1.0], [1.0, 0.5]]]>
memref.global "private" constant @sfb_values : memref<1x3x2xf8E4M3FN> = dense<[
  [[1.0, 1.0], [1.0, 4.0], [2.0, 0.25]]]>

// M = 1, K = 32 (one MXFP4 block), two bf16 vectors. a = (0.5, 1, -1, 0, ...)
// (bytes 0x21, 0x0A), sfa = 2^-1 (ue8m0 126).
memref.global "private" constant @a_mx : memref<1x1x16xi8> = dense<[
  [[0x21, 0x0A, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]]>
memref.global "private" constant @b_bf16 : memref<1x2x32xbf16> = dense<[
  [[3.0, 0.25, 1.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0, 0.0],
   [33554432.0, 1.0, 16777216.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.0]]]>
memref.global "private" constant @sfa_mx : memref<1x1x1xf8E8M0FNU> = dense<[
  [[0.5]]]>

func.func @main() {
  %nan = arith.constant 0x7FC00000 : f32
  %a = memref.get_global @a_bytes : memref<1x2x16xi8>
  %b = memref.get_global @b_bytes : memref<1x3x16xi8>
  %sfa = memref.get_global @sfa_values : memref<1x2x2xf8E4M3FN>
  %sfb = memref.get_global @sfb_values : memref<1x3x2xf8E4M3FN>
  %c = memref.alloc() : memref<1x3x2xf32>
  linalg.fill ins(%nan : f32) outs(%c : memref<1x3x2xf32>)
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x2x16xi8>, memref<1x2x2xf8E4M3FN>, memref<1x3x16xi8>,
        memref<1x3x2xf8E4M3FN> into memref<1x3x2xf32>
  // Vector 0, b = 1, sfb = [1, 1]:
  //   row 0: (0.5 + 1) * 2 * 1                = 3
  //   row 1: (6 + 6) * 0.5 * 1                = 6
  // Vector 1, b = 2 at k = 0 and 1.5 at k = 17, sfb = [1, 4]:
  //   row 0: 0.5 * 2 * 2 * 1                  = 2
  //   row 1: 6 * 1.5 * 0.5 * 4                = 18
  // Vector 2, b = -0.5, sfb = [2, 0.25]:
  //   row 0: (0.5 + 1) * -0.5 * 2 * 2         = -3
  //   row 1: (6 + 6) * -0.5 * 0.5 * 0.25      = -0.75
  // CHECK:      {{\[}}{{\[}}[3, 6],
  // CHECK-NEXT:   [2, 18],
  // CHECK-NEXT:   [-3, -0.75]]]
  %u = memref.cast %c : memref<1x3x2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %c : memref<1x3x2xf32>

  %am = memref.get_global @a_mx : memref<1x1x16xi8>
  %bh = memref.get_global @b_bf16 : memref<1x2x32xbf16>
  %sm = memref.get_global @sfa_mx : memref<1x1x1xf8E8M0FNU>
  %ch = memref.alloc() : memref<1x2x1xf32>
  linalg.fill ins(%nan : f32) outs(%ch : memref<1x2x1xf32>)
  nvfp4.gemv <mxfp4> <linear> %am, %sm, %bh into %ch
      : memref<1x1x16xi8>, memref<1x1x1xf8E8M0FNU>, memref<1x2x32xbf16>
        into memref<1x2x1xf32>
  // Vector 0: (0.5 * 3 + 1 * 0.25 - 1 * 1 + 0 * 100) * 0.5 = 0.375.
  // Vector 1, in f32 and in k order: 0.5 * 2^25 * 0.5 = 2^23; + 1 * 1 * 0.5
  // = 2^23 + 0.5, a tie that rounds to 2^23; - 2^24 * 0.5 = 0 (the exact
  // sum is 0.5: the order of the f32 additions is part of the semantics).
  // CHECK:      {{\[}}{{\[}}[0.375],
  // CHECK-NEXT:   [0]]]
  %uh = memref.cast %ch : memref<1x2x1xf32> to memref<*xf32>
  call @printMemrefF32(%uh) : (memref<*xf32>) -> ()
  memref.dealloc %ch : memref<1x2x1xf32>
  return
}
