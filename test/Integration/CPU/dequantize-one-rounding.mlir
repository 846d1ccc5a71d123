// Dequantization with a global scale rounds once, to the output type:
// code 3 (1.5) times the e4m3 scale 0x7A (320) is 480, and 480 / 0.45692527
// is 1050.4999... An f32 division first gives 1050.5, a tie that f16 then
// rounds to the even 1050; the correctly rounded f16 is 1051.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}

memref.global "private" constant @scale_bits : memref<1x1x1xi8> = dense<0x7A>

func.func @main() {
  %c0 = arith.constant 0 : index
  %codes = arith.constant 0xB3 : i8 // (1.5, -1.5)
  %q = memref.alloc() : memref<1x1x8xi8>
  linalg.fill ins(%codes : i8) outs(%q : memref<1x1x8xi8>)
  %bits = memref.get_global @scale_bits : memref<1x1x1xi8>
  %s = memref.alloc() : memref<1x1x1xf8E4M3FN>
  %v = memref.load %bits[%c0, %c0, %c0] : memref<1x1x1xi8>
  %f = arith.bitcast %v : i8 to f8E4M3FN
  memref.store %f, %s[%c0, %c0, %c0] : memref<1x1x1xf8E4M3FN>
  %gs = memref.alloc() : memref<f32>
  %g = arith.constant 0.45692527 : f32
  memref.store %g, %gs[] : memref<f32>

  %h = memref.alloc() : memref<1x1x16xf16>
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %h
      : memref<1x1x8xi8>, memref<1x1x1xf8E4M3FN>, memref<f32> into memref<1x1x16xf16>
  %hu = memref.cast %h : memref<1x1x16xf16> to memref<*xf16>
  call @printMemrefF16(%hu) : (memref<*xf16>) -> ()
  // CHECK: {{\[}}{{\[}}[1051, -1051, 1051, -1051,

  %bf = memref.alloc() : memref<1x1x16xbf16>
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %bf
      : memref<1x1x8xi8>, memref<1x1x1xf8E4M3FN>, memref<f32> into memref<1x1x16xbf16>
  %bu = memref.cast %bf : memref<1x1x16xbf16> to memref<*xbf16>
  call @printMemrefBF16(%bu) : (memref<*xbf16>) -> ()
  // CHECK: {{\[}}{{\[}}[1048, -1048, 1048, -1048,

  %y = memref.alloc() : memref<1x1x16xf32>
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %y
      : memref<1x1x8xi8>, memref<1x1x1xf8E4M3FN>, memref<f32> into memref<1x1x16xf32>
  %yu = memref.cast %y : memref<1x1x16xf32> to memref<*xf32>
  call @printMemrefF32(%yu) : (memref<*xf32>) -> ()
  // CHECK: {{\[}}{{\[}}[1050.5, -1050.5, 1050.5, -1050.5,
  return
}
