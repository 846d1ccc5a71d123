// nvfp4.quantize on small inputs with every expected byte derived by hand
// (docs/numerics.md section 5): e2m1 ties to even (0.25 -> 0, 0.75 -> 1,
// 1.25 -> 1, 1.75 -> 2, 2.5 -> 2, 3.5 -> 4, 5 -> 4), saturation at 6, -0,
// e4m3 scale rounding (ties, subnormal, saturation at 448, the carry into the
// smallest normal), two-level global scale, MXFP4 shared exponents and
// all-zero blocks. Bytes are printed as unsigned integers; a byte is
// (code of element 2j+1) << 4 | (code of element 2j). e2m1 codes: 0..7 =
// 0, 0.5, 1, 1.5, 2, 3, 4, 6; 8..15 the same negated.
// The NVFP4 result is dequantized again, as a check of both directions.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF32(memref<*xf32>)

// ---- NVFP4, single level (gs = 1), 2 rows x 64 (four blocks of 16) ----
memref.global "private" constant @x_nv : memref<1x2x64xf32> = dense<[[
  // Row 0, block 0: bmax = 6.25, scale e4m3(6.25 / 6 = 1.0417) = 1 (0x38):
  // codes 0 2 2 4 4 6 6 7 | 8 10 12 14 0 8 1 5 (6.25 saturates to 6; -0.25
  // and -0 give -0 = code 8; 0.3 -> 0.5; 2.9 -> 3).
  [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 6.25,
   -0.25, -0.75, -2.5, -5.0, 0.0, -0.0, 0.3, 2.9,
  // Block 1: bmax = 3, scale 3 / 6 = 0.5 (0x30), x * (1 / 0.5) =
  // 6 -6 3 0.2 0.25 0.75 1.25 2 -> codes 7 15 5 0 0 2 2 4.
   3.0, -3.0, 1.5, 0.1, 0.125, 0.375, 0.625, 1.0,
   0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  // Block 2: only zeros, some negative: scale 0 and every code +0.
   -0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
   0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0,
  // Block 3: bmax = 18 * 2^-10, bmax / 6 = 3 * 2^-10 = 1.5 units of 2^-9:
  // a tie, to the even 2 units = 2^-8 (0x02). x * 256 = 4.5, -0.5, 1.25,
  // 0.25 -> codes 6 9 2 0.
   0.017578125, -0.001953125, 0.0048828125, 0.0009765625,
   0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
  // Row 1, block 0: bmax / 6 = 500 saturates the scale to 448 (0x7E);
  // x / 448 = 6.70, -2.23, 1 -> codes 7 12 2.
  [3000.0, -1000.0, 448.0, 0.0, 0.0, 0.0, 0.0, 0.0,
   0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  // Block 1: 6.375 / 6 = 1.0625, the tie between 1 (0x38, even) and 1.125:
  // scale 1; 6.375 saturates (code 7), 0.5 is code 1.
   6.375, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
   0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  // Block 2: 7.125 / 6 = 1.1875, the tie between 1.125 and 1.25 (0x3A,
  // even); x / 1.25 = 5.7, -2, 1 -> codes 7 12 2.
   7.125, -2.5, 1.25, 0.0, 0.0, 0.0, 0.0, 0.0,
   0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  // Block 3: bmax / 6 = 7.75 * 2^-9 rounds up into the smallest normal
  // 2^-6 (0x08); 0.0908203125 * 64 = 5.8125 -> code 7.
   0.0908203125, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
   0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]>

// ---- NVFP4 two-level, 1 row x 32 ----
// amax = 336, gs = 2688 / 336 = 8.
// Block 0: bmax * gs / 6 = 448 (0x7E); inv = 8 / 448 = 1/56:
//   336 / 56 = 6 (7), 168 / 56 = 3 (5), -84 / 56 = -1.5 (11), 100 / 56 = 1.79 (4).
// Block 1: 0.75 * 8 / 6 = 1 (0x38); inv = 8: 0.75 -> 6 (7), 0.3125 -> 2.5
//   (tie, 4), 0.625 -> 5 (tie, 6), 0.03125 -> 0.25 (tie, 0), -0.09375 ->
//   -0.75 (tie, 10), 0.5 -> 4 (6).
memref.global "private" constant @x_nv2 : memref<1x1x32xf32> = dense<[[[
  336.0, 168.0, -84.0, 100.0, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.75, 0.3125, 0.625, 0.03125, -0.09375, 0.5, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]>

// ---- MXFP4, 1 row x 96 (three blocks of 32) ----
// Block 0: bmax = 7.5, floor(log2 7.5) = 2, e = 0, byte 127; codes of
//   7.5 5 2.5 0.25 0.75 -3.5 1.25 -0 = 7 6 4 0 2 14 2 8.
// Block 1: bmax = 0.1, floor(log2 0.1) = -4, e = -6, byte 121; x * 64 =
//   6.4 2.5 5 -0.75 -> codes 7 4 6 10.
// Block 2: only zeros (two of them -0): byte 0 (2^-127), every code +0.
memref.global "private" constant @x_mx : memref<1x1x96xf32> = dense<[[[
  7.5, 5.0, 2.5, 0.25, 0.75, -3.5, 1.25, -0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.1, 0.0390625, 0.078125, -0.01171875, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  -0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0]]]>

func.func @print_bytes(%m: memref<?x?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = memref.dim %m, %c0 : memref<?x?x?xi8>
  %d1 = memref.dim %m, %c1 : memref<?x?x?xi8>
  %d2 = memref.dim %m, %c2 : memref<?x?x?xi8>
  %o = memref.alloc(%d0, %d1, %d2) : memref<?x?x?xi64>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      scf.for %k = %c0 to %d2 step %c1 {
        %v = memref.load %m[%i, %j, %k] : memref<?x?x?xi8>
        %w = arith.extui %v : i8 to i64
        memref.store %w, %o[%i, %j, %k] : memref<?x?x?xi64>
      }
    }
  }
  %u = memref.cast %o : memref<?x?x?xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  memref.dealloc %o : memref<?x?x?xi64>
  return
}

func.func @print_e4m3(%m: memref<?x?x?xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = memref.dim %m, %c0 : memref<?x?x?xf8E4M3FN>
  %d1 = memref.dim %m, %c1 : memref<?x?x?xf8E4M3FN>
  %d2 = memref.dim %m, %c2 : memref<?x?x?xf8E4M3FN>
  %o = memref.alloc(%d0, %d1, %d2) : memref<?x?x?xi8>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      scf.for %k = %c0 to %d2 step %c1 {
        %v = memref.load %m[%i, %j, %k] : memref<?x?x?xf8E4M3FN>
        %w = arith.bitcast %v : f8E4M3FN to i8
        memref.store %w, %o[%i, %j, %k] : memref<?x?x?xi8>
      }
    }
  }
  call @print_bytes(%o) : (memref<?x?x?xi8>) -> ()
  memref.dealloc %o : memref<?x?x?xi8>
  return
}

func.func @print_e8m0(%m: memref<?x?x?xf8E8M0FNU>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = memref.dim %m, %c0 : memref<?x?x?xf8E8M0FNU>
  %d1 = memref.dim %m, %c1 : memref<?x?x?xf8E8M0FNU>
  %d2 = memref.dim %m, %c2 : memref<?x?x?xf8E8M0FNU>
  %o = memref.alloc(%d0, %d1, %d2) : memref<?x?x?xi8>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      scf.for %k = %c0 to %d2 step %c1 {
        %v = memref.load %m[%i, %j, %k] : memref<?x?x?xf8E8M0FNU>
        %w = arith.bitcast %v : f8E8M0FNU to i8
        memref.store %w, %o[%i, %j, %k] : memref<?x?x?xi8>
      }
    }
  }
  call @print_bytes(%o) : (memref<?x?x?xi8>) -> ()
  memref.dealloc %o : memref<?x?x?xi8>
  return
}

func.func @main() {
  // Outputs are poisoned first (0xFF bytes: code -6 pairs, NaN scales).
  %poison = arith.constant -1 : i8
  %poison_nv = arith.constant 0xFF : f8E4M3FN
  %poison_mx = arith.constant 0xFF : f8E8M0FNU
  %nan = arith.constant 0x7FC00000 : f32

  // ---- NVFP4 single level ----
  %x = memref.get_global @x_nv : memref<1x2x64xf32>
  %q = memref.alloc() : memref<1x2x32xi8>
  %s = memref.alloc() : memref<1x2x4xf8E4M3FN>
  linalg.fill ins(%poison : i8) outs(%q : memref<1x2x32xi8>)
  linalg.fill ins(%poison_nv : f8E4M3FN) outs(%s : memref<1x2x4xf8E4M3FN>)
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s
      : memref<1x2x64xf32> into memref<1x2x32xi8>, memref<1x2x4xf8E4M3FN>
  %qd = memref.cast %q : memref<1x2x32xi8> to memref<?x?x?xi8>
  %sd = memref.cast %s : memref<1x2x4xf8E4M3FN> to memref<?x?x?xf8E4M3FN>
  // Row 0: 0x20 0x42 0x64 0x76 0xA8 0xEC 0x80 0x51 | 0xF7 0x05 0x20 0x42 0 0 0 0
  //        | 0 x 8 | 0x96 0x02 0 0 0 0 0 0
  // Row 1: 0xC7 0x02 0 x 6 | 0x17 0 x 7 | 0xC7 0x02 0 x 6 | 0x07 0 x 7
  // CHECK:      {{\[}}{{\[}}[32, 66, 100, 118, 168, 236, 128, 81, 247, 5, 32, 66, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 150, 2, 0, 0, 0, 0, 0, 0],
  // CHECK-NEXT:  [199, 2, 0, 0, 0, 0, 0, 0, 23, 0, 0, 0, 0, 0, 0, 0, 199, 2, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0]]]
  call @print_bytes(%qd) : (memref<?x?x?xi8>) -> ()
  // Scales: row 0 = 0x38 0x30 0x00 0x02, row 1 = 0x7E 0x38 0x3A 0x08.
  // CHECK:      {{\[}}{{\[}}[56, 48, 0, 2],
  // CHECK-NEXT:  [126, 56, 58, 8]]]
  call @print_e4m3(%sd) : (memref<?x?x?xf8E4M3FN>) -> ()

  // Dequantized: code value * scale.
  %y = memref.alloc() : memref<1x2x64xf32>
  linalg.fill ins(%nan : f32) outs(%y : memref<1x2x64xf32>)
  nvfp4.dequantize <nvfp4> <linear> %q, %s into %y
      : memref<1x2x32xi8>, memref<1x2x4xf8E4M3FN> into memref<1x2x64xf32>
  // Row 0: block 0 * 1, block 1 * 0.5, block 2 * 0, block 3 * 2^-8
  // (codes 6 9 2 = 4, -0.5, 1: 0.015625, -0.001953125 printed -0.00195312,
  // 0.00390625).
  // Row 1: 6 * 448, -2 * 448, 448 | 6, 0.5 | 6 * 1.25, -2 * 1.25, 1.25 |
  // 6 * 2^-6.
  // CHECK:      {{\[}}{{\[}}[0, 1, 1, 2, 2, 4, 4, 6, -0, -1, -2, -4, 0, -0, 0.5, 3, 3, -3, 1.5, 0, 0, 0.5, 0.5, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.015625, -0.00195312, 0.00390625, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  // CHECK-NEXT:  [2688, -896, 448, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7.5, -2.5, 1.25, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.09375, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]]
  %yu = memref.cast %y : memref<1x2x64xf32> to memref<*xf32>
  call @printMemrefF32(%yu) : (memref<*xf32>) -> ()

  // ---- NVFP4 two level ----
  %x2 = memref.get_global @x_nv2 : memref<1x1x32xf32>
  %q2 = memref.alloc() : memref<1x1x16xi8>
  %s2 = memref.alloc() : memref<1x1x2xf8E4M3FN>
  %gs = memref.alloc() : memref<f32>
  linalg.fill ins(%poison : i8) outs(%q2 : memref<1x1x16xi8>)
  linalg.fill ins(%poison_nv : f8E4M3FN) outs(%s2 : memref<1x1x2xf8E4M3FN>)
  memref.store %nan, %gs[] : memref<f32>
  nvfp4.quantize <nvfp4> <linear> %x2 into %q2, %s2 global_scale(%gs)
      : memref<1x1x32xf32> into memref<1x1x16xi8>, memref<1x1x2xf8E4M3FN>,
        memref<f32>
  // Bytes: (5 << 4 | 7) = 0x57, (4 << 4 | 11) = 0x4B, 0 x 6 |
  //        (4 << 4 | 7) = 0x47, (0 << 4 | 6) = 0x06, (6 << 4 | 10) = 0x6A, 0 x 5.
  // CHECK: {{\[}}{{\[}}[87, 75, 0, 0, 0, 0, 0, 0, 71, 6, 106, 0, 0, 0, 0, 0]]]
  %q2d = memref.cast %q2 : memref<1x1x16xi8> to memref<?x?x?xi8>
  call @print_bytes(%q2d) : (memref<?x?x?xi8>) -> ()
  // CHECK: {{\[}}{{\[}}[126, 56]]]
  %s2d = memref.cast %s2 : memref<1x1x2xf8E4M3FN> to memref<?x?x?xf8E4M3FN>
  call @print_e4m3(%s2d) : (memref<?x?x?xf8E4M3FN>) -> ()
  // CHECK: [8]
  %gsu = memref.cast %gs : memref<f32> to memref<*xf32>
  call @printMemrefF32(%gsu) : (memref<*xf32>) -> ()

  // ---- MXFP4 ----
  %x3 = memref.get_global @x_mx : memref<1x1x96xf32>
  %q3 = memref.alloc() : memref<1x1x48xi8>
  %s3 = memref.alloc() : memref<1x1x3xf8E8M0FNU>
  linalg.fill ins(%poison : i8) outs(%q3 : memref<1x1x48xi8>)
  linalg.fill ins(%poison_mx : f8E8M0FNU) outs(%s3 : memref<1x1x3xf8E8M0FNU>)
  nvfp4.quantize <mxfp4> <linear> %x3 into %q3, %s3
      : memref<1x1x96xf32> into memref<1x1x48xi8>, memref<1x1x3xf8E8M0FNU>
  // Block 0: (6 << 4 | 7) = 0x67, (0 << 4 | 4) = 0x04, (14 << 4 | 2) = 0xE2,
  //          (8 << 4 | 2) = 0x82, 0 x 12.
  // Block 1: (4 << 4 | 7) = 0x47, (10 << 4 | 6) = 0xA6, 0 x 14.
  // Block 2: 0 x 16.
  // CHECK: {{\[}}{{\[}}[103, 4, 226, 130, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 71, 166, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]]
  %q3d = memref.cast %q3 : memref<1x1x48xi8> to memref<?x?x?xi8>
  call @print_bytes(%q3d) : (memref<?x?x?xi8>) -> ()
  // CHECK: {{\[}}{{\[}}[127, 121, 0]]]
  %s3d = memref.cast %s3 : memref<1x1x3xf8E8M0FNU> to memref<?x?x?xf8E8M0FNU>
  call @print_e8m0(%s3d) : (memref<?x?x?xf8E8M0FNU>) -> ()

  memref.dealloc %q : memref<1x2x32xi8>
  memref.dealloc %s : memref<1x2x4xf8E4M3FN>
  memref.dealloc %y : memref<1x2x64xf32>
  memref.dealloc %q2 : memref<1x1x16xi8>
  memref.dealloc %s2 : memref<1x1x2xf8E4M3FN>
  memref.dealloc %gs : memref<f32>
  memref.dealloc %q3 : memref<1x1x48xi8>
  memref.dealloc %s3 : memref<1x1x3xf8E8M0FNU>
  return
}
