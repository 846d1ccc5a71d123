// nvfp4.dequantize: value = e2m1(code) * scale / gs, rounded once to the
// output type. NVFP4 with a global scale into f32, f16 and bf16 (negative
// scale, 448, NaN scale, -0 codes); MXFP4 in the blocked layout, whose other
// scale bytes are NaN so that a wrong index shows.
// RUN: nvfp4-opt %s --nvfp4-cpu-pipeline | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}

// 2 rows x 32 values (two blocks of 16: bytes 0-7 and 8-15).
// 0x21 = (0.5, 1), 0xF7 = (6, -6), 0x53 = (1.5, 3), 0x08 = (-0, +0),
// 0x77 = (6, 6), 0x01 = (0.5, 0).
memref.global "private" constant @nv_data : memref<1x2x16xi8> = dense<[[
  [0x21, 0xF7, 0, 0, 0, 0, 0, 0, 0x53, 0x08, 0, 0, 0, 0, 0, 0],
  [0x77, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0]]]>
// Row 0: 1 (0x38), -0.5 (0xB0); row 1: 448 (0x7E), NaN (0x7F).
memref.global "private" constant @nv_scales : memref<1x2x2xf8E4M3FN> =
    dense<[[[0x38, 0xB0], [0x7E, 0x7F]]]>

// MXFP4, 2 rows x 32 values (one block). 0xF7 in byte 15 = (6, -6).
memref.global "private" constant @mx_data : memref<1x2x16xi8> = dense<[[
  [0x21, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xF7],
  [0x77, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %nan = arith.constant 0x7FC00000 : f32
  %nan16 = arith.constant 0x7E00 : f16
  %nanbf = arith.constant 0x7FC0 : bf16
  %q = memref.get_global @nv_data : memref<1x2x16xi8>
  %s = memref.get_global @nv_scales : memref<1x2x2xf8E4M3FN>
  %gs = memref.alloc() : memref<f32>
  %four = arith.constant 4.0 : f32
  memref.store %four, %gs[] : memref<f32>

  // gs = 4. Row 0, block 0 (scale 1): 0.5, 1, 6, -6 -> / 4 = 0.125, 0.25,
  // 1.5, -1.5, then +0. Block 1 (scale -0.5): 1.5, 3 -> -0.1875, -0.375;
  // -0 * -0.5 = +0; +0 * -0.5 = -0 (all further codes are +0, so -0).
  // Row 1, block 0 (448): 6 * 448 / 4 = 672 twice; block 1 (NaN): NaN.
  %y = memref.alloc() : memref<1x2x32xf32>
  linalg.fill ins(%nan : f32) outs(%y : memref<1x2x32xf32>)
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %y
      : memref<1x2x16xi8>, memref<1x2x2xf8E4M3FN>, memref<f32>
        into memref<1x2x32xf32>
  // CHECK:      {{\[}}{{\[}}[0.125, 0.25, 1.5, -1.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.1875, -0.375, 0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0],
  // CHECK-NEXT:  [672, 672, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan]]]
  %yu = memref.cast %y : memref<1x2x32xf32> to memref<*xf32>
  call @printMemrefF32(%yu) : (memref<*xf32>) -> ()

  // The same values are exact in f16 and bf16.
  %h = memref.alloc() : memref<1x2x32xf16>
  linalg.fill ins(%nan16 : f16) outs(%h : memref<1x2x32xf16>)
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %h
      : memref<1x2x16xi8>, memref<1x2x2xf8E4M3FN>, memref<f32>
        into memref<1x2x32xf16>
  // CHECK:      {{\[}}{{\[}}[0.125, 0.25, 1.5, -1.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.1875, -0.375, 0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0],
  // CHECK-NEXT:  [672, 672, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan]]]
  %hu = memref.cast %h : memref<1x2x32xf16> to memref<*xf16>
  call @printMemrefF16(%hu) : (memref<*xf16>) -> ()
  %bf = memref.alloc() : memref<1x2x32xbf16>
  linalg.fill ins(%nanbf : bf16) outs(%bf : memref<1x2x32xbf16>)
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %bf
      : memref<1x2x16xi8>, memref<1x2x2xf8E4M3FN>, memref<f32>
        into memref<1x2x32xbf16>
  // CHECK:      {{\[}}{{\[}}[0.125, 0.25, 1.5, -1.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.1875, -0.375, 0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0],
  // CHECK-NEXT:  [672, 672, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan]]]
  %bfu = memref.cast %bf : memref<1x2x32xbf16> to memref<*xbf16>
  call @printMemrefBF16(%bfu) : (memref<*xbf16>) -> ()

  // Without a global scale: row 0 block 0 is 0.5, 1, 6, -6.
  linalg.fill ins(%nan : f32) outs(%y : memref<1x2x32xf32>)
  nvfp4.dequantize <nvfp4> <linear> %q, %s into %y
      : memref<1x2x16xi8>, memref<1x2x2xf8E4M3FN> into memref<1x2x32xf32>
  // CHECK:      {{\[}}{{\[}}[0.5, 1, 6, -6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.75, -1.5, 0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0],
  // CHECK-NEXT:  [2688, 2688, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan]]]
  call @printMemrefF32(%yu) : (memref<*xf32>) -> ()

  // MXFP4, blocked: one 512-byte atom per batch; scale (r, 0) sits at byte
  // (r % 32) * 16 + (r / 32) * 4: row 0 at 0 (2, 0x80), row 1 at 16
  // (2^-3, 0x7C). Every other byte is NaN (0xFF).
  %mq = memref.get_global @mx_data : memref<1x2x16xi8>
  %ms = memref.alloc() : memref<1x1x1x512xf8E8M0FNU>
  %mnan = arith.constant 0xFF : f8E8M0FNU
  %two = arith.constant 0x80 : f8E8M0FNU
  %eighth = arith.constant 0x7C : f8E8M0FNU
  linalg.fill ins(%mnan : f8E8M0FNU) outs(%ms : memref<1x1x1x512xf8E8M0FNU>)
  memref.store %two, %ms[%c0, %c0, %c0, %c0] : memref<1x1x1x512xf8E8M0FNU>
  memref.store %eighth, %ms[%c0, %c0, %c0, %c16] : memref<1x1x1x512xf8E8M0FNU>
  %my = memref.alloc() : memref<1x2x32xf32>
  linalg.fill ins(%nan : f32) outs(%my : memref<1x2x32xf32>)
  nvfp4.dequantize <mxfp4> <blocked128x4> %mq, %ms into %my
      : memref<1x2x16xi8>, memref<1x1x1x512xf8E8M0FNU> into memref<1x2x32xf32>
  // Row 0: (0.5, 1) * 2 = 1, 2; last byte (6, -6) * 2 = 12, -12.
  // Row 1: (6, 6) * 2^-3 = 0.75, 0.75.
  // CHECK:      {{\[}}{{\[}}[1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12, -12],
  // CHECK-NEXT:  [0.75, 0.75, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]]
  %myu = memref.cast %my : memref<1x2x32xf32> to memref<*xf32>
  call @printMemrefF32(%myu) : (memref<*xf32>) -> ()

  memref.dealloc %gs : memref<f32>
  memref.dealloc %y : memref<1x2x32xf32>
  memref.dealloc %h : memref<1x2x32xf16>
  memref.dealloc %bf : memref<1x2x32xbf16>
  memref.dealloc %ms : memref<1x1x1x512xf8E8M0FNU>
  memref.dealloc %my : memref<1x2x32xf32>
  return
}
