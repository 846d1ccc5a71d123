// Kernels of nvfp4-cpu-check for nvfp4.gemv with tiled_codes, compiled like
// Kernels.mlir. Static shapes (tiled codes need them): 48 x 256 x 2, three
// tiles of two steps, in every vector form and both formats and layouts.
// The IR writer's output for the specs
//   48x256x2:nvfp4:linear:f32:n3:tiled 48x256x2:mxfp4:blocked128x4:f32:n3:tiled
//   48x256x2:nvfp4:blocked128x4:f16:noalpha:tiled
//   48x256x2:mxfp4:linear:f32:n2:vbf16:tiled
// with the C interface attribute added.

func.func @gemv_48x256x2_nvfp4_linear_f32_n3_tiled(%a: memref<2x48x128xi8>, %sfa: memref<2x48x16xf8E4M3FN>, %b: memref<2x3x128xi8>, %sfb: memref<2x3x16xf8E4M3FN>, %c: memref<2x3x48xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <linear> tiled_codes %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x48x128xi8>, memref<2x48x16xf8E4M3FN>, memref<2x3x128xi8>, memref<2x3x16xf8E4M3FN> into memref<2x3x48xf32>
  return
}

func.func @gemv_48x256x2_mxfp4_blocked128x4_f32_n3_tiled(%a: memref<2x48x128xi8>, %sfa: memref<2x1x2x512xf8E8M0FNU>, %b: memref<2x3x128xi8>, %sfb: memref<2x1x2x512xf8E8M0FNU>, %c: memref<2x3x48xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <blocked128x4> tiled_codes %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x48x128xi8>, memref<2x1x2x512xf8E8M0FNU>, memref<2x3x128xi8>, memref<2x1x2x512xf8E8M0FNU> into memref<2x3x48xf32>
  return
}

func.func @gemv_48x256x2_nvfp4_blocked128x4_f16_noalpha_tiled(%a: memref<2x48x128xi8>, %sfa: memref<2x1x4x512xf8E4M3FN>, %b: memref<2x128xi8>, %sfb: memref<2x1x4x512xf8E4M3FN>, %c: memref<2x48xf16>) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <nvfp4> <blocked128x4> tiled_codes %a, %sfa, %b, %sfb into %c
      : memref<2x48x128xi8>, memref<2x1x4x512xf8E4M3FN>, memref<2x128xi8>, memref<2x1x4x512xf8E4M3FN> into memref<2x48xf16>
  return
}

func.func @gemv_48x256x2_mxfp4_linear_f32_n2_vbf16_tiled(%a: memref<2x48x128xi8>, %sfa: memref<2x48x8xf8E8M0FNU>, %b: memref<2x2x256xbf16>, %c: memref<2x2x48xf32>, %alpha: f32) attributes {llvm.emit_c_interface} {
  nvfp4.gemv <mxfp4> <linear> tiled_codes %a, %sfa, %b into %c alpha(%alpha)
      : memref<2x48x128xi8>, memref<2x48x8xf8E8M0FNU>, memref<2x2x256xbf16> into memref<2x2x48xf32>
  return
}
