// RUN: nvfp4-opt %s --convert-nvfp4-to-loops | FileCheck %s

// The loop structure and the key arithmetic of each lowering. Index
// constants print as %c<value>[_<n>], which pins their values.

// NVFP4 GEMV, dynamic shapes, alpha, f16 output: loops over L and M, an f32
// accumulator over scale blocks of 8 bytes (16 values), an inner f32 block
// dot product over the bytes (two nibbles each), the block term
// dot * (sfa * sfb), alpha once, one rounding to f16.
// CHECK-LABEL: func.func @gemv_nvfp4_linear(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<?x?x?xi8>, %[[SFA:[a-z0-9]+]]: memref<?x?x?xf8E4M3FN>, %[[B:[a-z0-9]+]]: memref<?x?xi8>, %[[SFB:[a-z0-9]+]]: memref<?x?xf8E4M3FN>, %[[C:[a-z0-9]+]]: memref<?x?xf16>, %[[ALPHA:[a-z0-9]+]]: f32)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[L:.*]] = memref.dim %[[A]], %c0{{(_[0-9]+)?}} : memref<?x?x?xi8>
// CHECK:         %[[M:.*]] = memref.dim %[[A]], %c1{{(_[0-9]+)?}} : memref<?x?x?xi8>
// CHECK:         %[[KBYTES:.*]] = memref.dim %[[A]], %c2{{(_[0-9]+)?}} : memref<?x?x?xi8>
// CHECK-NEXT:    %[[NB:.*]] = arith.divui %[[KBYTES]], %c8 : index
// CHECK:         scf.for %[[IL:.*]] = %{{.*}} to %[[L]] step
// CHECK-NEXT:      scf.for %[[IM:.*]] = %{{.*}} to %[[M]] step
// CHECK-NEXT:        %[[SUM:.*]] = scf.for %[[KB:.*]] = %{{.*}} to %[[NB]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:          %[[SA8:.*]] = memref.load %[[SFA]][%[[IL]], %[[IM]], %[[KB]]] : memref<?x?x?xf8E4M3FN>
// CHECK-NEXT:          arith.bitcast %[[SA8]] : f8E4M3FN to i8
// e4m3: the 7 magnitude bits at f32 bit 20, times 2^120; 0x7F is NaN.
// CHECK:               arith.shli %{{.*}}, %c20_i32{{(_[0-9]+)?}} : i32
// CHECK:               arith.constant 1.329228E+36 : f32
// CHECK:               arith.cmpi eq, %{{.*}}, %c127_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT:          %[[SA:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:          %[[SB8:.*]] = memref.load %[[SFB]][%[[IL]], %[[KB]]] : memref<?x?xf8E4M3FN>
// CHECK:               arith.cmpi eq, %{{.*}}, %c127_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT:          %[[SB:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:          %[[FIRST:.*]] = arith.muli %[[KB]], %c8 : index
// CHECK-NEXT:          %[[DOT:.*]] = scf.for %[[J:.*]] = %{{.*}} to %c8 step %{{.*}} iter_args(%[[PART:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:            %[[K:.*]] = arith.addi %[[FIRST]], %[[J]] : index
// CHECK-NEXT:            %[[BYTEA:.*]] = memref.load %[[A]][%[[IL]], %[[IM]], %[[K]]] : memref<?x?x?xi8>
// CHECK-NEXT:            %[[BYTEB:.*]] = memref.load %[[B]][%[[IL]], %[[K]]] : memref<?x?xi8>
// CHECK:                 arith.shrui %[[BYTEA]], %c4_i8{{(_[0-9]+)?}} : i8
// CHECK:                 arith.shrui %[[BYTEB]], %c4_i8{{(_[0-9]+)?}} : i8
// Low nibbles times low nibbles, high times high, summed in f32:
// CHECK:                 %[[P0:.*]] = arith.mulf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK-NEXT:            %[[S0:.*]] = arith.addf %[[PART]], %[[P0]] : f32
// CHECK-NEXT:            %[[P1:.*]] = arith.mulf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK-NEXT:            %[[S1:.*]] = arith.addf %[[S0]], %[[P1]] : f32
// CHECK-NEXT:            scf.yield %[[S1]] : f32
// CHECK-NEXT:          }
// CHECK-NEXT:          %[[SCALE:.*]] = arith.mulf %[[SA]], %[[SB]] : f32
// CHECK-NEXT:          %[[TERM:.*]] = arith.mulf %[[DOT]], %[[SCALE]] : f32
// CHECK-NEXT:          %[[NEXT:.*]] = arith.addf %[[ACC]], %[[TERM]] : f32
// CHECK-NEXT:          scf.yield %[[NEXT]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[SCALED:.*]] = arith.mulf %[[SUM]], %[[ALPHA]] : f32
// CHECK-NEXT:        %[[H:.*]] = arith.truncf %[[SCALED]] : f32 to f16
// CHECK-NEXT:        memref.store %[[H]], %[[C]][%[[IL]], %[[IM]]] : memref<?x?xf16>
// CHECK-NOT:     nvfp4.
// CHECK:         return
func.func @gemv_nvfp4_linear(%a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>,
                             %b: memref<?x?xi8>, %sfb: memref<?x?xf8E4M3FN>,
                             %c: memref<?x?xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>,
        memref<?x?xf8E4M3FN> into memref<?x?xf16>
  return
}

// MXFP4 GEMV in the blocked layout, f32 output: blocks of 16 bytes (32
// values); scale (m, kb) at [l, m / 128, kb / 4,
// (m % 32) * 16 + ((m % 128) / 32) * 4 + kb % 4], the vector's at row 0;
// ue8m0 decoding puts the byte into the f32 exponent field; a block term
// with an infinite scale product and a zero dot product adds the dot
// product (0), not NaN; no alpha multiply and no truncation.
// CHECK-LABEL: func.func @gemv_mxfp4_blocked(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<2x130x48xi8>, %[[SFA:[a-z0-9]+]]: memref<2x2x1x512xf8E8M0FNU>, %[[B:[a-z0-9]+]]: memref<2x48xi8>, %[[SFB:[a-z0-9]+]]: memref<2x1x1x512xf8E8M0FNU>, %[[C:[a-z0-9]+]]: memref<2x130xf32>)
// CHECK:         %[[NB:.*]] = arith.divui %{{.*}}, %c16 : index
// CHECK:         scf.for %[[IL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[IM:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[SUM:.*]] = scf.for %[[KB:.*]] = %{{.*}} to %[[NB]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:               %[[R32:.*]] = arith.remui %[[IM]], %c32{{(_[0-9]+)?}} : index
// CHECK:               %[[LINE:.*]] = arith.muli %[[R32]], %c16{{(_[0-9]+)?}} : index
// CHECK:               %[[R128:.*]] = arith.remui %[[IM]], %c128{{(_[0-9]+)?}} : index
// CHECK:               %[[Q:.*]] = arith.divui %[[R128]], %c32{{(_[0-9]+)?}} : index
// CHECK:               %[[QOFF:.*]] = arith.muli %[[Q]], %c4{{(_[0-9]+)?}} : index
// CHECK-NEXT:          %[[T:.*]] = arith.addi %[[LINE]], %[[QOFF]] : index
// CHECK:               %[[CM:.*]] = arith.remui %[[KB]], %c4{{(_[0-9]+)?}} : index
// CHECK-NEXT:          %[[INATOM:.*]] = arith.addi %[[T]], %[[CM]] : index
// CHECK:               %[[RB:.*]] = arith.divui %[[IM]], %c128{{(_[0-9]+)?}} : index
// CHECK:               %[[CB:.*]] = arith.divui %[[KB]], %c4{{(_[0-9]+)?}} : index
// CHECK-NEXT:          %[[SA8:.*]] = memref.load %[[SFA]][%[[IL]], %[[RB]], %[[CB]], %[[INATOM]]] : memref<2x2x1x512xf8E8M0FNU>
// CHECK-NEXT:          %[[SAI8:.*]] = arith.bitcast %[[SA8]] : f8E8M0FNU to i8
// CHECK-NEXT:          %[[SAI32:.*]] = arith.extui %[[SAI8]] : i8 to i32
// ue8m0: the byte is the f32 exponent field; 0 is 2^-127 (0x00400000), 255 NaN.
// CHECK:               arith.shli %[[SAI32]], %c23_i32{{(_[0-9]+)?}} : i32
// CHECK:               arith.cmpi eq, %[[SAI32]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK:               arith.bitcast %c4194304_i32{{(_[0-9]+)?}} : i32 to f32
// CHECK:               arith.cmpi eq, %[[SAI32]], %c255_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT:          %[[SA:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// The vector's scales: row 0 of the blocked layout (its index arithmetic
// folds to constants).
// CHECK:               memref.load %[[SFB]][%[[IL]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x1x1x512xf8E8M0FNU>
// CHECK:               arith.cmpi eq, %{{.*}}, %c255_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT:          %[[SB:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:          %[[FIRST:.*]] = arith.muli %[[KB]], %c16 : index
// CHECK-NEXT:          %[[DOT:.*]] = scf.for %[[J:.*]] = %{{.*}} to %c16 step
// CHECK-NEXT:            %[[K:.*]] = arith.addi %[[FIRST]], %[[J]] : index
// CHECK-NEXT:            memref.load %[[A]][%[[IL]], %[[IM]], %[[K]]] : memref<2x130x48xi8>
// CHECK-NEXT:            memref.load %[[B]][%[[IL]], %[[K]]] : memref<2x48xi8>
// CHECK:                 scf.yield
// CHECK-NEXT:          }
// CHECK-NEXT:          %[[SCALE:.*]] = arith.mulf %[[SA]], %[[SB]] : f32
// CHECK-NEXT:          %[[PROD:.*]] = arith.mulf %[[DOT]], %[[SCALE]] : f32
// CHECK-NEXT:          %[[INFC:.*]] = arith.constant 0x7F800000 : f32
// CHECK-NEXT:          %[[INF:.*]] = arith.cmpf oeq, %[[SCALE]], %[[INFC]] : f32
// CHECK-NEXT:          %[[ZDOT:.*]] = arith.cmpf oeq, %[[DOT]], %{{.*}} : f32
// CHECK-NEXT:          %[[BOTH:.*]] = arith.andi %[[INF]], %[[ZDOT]] : i1
// CHECK-NEXT:          %[[TERM:.*]] = arith.select %[[BOTH]], %[[DOT]], %[[PROD]] : f32
// CHECK-NEXT:          %[[NEXT:.*]] = arith.addf %[[ACC]], %[[TERM]] : f32
// CHECK-NEXT:          scf.yield %[[NEXT]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        memref.store %[[SUM]], %[[C]][%[[IL]], %[[IM]]] : memref<2x130xf32>
// CHECK-NOT:     nvfp4.
// CHECK:         return
func.func @gemv_mxfp4_blocked(%a: memref<2x130x48xi8>,
                              %sfa: memref<2x2x1x512xf8E8M0FNU>,
                              %b: memref<2x48xi8>,
                              %sfb: memref<2x1x1x512xf8E8M0FNU>,
                              %c: memref<2x130xf32>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x130x48xi8>, memref<2x2x1x512xf8E8M0FNU>, memref<2x48xi8>,
        memref<2x1x1x512xf8E8M0FNU> into memref<2x130xf32>
  return
}

// linear -> blocked: first every destination byte (padding included) is set
// to 0, then one loop nest over the linear source moves each scale.
// CHECK-LABEL: func.func @convert_to_blocked(
// CHECK-SAME:    %[[SRC:[a-z0-9]+]]: memref<1x130x6xf8E4M3FN>, %[[DST:[a-z0-9]+]]: memref<1x2x2x512xf8E4M3FN>)
// CHECK:         scf.for %[[Z0:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[Z1:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        scf.for %[[Z2:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          scf.for %[[Z3:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[ZB:.*]] = arith.bitcast %c0_i8 : i8 to f8E4M3FN
// CHECK-NEXT:            memref.store %[[ZB]], %[[DST]][%[[Z0]], %[[Z1]], %[[Z2]], %[[Z3]]]
// CHECK:         %[[R:.*]] = memref.dim %[[SRC]], %c1{{(_[0-9]+)?}} : memref<1x130x6xf8E4M3FN>
// CHECK:         scf.for %[[IL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[IR:.*]] = %{{.*}} to %[[R]] step
// CHECK-NEXT:        scf.for %[[IC:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               %[[T:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:               %[[INATOM:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK:               %[[RB:.*]] = arith.divui %[[IR]], %c128{{(_[0-9]+)?}} : index
// CHECK:               %[[CB:.*]] = arith.divui %[[IC]], %c4{{(_[0-9]+)?}} : index
// CHECK-NEXT:          %[[V:.*]] = memref.load %[[SRC]][%[[IL]], %[[IR]], %[[IC]]] : memref<1x130x6xf8E4M3FN>
// CHECK-NEXT:          memref.store %[[V]], %[[DST]][%[[IL]], %[[RB]], %[[CB]], %[[INATOM]]] : memref<1x2x2x512xf8E4M3FN>
// CHECK-NOT:     nvfp4.
// CHECK:         return
func.func @convert_to_blocked(%src: memref<1x130x6xf8E4M3FN>,
                              %dst: memref<1x2x2x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %src, %dst from <linear> to <blocked128x4>
      : memref<1x130x6xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  return
}

// blocked -> linear: the loops run over the linear destination and read
// the blocked positions.
// CHECK-LABEL: func.func @convert_to_linear(
// CHECK-SAME:    %[[SRC:[a-z0-9]+]]: memref<1x2x2x512xf8E4M3FN>, %[[DST:[a-z0-9]+]]: memref<1x130x6xf8E4M3FN>)
// CHECK:         %[[R:.*]] = memref.dim %[[DST]], %c1{{(_[0-9]+)?}} : memref<1x130x6xf8E4M3FN>
// CHECK:         scf.for %[[IL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[IR:.*]] = %{{.*}} to %[[R]] step
// CHECK-NEXT:        scf.for %[[IC:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               %[[T:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:               %[[INATOM:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK:               %[[RB:.*]] = arith.divui %[[IR]], %c128{{(_[0-9]+)?}} : index
// CHECK:               %[[CB:.*]] = arith.divui %[[IC]], %c4{{(_[0-9]+)?}} : index
// CHECK-NEXT:          %[[V:.*]] = memref.load %[[SRC]][%[[IL]], %[[RB]], %[[CB]], %[[INATOM]]] : memref<1x2x2x512xf8E4M3FN>
// CHECK-NEXT:          memref.store %[[V]], %[[DST]][%[[IL]], %[[IR]], %[[IC]]] : memref<1x130x6xf8E4M3FN>
// CHECK:         return
func.func @convert_to_linear(%src: memref<1x2x2x512xf8E4M3FN>,
                             %dst: memref<1x130x6xf8E4M3FN>) {
  nvfp4.convert_scale_layout %src, %dst from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E4M3FN> to memref<1x130x6xf8E4M3FN>
  return
}

// Two-level NVFP4 quantization (docs/numerics.md section 5): amax with
// maxNum over |x| of the whole tensor, gs = 2688 / amax (1 for an all-zero
// tensor) stored once; per block of 16: bmax, the f32 multiply by gs then
// divide by 6, the e4m3 encoding (saturating at 126 = 0x7E), the scale
// stored; inv = gs / s; every code's magnitude from x * inv rounded to the
// e2m1 grid by a magic-number addition (saturated at 6; the grid step from
// the clamped exponent), its sign from x, forced to +0 when the scale is
// 0; two codes packed low nibble first, as the kernels' words of eight.
// CHECK-LABEL: func.func @quantize_two_level(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<1x4x32xf32>, %[[Q:[a-z0-9]+]]: memref<1x4x16xi8>, %[[S:[a-z0-9]+]]: memref<1x4x2xf8E4M3FN>, %[[GS:[a-z0-9]+]]: memref<f32>)
// CHECK:         %[[AMAX:.*]] = scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               memref.load %[[X]]
// CHECK:               llvm.intr.maxnum
// CHECK:         %[[ISZERO:.*]] = arith.cmpf oeq, %[[AMAX]], %{{.*}} : f32
// CHECK-NEXT:    %[[C2688:.*]] = arith.constant 2.688000e+03 : f32
// CHECK-NEXT:    %[[RATIO:.*]] = arith.divf %[[C2688]], %[[AMAX]] : f32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[GSV:.*]] = arith.select %[[ISZERO]], %[[ONE]], %[[RATIO]] : f32
// CHECK-NEXT:    memref.store %[[GSV]], %[[GS]][] : memref<f32>
// CHECK:         scf.for %[[IL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[IR:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        scf.for %[[KB:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               %[[BMAX:.*]] = scf.for %{{.*}} = %{{.*}} to %c16 step
// CHECK:                 llvm.intr.maxnum
// CHECK:               %[[PROD:.*]] = arith.mulf %[[BMAX]], %[[GSV]] : f32
// (bmax * gs) / 6 as q = RN(y RN(1/6)) corrected by its residual y - 6 q.
// CHECK-NEXT:          %[[SIXTH:.*]] = arith.constant 0.166666672 : f32
// CHECK-NEXT:          %[[Q6:.*]] = arith.mulf %[[PROD]], %[[SIXTH]] : f32
// CHECK-NEXT:          %[[NQ6:.*]] = arith.negf %[[Q6]] : f32
// CHECK-NEXT:          %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT:          %[[R6:.*]] = llvm.intr.fma(%[[NQ6]], %[[SIX]], %[[PROD]]) : (f32, f32, f32) -> f32
// CHECK-NEXT:          %[[TARGET:.*]] = llvm.intr.fma(%[[R6]], %[[SIXTH]], %[[Q6]]) : (f32, f32, f32) -> f32
// e4m3 encoding: subnormal units from the bits of |t| * 512 + 2^23, the
// normal code by rounding the mantissa, saturation by min(code, 0x7E).
// CHECK:               llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK:               arith.minsi %{{.*}}, %c126_i32 : i32
// CHECK-NEXT:          %[[SBITS:.*]] = arith.trunci %{{.*}} : i32 to i8
// The byte (0 to 0x7E) decoded by a shift and a multiply by 2^120.
// CHECK:               %[[SV:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:          %[[INV:.*]] = arith.divf %[[GSV]], %[[SV]] : f32
// CHECK-NEXT:          %[[CZ:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:          %[[ZEROS:.*]] = arith.cmpf oeq, %[[SV]], %[[CZ]] : f32
// CHECK-NEXT:          %[[SF8:.*]] = arith.bitcast %[[SBITS]] : i8 to f8E4M3FN
// CHECK-NEXT:          memref.store %[[SF8]], %[[S]][%[[IL]], %[[IR]], %[[KB]]] : memref<1x4x2xf8E4M3FN>
// CHECK:               %[[KEEP:.*]] = arith.select %[[ZEROS]], %c0_i32, %c-1_i32 : i32
// CHECK:               scf.for %[[J:.*]] = %{{.*}} to %c8 step
// CHECK:                 %[[X0:.*]] = memref.load %[[X]][%[[IL]], %[[IR]], %{{.*}}] : memref<1x4x32xf32>
// CHECK:                 %[[X1:.*]] = memref.load %[[X]][%[[IL]], %[[IR]], %{{.*}}] : memref<1x4x32xf32>
// CHECK:                 %[[Y0:.*]] = arith.mulf %[[X0]], %[[INV]] : f32
// The e2m1 magnitude: |y| clamped to 6, the exponent field clamped to 127,
// M = (e << 23) + 0x0B400000 added in f32, then 16^i (bits(sum) +
// e * (2 - 2^23)) summed over the byte's two codes, the constants once.
// CHECK:                 %[[AY:.*]] = arith.andi %{{.*}}, %c2147483647_i32{{(_[0-9]+)?}} : i32
// CHECK:                 %[[C6:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT:            %[[CL:.*]] = llvm.intr.minnum(%{{.*}}, %[[C6]]) : (f32, f32) -> f32
// CHECK:                 %[[FE:.*]] = arith.shrui %{{.*}}, %c23_i32 : i32
// CHECK:                 %[[FC:.*]] = arith.maxsi %[[FE]], %c127_i32{{(_[0-9]+)?}} : i32
// CHECK:                 %[[MS:.*]] = arith.shli %[[FC]], %c23_i32{{(_[0-9]+)?}} : i32
// CHECK:                 arith.addi %[[MS]], %c188743680_i32 : i32
// CHECK:                 %[[SUM:.*]] = arith.addf %[[CL]], %{{.*}} : f32
// CHECK:                 arith.muli %[[FC]], %c-8388606_i32 : i32
// CHECK:                 arith.muli %{{.*}}, %c-134217696_i32 : i32
// CHECK:                 arith.addi %{{.*}}, %c1086320418_i32 : i32
// The signs: bit 31 of each input to bit 3 of its nibble.
// CHECK:                 arith.shrui %{{.*}}, %c28_i32 : i32
// CHECK:                 arith.shrui %{{.*}}, %c24_i32 : i32
// CHECK:                 %[[SIGNS:.*]] = arith.ori %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:            %[[CODES:.*]] = arith.ori %{{.*}}, %[[SIGNS]] : i32
// CHECK-NEXT:            %[[KEPT:.*]] = arith.andi %[[CODES]], %[[KEEP]] : i32
// CHECK-NEXT:            %[[BYTE:.*]] = arith.trunci %[[KEPT]] : i32 to i8
// CHECK-NEXT:            memref.store %[[BYTE]], %[[Q]][%[[IL]], %[[IR]], %{{.*}}] : memref<1x4x16xi8>
// CHECK-NOT:     nvfp4.
// CHECK:         return
func.func @quantize_two_level(%x: memref<1x4x32xf32>, %q: memref<1x4x16xi8>,
                              %s: memref<1x4x2xf8E4M3FN>, %gs: memref<f32>) {
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s global_scale(%gs)
      : memref<1x4x32xf32> into memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>,
        memref<f32>
  return
}

// MXFP4 quantization of bf16 input in the blocked layout: the padding of
// the scales is zeroed first; per block of 32, bmax of the f32-extended
// values; the scale byte is the f32 exponent field of bmax minus 2,
// clamped to [0, 254], and 0 for an all-zero block; codes from x * 2^-e
// (the reciprocal of a power of two, exact), +0 for an all-zero block.
// CHECK-LABEL: func.func @quantize_mxfp4_blocked(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<?x?x?xbf16>, %[[Q:[a-z0-9]+]]: memref<?x?x?xi8>, %[[S:[a-z0-9]+]]: memref<?x?x?x512xf8E8M0FNU>)
// CHECK:         scf.for %[[Z0:.*]] =
// CHECK-NEXT:      scf.for %[[Z1:.*]] =
// CHECK-NEXT:        scf.for %[[Z2:.*]] =
// CHECK-NEXT:          scf.for %[[Z3:.*]] =
// CHECK-NEXT:            %[[ZB:.*]] = arith.bitcast %c0_i8{{(_[0-9]+)?}} : i8 to f8E8M0FNU
// CHECK-NEXT:            memref.store %[[ZB]], %[[S]][%[[Z0]], %[[Z1]], %[[Z2]], %[[Z3]]]
// CHECK:         scf.for %[[IL:.*]] =
// CHECK-NEXT:      scf.for %[[IR:.*]] =
// CHECK-NEXT:        scf.for %[[KB:.*]] =
// CHECK:               %[[BMAX:.*]] = scf.for %{{.*}} = %{{.*}} to %c32 step
// CHECK:                 arith.extf %{{.*}} : bf16 to f32
// CHECK:                 llvm.intr.maxnum
// CHECK:               %[[ALLZERO:.*]] = arith.cmpf oeq, %[[BMAX]], %{{.*}} : f32
// CHECK:               %[[BITS:.*]] = arith.bitcast %[[BMAX]] : f32 to i32
// CHECK:               %[[FIELD:.*]] = arith.shrui %[[BITS]], %c23_i32 : i32
// CHECK:               %[[EXP:.*]] = arith.andi %[[FIELD]], %c255_i32 : i32
// CHECK:               %[[E:.*]] = arith.subi %[[EXP]], %c2_i32 : i32
// CHECK:               %[[LO:.*]] = arith.maxsi %[[E]], %c0_i32 : i32
// CHECK:               %[[HI:.*]] = arith.minsi %[[LO]], %c254_i32 : i32
// CHECK-NEXT:          %[[B8:.*]] = arith.trunci %[[HI]] : i32 to i8
// CHECK-NEXT:          %[[SBYTE:.*]] = arith.select %[[ALLZERO]], %c0_i8{{(_[0-9]+)?}}, %[[B8]] : i8
// CHECK:               arith.cmpi eq, %{{.*}}, %c255_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT:          %[[SV:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:               %[[RCP:.*]] = arith.divf %{{.*}}, %[[SV]] : f32
// CHECK:               %[[SF8:.*]] = arith.bitcast %[[SBYTE]] : i8 to f8E8M0FNU
// CHECK-NEXT:          memref.store %[[SF8]], %[[S]][%[[IL]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?x512xf8E8M0FNU>
// CHECK:               %[[KEEP:.*]] = arith.select %[[ALLZERO]], %c0_i32{{(_[0-9]+)?}}, %c-1_i32 : i32
// CHECK:               scf.for %{{.*}} = %{{.*}} to %c16 step
// CHECK:                 %[[XV:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:                 arith.mulf %[[XV]], %[[RCP]] : f32
// CHECK:                 %[[KEPT:.*]] = arith.andi %{{.*}}, %[[KEEP]] : i32
// CHECK-NEXT:            %[[BYTE:.*]] = arith.trunci %[[KEPT]] : i32 to i8
// CHECK-NEXT:            memref.store %[[BYTE]], %[[Q]][%[[IL]], %[[IR]], %{{.*}}] : memref<?x?x?xi8>
// CHECK-NOT:     nvfp4.
// CHECK:         return
func.func @quantize_mxfp4_blocked(%x: memref<?x?x?xbf16>, %q: memref<?x?x?xi8>,
                                  %s: memref<?x?x?x512xf8E8M0FNU>) {
  nvfp4.quantize <mxfp4> <blocked128x4> %x into %q, %s
      : memref<?x?x?xbf16> into memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU>
  return
}

// Dequantization with a global scale into bf16: gs loaded once; one loop
// per data byte, its block's scale (column 2 j / 16), then for each nibble
// (value * scale) / gs in f32, rounded once to bf16 and stored at k = 2j and
// 2j + 1.
// CHECK-LABEL: func.func @dequantize_gs(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: memref<1x4x16xi8>, %[[S:[a-z0-9]+]]: memref<1x4x2xf8E4M3FN>, %[[GS:[a-z0-9]+]]: memref<f32>, %[[Y:[a-z0-9]+]]: memref<1x4x32xbf16>)
// CHECK:         %[[GSV:.*]] = memref.load %[[GS]][] : memref<f32>
// CHECK:         scf.for %[[IL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[IR:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[K:.*]] = arith.muli %[[J]], %c2{{(_[0-9]+)?}} : index
// CHECK-NEXT:          %[[KB:.*]] = arith.divui %[[K]], %c16 : index
// CHECK-NEXT:          memref.load %[[S]][%[[IL]], %[[IR]], %[[KB]]] : memref<1x4x2xf8E4M3FN>
// CHECK:               %[[SC:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:          memref.load %[[Q]][%[[IL]], %[[IR]], %[[J]]] : memref<1x4x16xi8>
// The quotient: x RN(1/gs) corrected once by its exact residual
// (Markstein), then rounded to odd by the sign of its own residual, so
// that the one rounding to bf16 is correct (docs/numerics.md section 6);
// quotients near under- or overflow go through f64 instead.
// CHECK:               %[[P0:.*]] = arith.mulf %{{.*}}, %[[SC]] : f32
// CHECK-NEXT:          %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:          %[[RCP:.*]] = arith.divf %[[ONE]], %[[GSV]] : f32
// CHECK-NEXT:          %[[E0:.*]] = arith.mulf %[[P0]], %[[RCP]] : f32
// CHECK-NEXT:          %[[NE0:.*]] = arith.negf %[[E0]] : f32
// CHECK-NEXT:          %[[RES0:.*]] = llvm.intr.fma(%[[NE0]], %[[GSV]], %[[P0]]) : (f32, f32, f32) -> f32
// CHECK-NEXT:          %[[Q0:.*]] = llvm.intr.fma(%[[RES0]], %[[RCP]], %[[E0]]) : (f32, f32, f32) -> f32
// CHECK-NEXT:          %[[NQ0:.*]] = arith.negf %[[Q0]] : f32
// CHECK-NEXT:          llvm.intr.fma(%[[NQ0]], %[[GSV]], %[[P0]]) : (f32, f32, f32) -> f32
// CHECK:               %[[ODD0:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:               %[[R0:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT:            %[[SEL0:.*]] = arith.select %{{.*}}, %[[E0]], %[[ODD0]] : f32
// CHECK-NEXT:            scf.yield %[[SEL0]] : f32
// CHECK-NEXT:          } else {
// CHECK-NEXT:            %[[P0W:.*]] = arith.extf %[[P0]] : f32 to f64
// CHECK-NEXT:            %[[GSW:.*]] = arith.extf %[[GSV]] : f32 to f64
// CHECK-NEXT:            %[[Q0W:.*]] = arith.divf %[[P0W]], %[[GSW]] : f64
// CHECK-NEXT:            arith.truncf %[[Q0W]] : f64 to f32
// CHECK:               }
// CHECK-NEXT:          %[[T0:.*]] = arith.truncf %[[R0]] : f32 to bf16
// CHECK-NEXT:          memref.store %[[T0]], %[[Y]][%[[IL]], %[[IR]], %[[K]]] : memref<1x4x32xbf16>
// CHECK:               %[[K1:.*]] = arith.addi %[[K]], %c1{{(_[0-9]+)?}} : index
// CHECK-NEXT:          %[[P1:.*]] = arith.mulf %{{.*}}, %[[SC]] : f32
// CHECK:               arith.mulf %[[P1]], %{{.*}} : f32
// CHECK:               %[[R1:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK:               } else {
// CHECK:               }
// CHECK-NEXT:          %[[T1:.*]] = arith.truncf %[[R1]] : f32 to bf16
// CHECK-NEXT:          memref.store %[[T1]], %[[Y]][%[[IL]], %[[IR]], %[[K1]]] : memref<1x4x32xbf16>
// CHECK-NOT:     nvfp4.
// CHECK:         return
func.func @dequantize_gs(%q: memref<1x4x16xi8>, %s: memref<1x4x2xf8E4M3FN>,
                         %gs: memref<f32>, %y: memref<1x4x32xbf16>) {
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %y
      : memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>, memref<f32>
        into memref<1x4x32xbf16>
  return
}
