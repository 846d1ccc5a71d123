// Kernels of nvfp4-cpu-check for the N-vector and 16-bit forms of
// nvfp4.gemv, compiled like Kernels.mlir (dynamic shapes, C interfaces).
//
// Names: gemv_vec_<b>_<format>_<layout>_<output>[_alpha] take b [L, N, ...]
// and c [L, N, M]; gemv_one_<b>_<format>_<layout>_f32_alpha take one 16-bit
// vector, b [L, K] and c [L, M]. <b> is e2m1 (with sfb), f16 or bf16.

func.func @gemv_vec_e2m1_nvfp4_linear_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?xf8E4M3FN>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_e2m1_nvfp4_linear_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?xf8E4M3FN>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_e2m1_nvfp4_linear_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?xf8E4M3FN>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_e2m1_nvfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?xf8E4M3FN>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_e2m1_nvfp4_blocked_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?x?xf8E4M3FN>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_e2m1_nvfp4_blocked_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?x?xf8E4M3FN>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_e2m1_nvfp4_blocked_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?x?xf8E4M3FN>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_e2m1_nvfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?x?xf8E4M3FN>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_e2m1_mxfp4_linear_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?xf8E8M0FNU>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_e2m1_mxfp4_linear_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?xf8E8M0FNU>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_e2m1_mxfp4_linear_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?xf8E8M0FNU>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_e2m1_mxfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?xf8E8M0FNU>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_e2m1_mxfp4_blocked_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?x?xf8E8M0FNU>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_e2m1_mxfp4_blocked_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?x?xf8E8M0FNU>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_e2m1_mxfp4_blocked_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?x?xf8E8M0FNU>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_e2m1_mxfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xi8>, %sfb: memref<?x?x?x?xf8E8M0FNU>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_f16_nvfp4_linear_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xf16> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_f16_nvfp4_linear_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xf16> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_f16_nvfp4_linear_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_f16_nvfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_f16_nvfp4_blocked_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xf16> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_f16_nvfp4_blocked_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xf16> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_f16_nvfp4_blocked_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_f16_nvfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_f16_mxfp4_linear_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xf16> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_f16_mxfp4_linear_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xf16> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_f16_mxfp4_linear_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_f16_mxfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_f16_mxfp4_blocked_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xf16> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_f16_mxfp4_blocked_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xf16> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_f16_mxfp4_blocked_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_f16_mxfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_bf16_nvfp4_linear_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xbf16> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_bf16_nvfp4_linear_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xbf16> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_bf16_nvfp4_linear_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xbf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_bf16_nvfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?x?xbf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_bf16_nvfp4_blocked_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xbf16> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_bf16_nvfp4_blocked_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xbf16> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_bf16_nvfp4_blocked_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xbf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_bf16_nvfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?x?xbf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_bf16_mxfp4_linear_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xbf16> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_bf16_mxfp4_linear_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xbf16> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_bf16_mxfp4_linear_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xbf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_bf16_mxfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?x?xbf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_bf16_mxfp4_blocked_f16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xbf16> into memref<?x?x?xf16>
  return
}

func.func @gemv_vec_bf16_mxfp4_blocked_bf16(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xbf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xbf16> into memref<?x?x?xbf16>
  return
}

func.func @gemv_vec_bf16_mxfp4_blocked_f32(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf32>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xbf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_vec_bf16_mxfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?x?xbf16> into memref<?x?x?xf32>
  return
}

func.func @gemv_one_f16_nvfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xf16> into memref<?x?xf32>
  return
}

func.func @gemv_one_f16_nvfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?xf16> into memref<?x?xf32>
  return
}

func.func @gemv_one_f16_mxfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?xf16> into memref<?x?xf32>
  return
}

func.func @gemv_one_f16_mxfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?xf16> into memref<?x?xf32>
  return
}

func.func @gemv_one_bf16_nvfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xbf16> into memref<?x?xf32>
  return
}

func.func @gemv_one_bf16_nvfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E4M3FN>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E4M3FN>, memref<?x?xbf16> into memref<?x?xf32>
  return
}

func.func @gemv_one_bf16_mxfp4_linear_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E8M0FNU>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?xf8E8M0FNU>, memref<?x?xbf16> into memref<?x?xf32>
  return
}

func.func @gemv_one_bf16_mxfp4_blocked_f32_alpha(
    %a: memref<?x?x?xi8>, %sfa: memref<?x?x?x?xf8E8M0FNU>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c alpha(%alpha)
      : memref<?x?x?xi8>, memref<?x?x?x?xf8E8M0FNU>, memref<?x?xbf16> into memref<?x?xf32>
  return
}
