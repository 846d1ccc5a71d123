// Kernels of nvfp4-cpu-check: every CPU variant of the four nvfp4 operations,
// with dynamic shapes so that one compiled function serves every test shape.
// The build runs this file through `nvfp4-opt --nvfp4-cpu-pipeline`,
// `mlir-translate --mlir-to-llvmir` and llc, and links the object into the
// driver, which calls the `_mlir_ciface_` wrappers (llvm.emit_c_interface:
// every memref argument is passed as a pointer to its descriptor).
//
// Names: gemv_<format>_<layout>_<output>[_alpha],
// quantize_<format>[_2l]_<layout>[_<input>], dequantize_<format>[_gs]_<layout>_<output>,
// convert_<scale type>_<from>_to_<to>.

func.func @gemv_nvfp4_linear_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>, memref<?x?xf8E4M3FN> into memref<?x?xf16>
  return
}

func.func @gemv_nvfp4_linear_f16_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>, memref<?x?xf8E4M3FN> into memref<?x?xf16>
  return
}

func.func @gemv_nvfp4_linear_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E4M3FN>, %c: memref<?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>, memref<?x?xf8E4M3FN> into memref<?x?xbf16>
  return
}

func.func @gemv_nvfp4_linear_bf16_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E4M3FN>, %c: memref<?x?xbf16>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>, memref<?x?xf8E4M3FN> into memref<?x?xbf16>
  return
}

func.func @gemv_nvfp4_linear_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>, memref<?x?xf8E4M3FN> into memref<?x?xf32>
  return
}

func.func @gemv_nvfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>, memref<?x?xf8E4M3FN> into memref<?x?xf32>
  return
}

func.func @gemv_nvfp4_blocked_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E4M3FN>, %c: memref<?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>, memref<?x?xi8>, memref<?x?x?x512xf8E4M3FN> into memref<?x?xf16>
  return
}

func.func @gemv_nvfp4_blocked_f16_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E4M3FN>, %c: memref<?x?xf16>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>, memref<?x?xi8>, memref<?x?x?x512xf8E4M3FN> into memref<?x?xf16>
  return
}

func.func @gemv_nvfp4_blocked_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E4M3FN>, %c: memref<?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>, memref<?x?xi8>, memref<?x?x?x512xf8E4M3FN> into memref<?x?xbf16>
  return
}

func.func @gemv_nvfp4_blocked_bf16_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E4M3FN>, %c: memref<?x?xbf16>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>, memref<?x?xi8>, memref<?x?x?x512xf8E4M3FN> into memref<?x?xbf16>
  return
}

func.func @gemv_nvfp4_blocked_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E4M3FN>, %c: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>, memref<?x?xi8>, memref<?x?x?x512xf8E4M3FN> into memref<?x?xf32>
  return
}

func.func @gemv_nvfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E4M3FN>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E4M3FN>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>, memref<?x?xi8>, memref<?x?x?x512xf8E4M3FN> into memref<?x?xf32>
  return
}

func.func @gemv_mxfp4_linear_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E8M0FNU>, %c: memref<?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?xi8>, memref<?x?xf8E8M0FNU> into memref<?x?xf16>
  return
}

func.func @gemv_mxfp4_linear_f16_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E8M0FNU>, %c: memref<?x?xf16>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?xi8>, memref<?x?xf8E8M0FNU> into memref<?x?xf16>
  return
}

func.func @gemv_mxfp4_linear_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E8M0FNU>, %c: memref<?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?xi8>, memref<?x?xf8E8M0FNU> into memref<?x?xbf16>
  return
}

func.func @gemv_mxfp4_linear_bf16_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E8M0FNU>, %c: memref<?x?xbf16>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?xi8>, memref<?x?xf8E8M0FNU> into memref<?x?xbf16>
  return
}

func.func @gemv_mxfp4_linear_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E8M0FNU>, %c: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?xi8>, memref<?x?xf8E8M0FNU> into memref<?x?xf32>
  return
}

func.func @gemv_mxfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?xf8E8M0FNU>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?xi8>, memref<?x?xf8E8M0FNU> into memref<?x?xf32>
  return
}

func.func @gemv_mxfp4_blocked_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E8M0FNU>, %c: memref<?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU>, memref<?x?xi8>, memref<?x?x?x512xf8E8M0FNU> into memref<?x?xf16>
  return
}

func.func @gemv_mxfp4_blocked_f16_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E8M0FNU>, %c: memref<?x?xf16>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU>, memref<?x?xi8>, memref<?x?x?x512xf8E8M0FNU> into memref<?x?xf16>
  return
}

func.func @gemv_mxfp4_blocked_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E8M0FNU>, %c: memref<?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU>, memref<?x?xi8>, memref<?x?x?x512xf8E8M0FNU> into memref<?x?xbf16>
  return
}

func.func @gemv_mxfp4_blocked_bf16_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E8M0FNU>, %c: memref<?x?xbf16>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU>, memref<?x?xi8>, memref<?x?x?x512xf8E8M0FNU> into memref<?x?xbf16>
  return
}

func.func @gemv_mxfp4_blocked_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E8M0FNU>, %c: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU>, memref<?x?xi8>, memref<?x?x?x512xf8E8M0FNU> into memref<?x?xf32>
  return
}

func.func @gemv_mxfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x512xf8E8M0FNU>, %b: memref<?x?xi8>,
    %sfb: memref<?x?x?x512xf8E8M0FNU>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU>, memref<?x?xi8>, memref<?x?x?x512xf8E8M0FNU> into memref<?x?xf32>
  return
}

func.func @quantize_nvfp4_linear(
    %x: memref<?x?x?xf32>, %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s
      : memref<?x?x?xf32> into memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>
  return
}

func.func @quantize_nvfp4_blocked(
    %x: memref<?x?x?xf32>, %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  nvfp4.quantize <nvfp4> <blocked128x4> %x into %q, %s
      : memref<?x?x?xf32> into memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>
  return
}

func.func @quantize_nvfp4_2l_linear(
    %x: memref<?x?x?xf32>, %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E4M3FN>, %gs: memref<f32>)
    attributes {llvm.emit_c_interface} {
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s global_scale(%gs)
      : memref<?x?x?xf32> into memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<f32>
  return
}

func.func @quantize_nvfp4_2l_blocked(
    %x: memref<?x?x?xf32>, %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E4M3FN>, %gs: memref<f32>)
    attributes {llvm.emit_c_interface} {
  nvfp4.quantize <nvfp4> <blocked128x4> %x into %q, %s global_scale(%gs)
      : memref<?x?x?xf32> into memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>, memref<f32>
  return
}

func.func @quantize_mxfp4_linear(
    %x: memref<?x?x?xf32>, %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E8M0FNU>)
    attributes {llvm.emit_c_interface} {
  nvfp4.quantize <mxfp4> <linear> %x into %q, %s
      : memref<?x?x?xf32> into memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>
  return
}

func.func @quantize_mxfp4_blocked(
    %x: memref<?x?x?xf32>, %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E8M0FNU>)
    attributes {llvm.emit_c_interface} {
  nvfp4.quantize <mxfp4> <blocked128x4> %x into %q, %s
      : memref<?x?x?xf32> into memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU>
  return
}

func.func @quantize_nvfp4_2l_linear_f16(
    %x: memref<?x?x?xf16>, %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E4M3FN>, %gs: memref<f32>)
    attributes {llvm.emit_c_interface} {
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s global_scale(%gs)
      : memref<?x?x?xf16> into memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<f32>
  return
}

func.func @quantize_mxfp4_linear_bf16(
    %x: memref<?x?x?xbf16>, %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E8M0FNU>)
    attributes {llvm.emit_c_interface} {
  nvfp4.quantize <mxfp4> <linear> %x into %q, %s
      : memref<?x?x?xbf16> into memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>
  return
}

func.func @quantize_nvfp4_linear_bf16(
    %x: memref<?x?x?xbf16>, %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s
      : memref<?x?x?xbf16> into memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>
  return
}

func.func @dequantize_nvfp4_linear_f16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E4M3FN>, %y: memref<?x?x?xf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <linear> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN> into memref<?x?x?xf16>
  return
}

func.func @dequantize_nvfp4_linear_bf16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E4M3FN>, %y: memref<?x?x?xbf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <linear> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN> into memref<?x?x?xbf16>
  return
}

func.func @dequantize_nvfp4_linear_f32(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E4M3FN>, %y: memref<?x?x?xf32>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <linear> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN> into memref<?x?x?xf32>
  return
}

func.func @dequantize_nvfp4_blocked_f16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E4M3FN>, %y: memref<?x?x?xf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <blocked128x4> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN> into memref<?x?x?xf16>
  return
}

func.func @dequantize_nvfp4_blocked_bf16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E4M3FN>, %y: memref<?x?x?xbf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <blocked128x4> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN> into memref<?x?x?xbf16>
  return
}

func.func @dequantize_nvfp4_blocked_f32(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E4M3FN>, %y: memref<?x?x?xf32>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <blocked128x4> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN> into memref<?x?x?xf32>
  return
}

func.func @dequantize_nvfp4_gs_linear_f16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E4M3FN>, %gs: memref<f32>, %y: memref<?x?x?xf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %y
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<f32> into memref<?x?x?xf16>
  return
}

func.func @dequantize_nvfp4_gs_linear_bf16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E4M3FN>, %gs: memref<f32>, %y: memref<?x?x?xbf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %y
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<f32> into memref<?x?x?xbf16>
  return
}

func.func @dequantize_nvfp4_gs_linear_f32(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E4M3FN>, %gs: memref<f32>, %y: memref<?x?x?xf32>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %y
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<f32> into memref<?x?x?xf32>
  return
}

func.func @dequantize_nvfp4_gs_blocked_f16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E4M3FN>, %gs: memref<f32>, %y: memref<?x?x?xf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <blocked128x4> %q, %s global_scale(%gs) into %y
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>, memref<f32> into memref<?x?x?xf16>
  return
}

func.func @dequantize_nvfp4_gs_blocked_bf16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E4M3FN>, %gs: memref<f32>, %y: memref<?x?x?xbf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <blocked128x4> %q, %s global_scale(%gs) into %y
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>, memref<f32> into memref<?x?x?xbf16>
  return
}

func.func @dequantize_nvfp4_gs_blocked_f32(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E4M3FN>, %gs: memref<f32>, %y: memref<?x?x?xf32>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <nvfp4> <blocked128x4> %q, %s global_scale(%gs) into %y
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E4M3FN>, memref<f32> into memref<?x?x?xf32>
  return
}

func.func @dequantize_mxfp4_linear_f16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E8M0FNU>, %y: memref<?x?x?xf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <mxfp4> <linear> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU> into memref<?x?x?xf16>
  return
}

func.func @dequantize_mxfp4_linear_bf16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E8M0FNU>, %y: memref<?x?x?xbf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <mxfp4> <linear> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU> into memref<?x?x?xbf16>
  return
}

func.func @dequantize_mxfp4_linear_f32(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?xf8E8M0FNU>, %y: memref<?x?x?xf32>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <mxfp4> <linear> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU> into memref<?x?x?xf32>
  return
}

func.func @dequantize_mxfp4_blocked_f16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E8M0FNU>, %y: memref<?x?x?xf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <mxfp4> <blocked128x4> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU> into memref<?x?x?xf16>
  return
}

func.func @dequantize_mxfp4_blocked_bf16(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E8M0FNU>, %y: memref<?x?x?xbf16>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <mxfp4> <blocked128x4> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU> into memref<?x?x?xbf16>
  return
}

func.func @dequantize_mxfp4_blocked_f32(
    %q: memref<?x?x?xi8>, %s: memref<?x?x?x512xf8E8M0FNU>, %y: memref<?x?x?xf32>)
    attributes {llvm.emit_c_interface} {
  nvfp4.dequantize <mxfp4> <blocked128x4> %q, %s into %y
      : memref<?x?x?xi8>, memref<?x?x?x512xf8E8M0FNU> into memref<?x?x?xf32>
  return
}

func.func @convert_e4m3_linear_to_linear(%src: memref<?x?x?xf8E4M3FN>, %dst: memref<?x?x?xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  nvfp4.convert_scale_layout %src, %dst from <linear> to <linear> : memref<?x?x?xf8E4M3FN> to memref<?x?x?xf8E4M3FN>
  return
}

func.func @convert_e4m3_linear_to_blocked(%src: memref<?x?x?xf8E4M3FN>, %dst: memref<?x?x?x512xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  nvfp4.convert_scale_layout %src, %dst from <linear> to <blocked128x4> : memref<?x?x?xf8E4M3FN> to memref<?x?x?x512xf8E4M3FN>
  return
}

func.func @convert_e4m3_blocked_to_linear(%src: memref<?x?x?x512xf8E4M3FN>, %dst: memref<?x?x?xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  nvfp4.convert_scale_layout %src, %dst from <blocked128x4> to <linear> : memref<?x?x?x512xf8E4M3FN> to memref<?x?x?xf8E4M3FN>
  return
}

func.func @convert_e4m3_blocked_to_blocked(%src: memref<?x?x?x512xf8E4M3FN>, %dst: memref<?x?x?x512xf8E4M3FN>)
    attributes {llvm.emit_c_interface} {
  nvfp4.convert_scale_layout %src, %dst from <blocked128x4> to <blocked128x4> : memref<?x?x?x512xf8E4M3FN> to memref<?x?x?x512xf8E4M3FN>
  return
}

func.func @convert_e8m0_linear_to_linear(%src: memref<?x?x?xf8E8M0FNU>, %dst: memref<?x?x?xf8E8M0FNU>)
    attributes {llvm.emit_c_interface} {
  nvfp4.convert_scale_layout %src, %dst from <linear> to <linear> : memref<?x?x?xf8E8M0FNU> to memref<?x?x?xf8E8M0FNU>
  return
}

func.func @convert_e8m0_linear_to_blocked(%src: memref<?x?x?xf8E8M0FNU>, %dst: memref<?x?x?x512xf8E8M0FNU>)
    attributes {llvm.emit_c_interface} {
  nvfp4.convert_scale_layout %src, %dst from <linear> to <blocked128x4> : memref<?x?x?xf8E8M0FNU> to memref<?x?x?x512xf8E8M0FNU>
  return
}

func.func @convert_e8m0_blocked_to_linear(%src: memref<?x?x?x512xf8E8M0FNU>, %dst: memref<?x?x?xf8E8M0FNU>)
    attributes {llvm.emit_c_interface} {
  nvfp4.convert_scale_layout %src, %dst from <blocked128x4> to <linear> : memref<?x?x?x512xf8E8M0FNU> to memref<?x?x?xf8E8M0FNU>
  return
}

func.func @convert_e8m0_blocked_to_blocked(%src: memref<?x?x?x512xf8E8M0FNU>, %dst: memref<?x?x?x512xf8E8M0FNU>)
    attributes {llvm.emit_c_interface} {
  nvfp4.convert_scale_layout %src, %dst from <blocked128x4> to <blocked128x4> : memref<?x?x?x512xf8E8M0FNU> to memref<?x?x?x512xf8E8M0FNU>
  return
}
