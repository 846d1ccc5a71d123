// MXFP4 GEMV (blocks of 32, ue8m0 scales 2^(e-127)) with the extreme scale
// bytes: 0x00 = 2^-127 (the f32 subnormal 2^-127, not 0), 0x01 = 2^-126,
// 0xFD = 2^126, 0xFE = 2^127 and 0xFF = NaN; then the same GEMV into f16 with
// alpha = 0.5.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}

// M = 5, K = 64 (two blocks of 32), L = 1; b is 1.0 everywhere (bytes 0x22).
// sfb = [2^127, 2^-127], so sfa * sfb on block 0 is sfa * 2^127 and on
// block 1 sfa * 2^-127.
memref.global "private" constant @sfb_bits : memref<1x2xf8E8M0FNU> =
    dense<[[0xFE, 0x00]]>
memref.global "private" constant @sfa_bits : memref<1x5x2xf8E8M0FNU> = dense<[[
  [0x00, 0x7F],   // row 0: block 0 2^-127 * 2^127 = 1
  [0x00, 0xFE],   // row 1: block 1 2^127 * 2^-127 = 1
  [0x00, 0xFF],   // row 2: block 1 NaN (its data is 0)
  [0x01, 0xFD],   // row 3: 2^-126 * 2^127 = 2 and 2^126 * 2^-127 = 0.5
  [0xFE, 0xFE]]]> // row 4: block 0 2^127 * 2^127 = 2^254 on zero data

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i8
  %x02 = arith.constant 0x02 : i8  // (1, 0)
  %x03 = arith.constant 0x03 : i8  // (1.5, 0)
  %x05 = arith.constant 0x05 : i8  // (3, 0)
  %x06 = arith.constant 0x06 : i8  // (4, 0)
  %x07 = arith.constant 0x07 : i8  // (6, 0)
  %x0A = arith.constant 0x0A : i8  // (-1, 0)
  %b22 = arith.constant 0x22 : i8  // (1, 1)

  %a = memref.alloc() : memref<1x5x32xi8>
  linalg.fill ins(%zero : i8) outs(%a : memref<1x5x32xi8>)
  // Bytes 16kb .. 16kb+15 of a row hold block kb.
  memref.store %x07, %a[%c0, %c0, %c0] : memref<1x5x32xi8>   // row 0, block 0: 6
  memref.store %x03, %a[%c0, %c1, %c16] : memref<1x5x32xi8>  // row 1, block 1: 1.5
  memref.store %x06, %a[%c0, %c2, %c0] : memref<1x5x32xi8>   // row 2, block 0: 4
  memref.store %x05, %a[%c0, %c3, %c0] : memref<1x5x32xi8>   // row 3, block 0: 3
  memref.store %x0A, %a[%c0, %c3, %c16] : memref<1x5x32xi8>  // row 3, block 1: -1
  memref.store %x02, %a[%c0, %c4, %c16] : memref<1x5x32xi8>  // row 4, block 1: 1
  %b = memref.alloc() : memref<1x32xi8>
  linalg.fill ins(%b22 : i8) outs(%b : memref<1x32xi8>)
  %sfa = memref.get_global @sfa_bits : memref<1x5x2xf8E8M0FNU>
  %sfb = memref.get_global @sfb_bits : memref<1x2xf8E8M0FNU>

  // row 0: 2^-127 * 2^127 * 6 + 1 * 2^-127 * 0   = 6
  // row 1: 2^-127 * 2^127 * 0 + 2^127 * 2^-127 * 1.5 = 1.5
  // row 2: 1 * 4 + NaN * 0                       = NaN
  // row 3: 2 * 3 + 0.5 * -1                      = 5.5
  // row 4: 2^254 * 0 + 1 * 1                     = 1 (the float64 definition:
  //        a block whose dot product is 0 adds 0, however large its scale)
  %nan = arith.constant 0x7FC00000 : f32
  %c = memref.alloc() : memref<1x5xf32>
  linalg.fill ins(%nan : f32) outs(%c : memref<1x5xf32>)
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x5x32xi8>, memref<1x5x2xf8E8M0FNU>, memref<1x32xi8>,
        memref<1x2xf8E8M0FNU> into memref<1x5xf32>
  // CHECK: {{\[}}[6, 1.5, {{-?nan}}, 5.5, 1]]
  %cu = memref.cast %c : memref<1x5xf32> to memref<*xf32>
  call @printMemrefF32(%cu) : (memref<*xf32>) -> ()

  // alpha = 0.5, f16 output: [3, 0.75, NaN, 2.75, 0.5], all exact in f16.
  %alpha = arith.constant 0.5 : f32
  %nan16 = arith.constant 0x7E00 : f16
  %h = memref.alloc() : memref<1x5xf16>
  linalg.fill ins(%nan16 : f16) outs(%h : memref<1x5xf16>)
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %h alpha(%alpha)
      : memref<1x5x32xi8>, memref<1x5x2xf8E8M0FNU>, memref<1x32xi8>,
        memref<1x2xf8E8M0FNU> into memref<1x5xf16>
  // CHECK: {{\[}}[3, 0.75, {{-?nan}}, 2.75, 0.5]]
  %hu = memref.cast %h : memref<1x5xf16> to memref<*xf16>
  call @printMemrefF16(%hu) : (memref<*xf16>) -> ()
  memref.dealloc %a : memref<1x5x32xi8>
  memref.dealloc %b : memref<1x32xi8>
  memref.dealloc %c : memref<1x5xf32>
  memref.dealloc %h : memref<1x5xf16>
  return
}
