// nvfp4.convert_scale_layout on L = 2 batches of a 33 x 5 scale matrix:
// linear -> blocked128x4 places every scale at
//   ((r / 128) * (Cpad / 4) + c / 4) * 512 + (r % 32) * 16 + ((r % 128) / 32) * 4 + c % 4
// of its batch (Cpad = 8, so a batch is two 512-byte atoms) and writes every
// padding byte as zero, although the destination was poisoned with 0xFF;
// blocked -> linear gives the original back; same-layout conversions copy.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefI64(memref<*xi64>)

// Scale byte (l, r, c) = 1 + (165 l + 5 r + c) mod 120: never 0 or 0xFF.
func.func @fill(%m: memref<2x33x5xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c33 = arith.constant 33 : index
  %c120 = arith.constant 120 : index
  %c165 = arith.constant 165 : index
  scf.for %l = %c0 to %c2 step %c1 {
    scf.for %r = %c0 to %c33 step %c1 {
      scf.for %c = %c0 to %c5 step %c1 {
        %t0 = arith.muli %l, %c165 : index
        %t1 = arith.muli %r, %c5 : index
        %t2 = arith.addi %t0, %t1 : index
        %t3 = arith.addi %t2, %c : index
        %t4 = arith.remui %t3, %c120 : index
        %t5 = arith.addi %t4, %c1 : index
        %v = arith.index_cast %t5 : index to i8
        %f = arith.bitcast %v : i8 to f8E4M3FN
        memref.store %f, %m[%l, %r, %c] : memref<2x33x5xf8E4M3FN>
      }
    }
  }
  return
}

func.func @byte_at(%m: memref<2048xf8E4M3FN>, %i: index) -> i64 {
  %v = memref.load %m[%i] : memref<2048xf8E4M3FN>
  %b = arith.bitcast %v : f8E4M3FN to i8
  %w = arith.extui %b : i8 to i64
  return %w : i64
}

// Number of bytes of `m` equal to `value`.
func.func @count(%m: memref<2048xf8E4M3FN>, %value: i8) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2048 : index
  %z = arith.constant 0 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
    %v = memref.load %m[%i] : memref<2048xf8E4M3FN>
    %b = arith.bitcast %v : f8E4M3FN to i8
    %eq = arith.cmpi eq, %b, %value : i8
    %e = arith.extui %eq : i1 to i64
    %s = arith.addi %acc, %e : i64
    scf.yield %s : i64
  }
  return %r : i64
}

// Number of positions where the bytes of `x` and `y` differ.
func.func @diff(%x: memref<?xf8E4M3FN>, %y: memref<?xf8E4M3FN>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf8E4M3FN>
  %z = arith.constant 0 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
    %vx = memref.load %x[%i] : memref<?xf8E4M3FN>
    %vy = memref.load %y[%i] : memref<?xf8E4M3FN>
    %bx = arith.bitcast %vx : f8E4M3FN to i8
    %by = arith.bitcast %vy : f8E4M3FN to i8
    %ne = arith.cmpi ne, %bx, %by : i8
    %e = arith.extui %ne : i1 to i64
    %s = arith.addi %acc, %e : i64
    scf.yield %s : i64
  }
  return %r : i64
}

func.func @main() {
  %poison = arith.constant 0xFF : f8E4M3FN
  %lin = memref.alloc() : memref<2x33x5xf8E4M3FN>
  call @fill(%lin) : (memref<2x33x5xf8E4M3FN>) -> ()
  %blk = memref.alloc() : memref<2x1x2x512xf8E4M3FN>
  linalg.fill ins(%poison : f8E4M3FN) outs(%blk : memref<2x1x2x512xf8E4M3FN>)
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<2x33x5xf8E4M3FN> to memref<2x1x2x512xf8E4M3FN>
  %flat = memref.collapse_shape %blk [[0, 1, 2, 3]]
      : memref<2x1x2x512xf8E4M3FN> into memref<2048xf8E4M3FN>

  %out = memref.alloc() : memref<16xi64>
  // [flat offset, (l, r, c), expected byte 1 + (165 l + 5 r + c) mod 120]:
  //   0    (0, 0, 0)   1
  //   16   (0, 1, 0)   1 + 5 = 6
  //   499  (0, 31, 3)  31 * 16 + 3 = 499; 1 + 158 mod 120 = 39
  //   4    (0, 32, 0)  (32 / 32) * 4 = 4; 1 + 160 mod 120 = 41
  //   516  (0, 32, 4)  second atom: 512 + 4; 1 + 164 mod 120 = 45
  //   83   (0, 5, 3)   5 * 16 + 3 = 83; 1 + 28 = 29
  //   1024 (1, 0, 0)   batch 1 starts at 1024; 1 + 165 mod 120 = 46
  //   1540 (1, 32, 4)  1024 + 516; 1 + 329 mod 120 = 90
  // Padding (expected 0):
  //   513  (0, 0, 5)   column 5 >= 5
  //   20   (0, 33, 0)  row 33 >= 33: (33 % 32) * 16 + (33 / 32) * 4 = 20
  //   511  (0, 127, 3) 31 * 16 + 3 * 4 + 3 = 511
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c14 = arith.constant 14 : index
  %c15 = arith.constant 15 : index
  %o0 = arith.constant 0 : index
  %o1 = arith.constant 16 : index
  %o2 = arith.constant 499 : index
  %o3 = arith.constant 4 : index
  %o4 = arith.constant 516 : index
  %o5 = arith.constant 83 : index
  %o6 = arith.constant 1024 : index
  %o7 = arith.constant 1540 : index
  %o8 = arith.constant 513 : index
  %o9 = arith.constant 20 : index
  %o10 = arith.constant 511 : index
  %i2 = arith.constant 2 : index
  %i3 = arith.constant 3 : index
  %i4 = arith.constant 4 : index
  %i5 = arith.constant 5 : index
  %i6 = arith.constant 6 : index
  %i7 = arith.constant 7 : index
  %i8 = arith.constant 8 : index
  %i9 = arith.constant 9 : index
  %i10 = arith.constant 10 : index
  %v0 = call @byte_at(%flat, %o0) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v0, %out[%c0] : memref<16xi64>
  %v1 = call @byte_at(%flat, %o1) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v1, %out[%c1] : memref<16xi64>
  %v2 = call @byte_at(%flat, %o2) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v2, %out[%i2] : memref<16xi64>
  %v3 = call @byte_at(%flat, %o3) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v3, %out[%i3] : memref<16xi64>
  %v4 = call @byte_at(%flat, %o4) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v4, %out[%i4] : memref<16xi64>
  %v5 = call @byte_at(%flat, %o5) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v5, %out[%i5] : memref<16xi64>
  %v6 = call @byte_at(%flat, %o6) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v6, %out[%i6] : memref<16xi64>
  %v7 = call @byte_at(%flat, %o7) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v7, %out[%i7] : memref<16xi64>
  %v8 = call @byte_at(%flat, %o8) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v8, %out[%i8] : memref<16xi64>
  %v9 = call @byte_at(%flat, %o9) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v9, %out[%i9] : memref<16xi64>
  %v10 = call @byte_at(%flat, %o10) : (memref<2048xf8E4M3FN>, index) -> i64
  memref.store %v10, %out[%i10] : memref<16xi64>
  // Bytes equal to 0: 2048 - 2 * 33 * 5 = 1718 (every padding byte);
  // bytes still 0xFF: none.
  %zero8 = arith.constant 0 : i8
  %ff8 = arith.constant -1 : i8
  %zeros = call @count(%flat, %zero8) : (memref<2048xf8E4M3FN>, i8) -> i64
  memref.store %zeros, %out[%c11] : memref<16xi64>
  %ffs = call @count(%flat, %ff8) : (memref<2048xf8E4M3FN>, i8) -> i64
  memref.store %ffs, %out[%c12] : memref<16xi64>

  // blocked -> linear, into a poisoned buffer: the original bytes.
  %back = memref.alloc() : memref<2x33x5xf8E4M3FN>
  linalg.fill ins(%poison : f8E4M3FN) outs(%back : memref<2x33x5xf8E4M3FN>)
  nvfp4.convert_scale_layout %blk, %back from <blocked128x4> to <linear>
      : memref<2x1x2x512xf8E4M3FN> to memref<2x33x5xf8E4M3FN>
  %lin1 = memref.collapse_shape %lin [[0, 1, 2]] : memref<2x33x5xf8E4M3FN> into memref<330xf8E4M3FN>
  %back1 = memref.collapse_shape %back [[0, 1, 2]] : memref<2x33x5xf8E4M3FN> into memref<330xf8E4M3FN>
  %lin1d = memref.cast %lin1 : memref<330xf8E4M3FN> to memref<?xf8E4M3FN>
  %back1d = memref.cast %back1 : memref<330xf8E4M3FN> to memref<?xf8E4M3FN>
  %d0 = call @diff(%lin1d, %back1d) : (memref<?xf8E4M3FN>, memref<?xf8E4M3FN>) -> i64
  memref.store %d0, %out[%c13] : memref<16xi64>

  // Same layout: a copy, padding bytes included.
  %blk2 = memref.alloc() : memref<2x1x2x512xf8E4M3FN>
  linalg.fill ins(%poison : f8E4M3FN) outs(%blk2 : memref<2x1x2x512xf8E4M3FN>)
  nvfp4.convert_scale_layout %blk, %blk2 from <blocked128x4> to <blocked128x4>
      : memref<2x1x2x512xf8E4M3FN> to memref<2x1x2x512xf8E4M3FN>
  %flat2 = memref.collapse_shape %blk2 [[0, 1, 2, 3]]
      : memref<2x1x2x512xf8E4M3FN> into memref<2048xf8E4M3FN>
  %flatd = memref.cast %flat : memref<2048xf8E4M3FN> to memref<?xf8E4M3FN>
  %flat2d = memref.cast %flat2 : memref<2048xf8E4M3FN> to memref<?xf8E4M3FN>
  %d1 = call @diff(%flatd, %flat2d) : (memref<?xf8E4M3FN>, memref<?xf8E4M3FN>) -> i64
  memref.store %d1, %out[%c14] : memref<16xi64>
  %lin2 = memref.alloc() : memref<2x33x5xf8E4M3FN>
  linalg.fill ins(%poison : f8E4M3FN) outs(%lin2 : memref<2x33x5xf8E4M3FN>)
  nvfp4.convert_scale_layout %lin, %lin2 from <linear> to <linear>
      : memref<2x33x5xf8E4M3FN> to memref<2x33x5xf8E4M3FN>
  %lin21 = memref.collapse_shape %lin2 [[0, 1, 2]] : memref<2x33x5xf8E4M3FN> into memref<330xf8E4M3FN>
  %lin21d = memref.cast %lin21 : memref<330xf8E4M3FN> to memref<?xf8E4M3FN>
  %d2 = call @diff(%lin1d, %lin21d) : (memref<?xf8E4M3FN>, memref<?xf8E4M3FN>) -> i64
  memref.store %d2, %out[%c15] : memref<16xi64>

  // CHECK: [1, 6, 39, 41, 45, 29, 46, 90, 0, 0, 0, 1718, 0, 0, 0, 0]
  %u = memref.cast %out : memref<16xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  memref.dealloc %out : memref<16xi64>
  memref.dealloc %lin : memref<2x33x5xf8E4M3FN>
  memref.dealloc %blk : memref<2x1x2x512xf8E4M3FN>
  memref.dealloc %back : memref<2x33x5xf8E4M3FN>
  memref.dealloc %blk2 : memref<2x1x2x512xf8E4M3FN>
  memref.dealloc %lin2 : memref<2x33x5xf8E4M3FN>
  return
}
