// MXFP4 block terms beyond the f32 range are evaluated as f32 does
// (docs/numerics.md section 10): with sfa = sfb = 2^127 every scale product
// is 2^254, infinite in f32. Row 0 has block terms +2^254 and -2^254: the
// float64 definition gives 0, f32 gives inf - inf = NaN. Row 1 has +2^254
// and a zero block (which adds 0): +inf. Row 2 has -2^254 alone: -inf.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

memref.global "private" constant @sfa_bits : memref<1x3x2xi8> =
    dense<[[[-2, -2], [-2, -2], [-2, -2]]]>
memref.global "private" constant @sfb_bits : memref<1x2xi8> = dense<[[-2, -2]]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i8
  %one = arith.constant 0x02 : i8   // (1, 0)
  %minus = arith.constant 0x0A : i8 // (-1, 0)
  %b22 = arith.constant 0x22 : i8   // (1, 1)
  %a = memref.alloc() : memref<1x3x32xi8>
  linalg.fill ins(%zero : i8) outs(%a : memref<1x3x32xi8>)
  memref.store %one, %a[%c0, %c0, %c0] : memref<1x3x32xi8>
  memref.store %minus, %a[%c0, %c0, %c16] : memref<1x3x32xi8>
  memref.store %one, %a[%c0, %c1, %c0] : memref<1x3x32xi8>
  memref.store %minus, %a[%c0, %c2, %c16] : memref<1x3x32xi8>
  %b = memref.alloc() : memref<1x32xi8>
  linalg.fill ins(%b22 : i8) outs(%b : memref<1x32xi8>)
  %sfa_i8 = memref.get_global @sfa_bits : memref<1x3x2xi8>
  %sfb_i8 = memref.get_global @sfb_bits : memref<1x2xi8>
  %sfa = memref.alloc() : memref<1x3x2xf8E8M0FNU>
  %sfb = memref.alloc() : memref<1x2xf8E8M0FNU>
  scf.for %m = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %v = memref.load %sfa_i8[%c0, %m, %j] : memref<1x3x2xi8>
      %f = arith.bitcast %v : i8 to f8E8M0FNU
      memref.store %f, %sfa[%c0, %m, %j] : memref<1x3x2xf8E8M0FNU>
    }
  }
  scf.for %j = %c0 to %c2 step %c1 {
    %v = memref.load %sfa_i8[%c0, %c2, %j] : memref<1x3x2xi8>
    %f = arith.bitcast %v : i8 to f8E8M0FNU
    memref.store %f, %sfa[%c0, %c2, %j] : memref<1x3x2xf8E8M0FNU>
    %w = memref.load %sfb_i8[%c0, %j] : memref<1x2xi8>
    %g = arith.bitcast %w : i8 to f8E8M0FNU
    memref.store %g, %sfb[%c0, %j] : memref<1x2xf8E8M0FNU>
  }
  %c = memref.alloc() : memref<1x3xf32>
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x3x32xi8>, memref<1x3x2xf8E8M0FNU>, memref<1x32xi8>,
        memref<1x2xf8E8M0FNU> into memref<1x3xf32>
  %u = memref.cast %c : memref<1x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: {{\[}}[{{-?nan}}, inf, -inf]]
  return
}
