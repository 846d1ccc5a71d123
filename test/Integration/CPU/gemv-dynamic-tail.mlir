// With dynamic shapes the verifier cannot check that K is a multiple of the
// block; the CPU lowering processes floor(K / 16) blocks and ignores the
// tail (docs/numerics.md section 10). Here K = 18 (9 bytes a row), every
// value and scale 1: one block of 16 counts, the last 2 values do not.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

func.func @gemv(%a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>,
                %b: memref<?x?xi8>, %sfb: memref<?x?xf8E4M3FN>,
                %c: memref<?x?xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>,
        memref<?x?xf8E4M3FN> into memref<?x?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %b22 = arith.constant 0x22 : i8 // (1, 1)
  %one_bits = arith.constant 0x38 : i8
  %one = arith.bitcast %one_bits : i8 to f8E4M3FN
  %a = memref.alloc() : memref<1x1x9xi8>
  linalg.fill ins(%b22 : i8) outs(%a : memref<1x1x9xi8>)
  %b = memref.alloc() : memref<1x9xi8>
  linalg.fill ins(%b22 : i8) outs(%b : memref<1x9xi8>)
  %sfa = memref.alloc() : memref<1x1x1xf8E4M3FN>
  memref.store %one, %sfa[%c0, %c0, %c0] : memref<1x1x1xf8E4M3FN>
  %sfb = memref.alloc() : memref<1x1xf8E4M3FN>
  memref.store %one, %sfb[%c0, %c0] : memref<1x1xf8E4M3FN>
  %c = memref.alloc() : memref<1x1xf32>
  %ad = memref.cast %a : memref<1x1x9xi8> to memref<?x?x?xi8>
  %sfad = memref.cast %sfa : memref<1x1x1xf8E4M3FN> to memref<?x?x?xf8E4M3FN>
  %bd = memref.cast %b : memref<1x9xi8> to memref<?x?xi8>
  %sfbd = memref.cast %sfb : memref<1x1xf8E4M3FN> to memref<?x?xf8E4M3FN>
  %cd = memref.cast %c : memref<1x1xf32> to memref<?x?xf32>
  call @gemv(%ad, %sfad, %bd, %sfbd, %cd)
      : (memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>,
         memref<?x?xf8E4M3FN>, memref<?x?xf32>) -> ()
  %u = memref.cast %c : memref<1x1xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // CHECK: {{\[}}[16]]
  return
}
