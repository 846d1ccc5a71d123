// Rounding of the f32 sum to the output type: f16 and bf16 round to nearest,
// ties to even (results constructed to be exact ties, and ties plus a tiny
// amount); f16 overflows to infinity from 65520 on (the midpoint between
// 65504 and 2^16) and keeps 65504 below it. The bits are printed as integers
// so that every digit is checked.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}

// Part A. M = 8, K = 48 (three blocks of 16), b = 1.0 everywhere (0x22).
// sfb = [1 (0x38), 2^-6 (0x08), 2^-9 (0x01)].
memref.global "private" constant @tie_sfb : memref<1x3xf8E4M3FN> =
    dense<[[0x38, 0x08, 0x01]]>
// 0x18 = 2^-4, 0x30 = 0.5, 0x01 = 2^-9, 0x38 = 1.
memref.global "private" constant @tie_sfa : memref<1x8x3xf8E4M3FN> = dense<[[
  [0x38, 0x18, 0x38], [0x38, 0x18, 0x38], [0x38, 0x18, 0x01],
  [0x38, 0x18, 0x38], [0x38, 0x30, 0x38], [0x38, 0x30, 0x38],
  [0x38, 0x30, 0x01], [0x38, 0x30, 0x38]]]>
// Row bytes: block kb is bytes 8kb .. 8kb+7; only the first byte of a block
// is nonzero. Codes: 0x02 = 1, 0x0A = -1, 0x01 = 0.5, 0x09 = -0.5, 0x03 = 1.5.
memref.global "private" constant @tie_a : memref<1x8x24xi8> = dense<[[
  [2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  [2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  [2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
  [10, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  [2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  [2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  [2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
  [10, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]]>
// Exact sums (every term and partial sum is exact in f32):
//   r0: 1 + 0.5 * 2^-4 * 2^-6            = 1 + 2^-11
//   r1: 1 + 1.5 * 2^-4 * 2^-6            = 1 + 3 * 2^-11
//   r2: 1 + 2^-11 + 0.5 * 2^-9 * 2^-9    = 1 + 2^-11 + 2^-19
//   r3: -1 - 0.5 * 2^-4 * 2^-6           = -(1 + 2^-11)
//   r4: 1 + 0.5 * 0.5 * 2^-6             = 1 + 2^-8
//   r5: 1 + 1.5 * 0.5 * 2^-6             = 1 + 3 * 2^-8
//   r6: 1 + 2^-8 + 2^-19
//   r7: -(1 + 2^-8)

// Part B. M = 4, K = 32, b = 1.0, sfb = [256 (0x78), 1 (0x38)];
// 0x68 = 64, 0x48 = 4, 0x40 = 2, 0x50 = 8.
memref.global "private" constant @ovf_sfb : memref<1x2xf8E4M3FN> =
    dense<[[0x78, 0x38]]>
memref.global "private" constant @ovf_sfa : memref<1x4x2xf8E4M3FN> = dense<[[
  [0x68, 0x48], [0x68, 0x40], [0x68, 0x48], [0x68, 0x50]]]>
// 0x06 = 4, 0x0E = -4, 0xCF = (-6, -2), 0x09 = -0.5.
memref.global "private" constant @ovf_a : memref<1x4x16xi8> = dense<[[
  [6, 0, 0, 0, 0, 0, 0, 0, 14, 0, 0, 0, 0, 0, 0, 0],
  [6, 0, 0, 0, 0, 0, 0, 0, 0xCF, 9, 0, 0, 0, 0, 0, 0],
  [14, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0],
  [6, 0, 0, 0, 0, 0, 0, 0, 14, 0, 0, 0, 0, 0, 0, 0]]]>
//   r0: 4 * 64 * 256 + -4 * 4            = 65536 - 16 = 65520
//   r1: 65536 + (-6 - 2 - 0.5) * 2       = 65536 - 17 = 65519
//   r2: -4 * 64 * 256 + 4 * 4            = -65520
//   r3: 65536 + -4 * 8                   = 65504

func.func @bits16(%src: memref<1x?xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %src, %c1 : memref<1x?xi16>
  %dst = memref.alloc(%n) : memref<1x?xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %src[%c0, %i] : memref<1x?xi16>
    %w = arith.extui %v : i16 to i64
    memref.store %w, %dst[%c0, %i] : memref<1x?xi64>
  }
  %u = memref.cast %dst : memref<1x?xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  memref.dealloc %dst : memref<1x?xi64>
  return
}

func.func @print_f16_bits(%c: memref<1x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<1x8xi16>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %c[%c0, %i] : memref<1x8xf16>
    %b = arith.bitcast %v : f16 to i16
    memref.store %b, %t[%c0, %i] : memref<1x8xi16>
  }
  %d = memref.cast %t : memref<1x8xi16> to memref<1x?xi16>
  call @bits16(%d) : (memref<1x?xi16>) -> ()
  memref.dealloc %t : memref<1x8xi16>
  return
}

func.func @print_bf16_bits(%c: memref<1x8xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<1x8xi16>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %c[%c0, %i] : memref<1x8xbf16>
    %b = arith.bitcast %v : bf16 to i16
    memref.store %b, %t[%c0, %i] : memref<1x8xi16>
  }
  %d = memref.cast %t : memref<1x8xi16> to memref<1x?xi16>
  call @bits16(%d) : (memref<1x?xi16>) -> ()
  memref.dealloc %t : memref<1x8xi16>
  return
}

func.func @print_f32_bits(%c: memref<1x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<1x8xi64>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %c[%c0, %i] : memref<1x8xf32>
    %b = arith.bitcast %v : f32 to i32
    %w = arith.extui %b : i32 to i64
    memref.store %w, %t[%c0, %i] : memref<1x8xi64>
  }
  %u = memref.cast %t : memref<1x8xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  memref.dealloc %t : memref<1x8xi64>
  return
}

func.func @main() {
  %b22 = arith.constant 0x22 : i8
  %nan32 = arith.constant 0x7FC00000 : f32
  %nan16 = arith.constant 0x7E00 : f16
  %nanbf = arith.constant 0x7FC0 : bf16

  // ---- Part A: ties ----
  %a = memref.get_global @tie_a : memref<1x8x24xi8>
  %sfa = memref.get_global @tie_sfa : memref<1x8x3xf8E4M3FN>
  %sfb = memref.get_global @tie_sfb : memref<1x3xf8E4M3FN>
  %b = memref.alloc() : memref<1x24xi8>
  linalg.fill ins(%b22 : i8) outs(%b : memref<1x24xi8>)

  %h = memref.alloc() : memref<1x8xf16>
  linalg.fill ins(%nan16 : f16) outs(%h : memref<1x8xf16>)
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %h
      : memref<1x8x24xi8>, memref<1x8x3xf8E4M3FN>, memref<1x24xi8>,
        memref<1x3xf8E4M3FN> into memref<1x8xf16>
  // f16 (10 mantissa bits; 1.0 = 0x3C00 = 15360, ulp 2^-10 at 1):
  //   r0 tie 1 + 2^-11 -> 1 (even)           0x3C00 = 15360
  //   r1 tie 1 + 3 * 2^-11 -> 1 + 2^-9       0x3C02 = 15362
  //   r2 above the tie -> 1 + 2^-10          0x3C01 = 15361
  //   r3 tie -> -1                           0xBC00 = 48128
  //   r4 1 + 2^-8 exact                      0x3C04 = 15364
  //   r5 1 + 3 * 2^-8 exact                  0x3C0C = 15372
  //   r6 1 + 2^-8 + 2^-19 -> 1 + 2^-8        0x3C04 = 15364
  //   r7 -(1 + 2^-8) exact                   0xBC04 = 48132
  // CHECK: {{\[}}[15360, 15362, 15361, 48128, 15364, 15372, 15364, 48132]]
  call @print_f16_bits(%h) : (memref<1x8xf16>) -> ()

  %bf = memref.alloc() : memref<1x8xbf16>
  linalg.fill ins(%nanbf : bf16) outs(%bf : memref<1x8xbf16>)
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %bf
      : memref<1x8x24xi8>, memref<1x8x3xf8E4M3FN>, memref<1x24xi8>,
        memref<1x3xf8E4M3FN> into memref<1x8xbf16>
  // bf16 (7 mantissa bits; 1.0 = 0x3F80 = 16256, ulp 2^-7 at 1):
  //   r0..r2 below the tie 1 + 2^-8 -> 1     0x3F80 = 16256
  //   r3 -> -1                               0xBF80 = 49024
  //   r4 tie 1 + 2^-8 -> 1 (even)            0x3F80 = 16256
  //   r5 tie 1 + 3 * 2^-8 -> 1 + 2^-6        0x3F82 = 16258
  //   r6 above the tie -> 1 + 2^-7           0x3F81 = 16257
  //   r7 tie -> -1                           0xBF80 = 49024
  // CHECK: {{\[}}[16256, 16256, 16256, 49024, 16256, 16258, 16257, 49024]]
  call @print_bf16_bits(%bf) : (memref<1x8xbf16>) -> ()

  %f = memref.alloc() : memref<1x8xf32>
  linalg.fill ins(%nan32 : f32) outs(%f : memref<1x8xf32>)
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %f
      : memref<1x8x24xi8>, memref<1x8x3xf8E4M3FN>, memref<1x24xi8>,
        memref<1x3xf8E4M3FN> into memref<1x8xf32>
  // f32 holds every sum exactly: 1.0 = 0x3F800000 = 1065353216, -1.0 =
  // 0xBF800000 = 3212836864, ulp 2^-23, so 2^-11 = 4096 ulps, 2^-19 = 16,
  // 2^-8 = 32768:
  //   r0 1065353216 + 4096           = 1065357312
  //   r1 1065353216 + 3 * 4096       = 1065365504
  //   r2 1065353216 + 4096 + 16      = 1065357328
  //   r3 3212836864 + 4096           = 3212840960
  //   r4 1065353216 + 32768          = 1065385984
  //   r5 1065353216 + 3 * 32768      = 1065451520
  //   r6 1065353216 + 32768 + 16     = 1065386000
  //   r7 3212836864 + 32768          = 3212869632
  // CHECK: {{\[}}[1065357312, 1065365504, 1065357328, 3212840960, 1065385984, 1065451520, 1065386000, 3212869632]]
  call @print_f32_bits(%f) : (memref<1x8xf32>) -> ()

  // ---- Part B: overflow ----
  %oa = memref.get_global @ovf_a : memref<1x4x16xi8>
  %osfa = memref.get_global @ovf_sfa : memref<1x4x2xf8E4M3FN>
  %osfb = memref.get_global @ovf_sfb : memref<1x2xf8E4M3FN>
  %ob = memref.alloc() : memref<1x16xi8>
  linalg.fill ins(%b22 : i8) outs(%ob : memref<1x16xi8>)

  %oh = memref.alloc() : memref<1x4xf16>
  linalg.fill ins(%nan16 : f16) outs(%oh : memref<1x4xf16>)
  nvfp4.gemv <nvfp4> <linear> %oa, %osfa, %ob, %osfb into %oh
      : memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>, memref<1x16xi8>,
        memref<1x2xf8E4M3FN> into memref<1x4xf16>
  // f16: 65520 -> inf, 65519 -> 65504, -65520 -> -inf, 65504 stays.
  // CHECK: {{\[}}[inf, 65504, -inf, 65504]]
  %ohu = memref.cast %oh : memref<1x4xf16> to memref<*xf16>
  call @printMemrefF16(%ohu) : (memref<*xf16>) -> ()

  %obf = memref.alloc() : memref<1x4xbf16>
  linalg.fill ins(%nanbf : bf16) outs(%obf : memref<1x4xbf16>)
  nvfp4.gemv <nvfp4> <linear> %oa, %osfa, %ob, %osfb into %obf
      : memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>, memref<1x16xi8>,
        memref<1x2xf8E4M3FN> into memref<1x4xbf16>
  // bf16 (ulp 256 on [2^15, 2^16)): all four round to +-65536, no overflow.
  // CHECK: {{\[}}[65536, 65536, -65536, 65536]]
  %obfu = memref.cast %obf : memref<1x4xbf16> to memref<*xbf16>
  call @printMemrefBF16(%obfu) : (memref<*xbf16>) -> ()

  %of = memref.alloc() : memref<1x4xf32>
  linalg.fill ins(%nan32 : f32) outs(%of : memref<1x4xf32>)
  nvfp4.gemv <nvfp4> <linear> %oa, %osfa, %ob, %osfb into %of
      : memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>, memref<1x16xi8>,
        memref<1x2xf8E4M3FN> into memref<1x4xf32>
  // CHECK: {{\[}}[65520, 65519, -65520, 65504]]
  %ofu = memref.cast %of : memref<1x4xf32> to memref<*xf32>
  call @printMemrefF32(%ofu) : (memref<*xf32>) -> ()

  memref.dealloc %b : memref<1x24xi8>
  memref.dealloc %h : memref<1x8xf16>
  memref.dealloc %bf : memref<1x8xbf16>
  memref.dealloc %f : memref<1x8xf32>
  memref.dealloc %ob : memref<1x16xi8>
  memref.dealloc %oh : memref<1x4xf16>
  memref.dealloc %obf : memref<1x4xbf16>
  memref.dealloc %of : memref<1x4xf32>
  return
}
