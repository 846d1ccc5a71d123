// NVFP4 GEMV with e4m3fn scale edge cases: the smallest subnormal (0x01 =
// 2^-9), the largest subnormal (0x07 = 7 * 2^-9), the smallest normal
// (0x08 = 2^-6), the largest value (0x7E = 448), both NaN encodings (0x7F,
// 0xFF), a negative scale (0xB8 = -1) and -0 (0x80); then the same GEMV with
// alpha = 3, which must be applied exactly once.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// M = 8, K = 64 (four blocks of 16), L = 1. b is 1.0 everywhere (code 2,
// bytes 0x22), so a block's dot product is the sum of a's values in it.
// Scale bytes are written as bit patterns.
// sfb = [256 (0x78: exponent 15, 2^(15-7)), 1 (0x38), 1, 1].
memref.global "private" constant @sfb_bits : memref<1x4xf8E4M3FN> =
    dense<[[0x78, 0x38, 0x38, 0x38]]>
memref.global "private" constant @sfa_bits : memref<1x8x4xf8E4M3FN> = dense<[[
  [0x01, 0x38, 0x38, 0x38],  // row 0: 2^-9 on block 0
  [0x07, 0x38, 0x38, 0x38],  // row 1: 7 * 2^-9 on block 0
  [0x38, 0x7E, 0x38, 0x38],  // row 2: 448 on block 1
  [0x38, 0x7F, 0x38, 0x38],  // row 3: NaN on block 1 (whose data is 0)
  [0x38, 0xB8, 0x38, 0x38],  // row 4: -1 on block 1
  [0x38, 0x38, 0xFF, 0x38],  // row 5: -NaN on block 2 (all data 0)
  [0x08, 0x38, 0x38, 0x38],  // row 6: 2^-6 on block 0
  [0x80, 0x38, 0x38, 0x38]]]>  // row 7: -0 on block 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %zero = arith.constant 0 : i8
  // Byte = (odd element code << 4) | even element code.
  %x01 = arith.constant 0x01 : i8  // (0.5, 0)
  %x02 = arith.constant 0x02 : i8  // (1, 0)
  %x03 = arith.constant 0x03 : i8  // (1.5, 0)
  %x06 = arith.constant 0x06 : i8  // (4, 0)
  %x07 = arith.constant 0x07 : i8  // (6, 0)
  %x0D = arith.constant 0x0D : i8  // (-3, 0)
  %x77 = arith.constant 0x77 : i8  // (6, 6)
  %b22 = arith.constant 0x22 : i8  // (1, 1)

  %a = memref.alloc() : memref<1x8x32xi8>
  linalg.fill ins(%zero : i8) outs(%a : memref<1x8x32xi8>)
  // Bytes 8kb .. 8kb+7 of a row hold block kb.
  memref.store %x02, %a[%c0, %c0, %c0] : memref<1x8x32xi8>   // row 0, block 0: 1
  memref.store %x07, %a[%c0, %c1, %c0] : memref<1x8x32xi8>   // row 1, block 0: 6
  memref.store %x77, %a[%c0, %c2, %c8] : memref<1x8x32xi8>   // row 2, block 1: 6, 6,
  memref.store %x0D, %a[%c0, %c2, %c9] : memref<1x8x32xi8>   //   -3: dot 9
  memref.store %x02, %a[%c0, %c3, %c0] : memref<1x8x32xi8>   // row 3, block 0: 1
  memref.store %x03, %a[%c0, %c4, %c8] : memref<1x8x32xi8>   // row 4, block 1: 1.5
  memref.store %x06, %a[%c0, %c4, %c16] : memref<1x8x32xi8>  // row 4, block 2: 4
  memref.store %x02, %a[%c0, %c6, %c0] : memref<1x8x32xi8>   // row 6, block 0: 1
  memref.store %x07, %a[%c0, %c7, %c0] : memref<1x8x32xi8>   // row 7, block 0: 6
  memref.store %x01, %a[%c0, %c7, %c24] : memref<1x8x32xi8>  // row 7, block 3: 0.5
  %b = memref.alloc() : memref<1x32xi8>
  linalg.fill ins(%b22 : i8) outs(%b : memref<1x32xi8>)
  %sfa = memref.get_global @sfa_bits : memref<1x8x4xf8E4M3FN>
  %sfb = memref.get_global @sfb_bits : memref<1x4xf8E4M3FN>

  %nan = arith.constant 0x7FC00000 : f32
  %c = memref.alloc() : memref<1x8xf32>
  %cu = memref.cast %c : memref<1x8xf32> to memref<*xf32>

  // Nonzero block terms (sfa * sfb * dot):
  //   row 0: 2^-9 * 256 * 1        = 0.5
  //   row 1: 7 * 2^-9 * 256 * 6    = 21
  //   row 2: 448 * 1 * 9           = 4032
  //   row 3: NaN * 1 * 0           = NaN   (block 0 adds 256)
  //   row 4: -1 * 1 * 1.5 + 1 * 1 * 4 = 2.5
  //   row 5: NaN * 1 * 0           = NaN
  //   row 6: 2^-6 * 256 * 1        = 4
  //   row 7: -0 * 256 * 6 + 1 * 1 * 0.5 = 0.5
  linalg.fill ins(%nan : f32) outs(%c : memref<1x8xf32>)
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x8x32xi8>, memref<1x8x4xf8E4M3FN>, memref<1x32xi8>,
        memref<1x4xf8E4M3FN> into memref<1x8xf32>
  // CHECK: {{\[}}[0.5, 21, 4032, {{-?nan}}, 2.5, {{-?nan}}, 4, 0.5]]
  call @printMemrefF32(%cu) : (memref<*xf32>) -> ()

  // alpha = 3 multiplies every result once (not 9 times).
  %alpha = arith.constant 3.0 : f32
  linalg.fill ins(%nan : f32) outs(%c : memref<1x8xf32>)
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x8x32xi8>, memref<1x8x4xf8E4M3FN>, memref<1x32xi8>,
        memref<1x4xf8E4M3FN> into memref<1x8xf32>
  // CHECK: {{\[}}[1.5, 63, 12096, {{-?nan}}, 7.5, {{-?nan}}, 12, 1.5]]
  call @printMemrefF32(%cu) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<1x8x32xi8>
  memref.dealloc %b : memref<1x32xi8>
  memref.dealloc %c : memref<1x8xf32>
  return
}
