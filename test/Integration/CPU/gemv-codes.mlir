// Every e2m1 code of a, times b = 1.0, with unit scales: row m of c is the
// value of code m (codes 8..15 are the negated magnitudes, 8 is -0).
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// Byte 0 of row m holds code m in its low nibble; all other codes are 0.
memref.global "private" constant @a_bytes : memref<1x16x8xi8> = dense<[[
  [0, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0],
  [2, 0, 0, 0, 0, 0, 0, 0], [3, 0, 0, 0, 0, 0, 0, 0],
  [4, 0, 0, 0, 0, 0, 0, 0], [5, 0, 0, 0, 0, 0, 0, 0],
  [6, 0, 0, 0, 0, 0, 0, 0], [7, 0, 0, 0, 0, 0, 0, 0],
  [8, 0, 0, 0, 0, 0, 0, 0], [9, 0, 0, 0, 0, 0, 0, 0],
  [10, 0, 0, 0, 0, 0, 0, 0], [11, 0, 0, 0, 0, 0, 0, 0],
  [12, 0, 0, 0, 0, 0, 0, 0], [13, 0, 0, 0, 0, 0, 0, 0],
  [14, 0, 0, 0, 0, 0, 0, 0], [15, 0, 0, 0, 0, 0, 0, 0]]]>
// b[0] = 1.0 (code 2); the high nibble (b[1]) is 6.0 but a[1] is always 0.
memref.global "private" constant @b_bytes : memref<1x8xi8> = dense<[[0x72, 0, 0, 0, 0, 0, 0, 0]]>

func.func @main() {
  %a = memref.get_global @a_bytes : memref<1x16x8xi8>
  %b = memref.get_global @b_bytes : memref<1x8xi8>
  %sfa = memref.alloc() : memref<1x16x1xf8E4M3FN>
  %sfb = memref.alloc() : memref<1x1xf8E4M3FN>
  %one = arith.constant 1.0 : f8E4M3FN
  linalg.fill ins(%one : f8E4M3FN) outs(%sfa : memref<1x16x1xf8E4M3FN>)
  linalg.fill ins(%one : f8E4M3FN) outs(%sfb : memref<1x1xf8E4M3FN>)
  %c = memref.alloc() : memref<1x16xf32>
  %nan = arith.constant 0x7FC00000 : f32
  linalg.fill ins(%nan : f32) outs(%c : memref<1x16xf32>)
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x16x8xi8>, memref<1x16x1xf8E4M3FN>, memref<1x8xi8>,
        memref<1x1xf8E4M3FN> into memref<1x16xf32>
  %u = memref.cast %c : memref<1x16xf32> to memref<*xf32>
  // The -0 row sums to +0: accumulation starts from +0.
  // CHECK: {{\[}}[0, 0.5, 1, 1.5, 2, 3, 4, 6, 0, -0.5, -1, -1.5, -2, -3, -4, -6]]
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
