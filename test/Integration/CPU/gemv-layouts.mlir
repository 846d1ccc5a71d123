// The blocked128x4 scale layout gives the same GEMV results as the linear
// one: scales are filled in the linear layout, converted inside the test
// with nvfp4.convert_scale_layout (into buffers poisoned with NaN bytes), and
// both GEMVs run on the same data. M = 130 is not a multiple of 128 and the
// scale column counts (K/16 = 6, K/32 = 3) are not multiples of 4, so both
// the row and the column padding of the atoms are exercised; L = 2 checks
// the batch stride of the blocked layout.
// Printed: [elements whose bits differ, elements that are finite and
// nonzero]; the second number shows that the comparison is not vacuous.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefI64(memref<*xi64>)

// a[l][m][j] = (37 l + 11 m + 7 j + m j) mod 256 (every code appears);
// b[l][j] = (53 l + 29 j + 3) mod 256.
func.func @fill_data(%a: memref<2x130x48xi8>, %b: memref<2x48xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c130 = arith.constant 130 : index
  %c48 = arith.constant 48 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  %c53 = arith.constant 53 : index
  scf.for %l = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c48 step %c1 {
      %t0 = arith.muli %l, %c53 : index
      %t1 = arith.muli %j, %c29 : index
      %t2 = arith.addi %t0, %t1 : index
      %t3 = arith.addi %t2, %c3 : index
      %v = arith.index_cast %t3 : index to i8
      memref.store %v, %b[%l, %j] : memref<2x48xi8>
      scf.for %m = %c0 to %c130 step %c1 {
        %u0 = arith.muli %l, %c37 : index
        %u1 = arith.muli %m, %c11 : index
        %u2 = arith.muli %j, %c7 : index
        %u3 = arith.muli %m, %j : index
        %u4 = arith.addi %u0, %u1 : index
        %u5 = arith.addi %u4, %u2 : index
        %u6 = arith.addi %u5, %u3 : index
        %w = arith.index_cast %u6 : index to i8
        memref.store %w, %a[%l, %m, %j] : memref<2x130x48xi8>
      }
    }
  }
  return
}

// Scale byte of (l, r, c): base + (3 l + 5 r + 7 c) mod span.
func.func @scale_byte(%l: index, %r: index, %c: index, %base: i8, %span: index) -> i8 {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %t0 = arith.muli %l, %c3 : index
  %t1 = arith.muli %r, %c5 : index
  %t2 = arith.muli %c, %c7 : index
  %t3 = arith.addi %t0, %t1 : index
  %t4 = arith.addi %t3, %t2 : index
  %t5 = arith.remui %t4, %span : index
  %t6 = arith.index_cast %t5 : index to i8
  %v = arith.addi %t6, %base : i8
  return %v : i8
}

// Counts differing bits and finite nonzero results, prints both.
func.func @compare(%x: memref<2x130xf32>, %y: memref<2x130xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c130 = arith.constant 130 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %zi = arith.constant 0 : i32
  %absmask = arith.constant 0x7FFFFFFF : i32
  %infbits = arith.constant 0x7F800000 : i32
  %r:2 = scf.for %l = %c0 to %c2 step %c1 iter_args(%d0 = %z, %f0 = %z) -> (i64, i64) {
    %s:2 = scf.for %m = %c0 to %c130 step %c1 iter_args(%d = %d0, %f = %f0) -> (i64, i64) {
      %vx = memref.load %x[%l, %m] : memref<2x130xf32>
      %vy = memref.load %y[%l, %m] : memref<2x130xf32>
      %bx = arith.bitcast %vx : f32 to i32
      %by = arith.bitcast %vy : f32 to i32
      %ne = arith.cmpi ne, %bx, %by : i32
      %nei = arith.extui %ne : i1 to i64
      %d1 = arith.addi %d, %nei : i64
      // Finite and nonzero: 0 < |x| bits < 0x7F800000.
      %ax = arith.andi %bx, %absmask : i32
      %lt = arith.cmpi ult, %ax, %infbits : i32
      %nz = arith.cmpi ne, %ax, %zi : i32
      %ok = arith.andi %lt, %nz : i1
      %oki = arith.extui %ok : i1 to i64
      %f1 = arith.addi %f, %oki : i64
      scf.yield %d1, %f1 : i64, i64
    }
    scf.yield %s#0, %s#1 : i64, i64
  }
  %out = memref.alloc() : memref<2xi64>
  memref.store %r#0, %out[%c0] : memref<2xi64>
  memref.store %r#1, %out[%c1] : memref<2xi64>
  %u = memref.cast %out : memref<2xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  memref.dealloc %out : memref<2xi64>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %c130 = arith.constant 130 : index
  %nan = arith.constant 0x7FC00000 : f32
  %a = memref.alloc() : memref<2x130x48xi8>
  %b = memref.alloc() : memref<2x48xi8>
  call @fill_data(%a, %b) : (memref<2x130x48xi8>, memref<2x48xi8>) -> ()
  %c_lin = memref.alloc() : memref<2x130xf32>
  %c_blk = memref.alloc() : memref<2x130xf32>

  // ---- NVFP4: K = 96, 6 scale columns; e4m3 bytes 0x20 .. 0x4F
  // (2^-3 .. 15), sfb bytes 0x28 .. 0x3F. ----
  %nsfa = memref.alloc() : memref<2x130x6xf8E4M3FN>
  %nsfb = memref.alloc() : memref<2x1x6xf8E4M3FN>
  %base_a = arith.constant 0x20 : i8
  %base_b = arith.constant 0x28 : i8
  scf.for %l = %c0 to %c2 step %c1 {
    scf.for %k = %c0 to %c6 step %c1 {
      %vb = func.call @scale_byte(%l, %c0, %k, %base_b, %c16) : (index, index, index, i8, index) -> i8
      %fb = arith.bitcast %vb : i8 to f8E4M3FN
      memref.store %fb, %nsfb[%l, %c0, %k] : memref<2x1x6xf8E4M3FN>
      scf.for %r = %c0 to %c130 step %c1 {
        %va = func.call @scale_byte(%l, %r, %k, %base_a, %c48) : (index, index, index, i8, index) -> i8
        %fa = arith.bitcast %va : i8 to f8E4M3FN
        memref.store %fa, %nsfa[%l, %r, %k] : memref<2x130x6xf8E4M3FN>
      }
    }
  }
  %nan8 = arith.constant 0x7F : f8E4M3FN
  %nsfa_blk = memref.alloc() : memref<2x2x2x512xf8E4M3FN>
  %nsfb_blk = memref.alloc() : memref<2x1x2x512xf8E4M3FN>
  linalg.fill ins(%nan8 : f8E4M3FN) outs(%nsfa_blk : memref<2x2x2x512xf8E4M3FN>)
  linalg.fill ins(%nan8 : f8E4M3FN) outs(%nsfb_blk : memref<2x1x2x512xf8E4M3FN>)
  nvfp4.convert_scale_layout %nsfa, %nsfa_blk from <linear> to <blocked128x4>
      : memref<2x130x6xf8E4M3FN> to memref<2x2x2x512xf8E4M3FN>
  nvfp4.convert_scale_layout %nsfb, %nsfb_blk from <linear> to <blocked128x4>
      : memref<2x1x6xf8E4M3FN> to memref<2x1x2x512xf8E4M3FN>
  %nsfb2 = memref.collapse_shape %nsfb [[0], [1, 2]]
      : memref<2x1x6xf8E4M3FN> into memref<2x6xf8E4M3FN>

  linalg.fill ins(%nan : f32) outs(%c_lin : memref<2x130xf32>)
  linalg.fill ins(%nan : f32) outs(%c_blk : memref<2x130xf32>)
  nvfp4.gemv <nvfp4> <linear> %a, %nsfa, %b, %nsfb2 into %c_lin
      : memref<2x130x48xi8>, memref<2x130x6xf8E4M3FN>, memref<2x48xi8>,
        memref<2x6xf8E4M3FN> into memref<2x130xf32>
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %nsfa_blk, %b, %nsfb_blk into %c_blk
      : memref<2x130x48xi8>, memref<2x2x2x512xf8E4M3FN>, memref<2x48xi8>,
        memref<2x1x2x512xf8E4M3FN> into memref<2x130xf32>
  // CHECK: [0, 260]
  call @compare(%c_lin, %c_blk) : (memref<2x130xf32>, memref<2x130xf32>) -> ()

  // ---- MXFP4: K = 96, 3 scale columns; ue8m0 bytes 120 .. 135
  // (2^-7 .. 2^8), sfb bytes 124 .. 131. ----
  %msfa = memref.alloc() : memref<2x130x3xf8E8M0FNU>
  %msfb = memref.alloc() : memref<2x1x3xf8E8M0FNU>
  %mbase_a = arith.constant 120 : i8
  %mbase_b = arith.constant 124 : i8
  %c8 = arith.constant 8 : index
  scf.for %l = %c0 to %c2 step %c1 {
    scf.for %k = %c0 to %c3 step %c1 {
      %vb = func.call @scale_byte(%l, %c0, %k, %mbase_b, %c8) : (index, index, index, i8, index) -> i8
      %fb = arith.bitcast %vb : i8 to f8E8M0FNU
      memref.store %fb, %msfb[%l, %c0, %k] : memref<2x1x3xf8E8M0FNU>
      scf.for %r = %c0 to %c130 step %c1 {
        %va = func.call @scale_byte(%l, %r, %k, %mbase_a, %c16) : (index, index, index, i8, index) -> i8
        %fa = arith.bitcast %va : i8 to f8E8M0FNU
        memref.store %fa, %msfa[%l, %r, %k] : memref<2x130x3xf8E8M0FNU>
      }
    }
  }
  %mnan8 = arith.constant 0xFF : f8E8M0FNU
  %msfa_blk = memref.alloc() : memref<2x2x1x512xf8E8M0FNU>
  %msfb_blk = memref.alloc() : memref<2x1x1x512xf8E8M0FNU>
  linalg.fill ins(%mnan8 : f8E8M0FNU) outs(%msfa_blk : memref<2x2x1x512xf8E8M0FNU>)
  linalg.fill ins(%mnan8 : f8E8M0FNU) outs(%msfb_blk : memref<2x1x1x512xf8E8M0FNU>)
  nvfp4.convert_scale_layout %msfa, %msfa_blk from <linear> to <blocked128x4>
      : memref<2x130x3xf8E8M0FNU> to memref<2x2x1x512xf8E8M0FNU>
  nvfp4.convert_scale_layout %msfb, %msfb_blk from <linear> to <blocked128x4>
      : memref<2x1x3xf8E8M0FNU> to memref<2x1x1x512xf8E8M0FNU>
  %msfb2 = memref.collapse_shape %msfb [[0], [1, 2]]
      : memref<2x1x3xf8E8M0FNU> into memref<2x3xf8E8M0FNU>

  linalg.fill ins(%nan : f32) outs(%c_lin : memref<2x130xf32>)
  linalg.fill ins(%nan : f32) outs(%c_blk : memref<2x130xf32>)
  nvfp4.gemv <mxfp4> <linear> %a, %msfa, %b, %msfb2 into %c_lin
      : memref<2x130x48xi8>, memref<2x130x3xf8E8M0FNU>, memref<2x48xi8>,
        memref<2x3xf8E8M0FNU> into memref<2x130xf32>
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %msfa_blk, %b, %msfb_blk into %c_blk
      : memref<2x130x48xi8>, memref<2x2x1x512xf8E8M0FNU>, memref<2x48xi8>,
        memref<2x1x1x512xf8E8M0FNU> into memref<2x130xf32>
  // CHECK: [0, 260]
  call @compare(%c_lin, %c_blk) : (memref<2x130xf32>, memref<2x130xf32>) -> ()

  memref.dealloc %a : memref<2x130x48xi8>
  memref.dealloc %b : memref<2x48xi8>
  memref.dealloc %c_lin : memref<2x130xf32>
  memref.dealloc %c_blk : memref<2x130xf32>
  memref.dealloc %nsfa : memref<2x130x6xf8E4M3FN>
  memref.dealloc %nsfb : memref<2x1x6xf8E4M3FN>
  memref.dealloc %nsfa_blk : memref<2x2x2x512xf8E4M3FN>
  memref.dealloc %nsfb_blk : memref<2x1x2x512xf8E4M3FN>
  memref.dealloc %msfa : memref<2x130x3xf8E8M0FNU>
  memref.dealloc %msfb : memref<2x1x3xf8E8M0FNU>
  memref.dealloc %msfa_blk : memref<2x2x1x512xf8E8M0FNU>
  memref.dealloc %msfb_blk : memref<2x1x1x512xf8E8M0FNU>
  return
}
