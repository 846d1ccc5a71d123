// One-vector gemvs whose kernels one-vector-kernels.test pins (written by
// scripts/nvfp4_ir.py with the shapes named in each function).

func.func @gemv_256x7168x1_nvfp4_linear_f16(%a: memref<1x256x3584xi8>, %sfa: memref<1x256x448xf8E4M3FN>, %b: memref<1x3584xi8>, %sfb: memref<1x448xf8E4M3FN>, %c: memref<1x256xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x256x3584xi8>, memref<1x256x448xf8E4M3FN>, memref<1x3584xi8>, memref<1x448xf8E4M3FN> into memref<1x256xf16>
  return
}

func.func @gemv_130x1056x2_mxfp4_blocked128x4_bf16(%a: memref<2x130x528xi8>, %sfa: memref<2x2x9x512xf8E8M0FNU>, %b: memref<2x528xi8>, %sfb: memref<2x1x9x512xf8E8M0FNU>, %c: memref<2x130xbf16>, %alpha: f32) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x130x528xi8>, memref<2x2x9x512xf8E8M0FNU>, memref<2x528xi8>, memref<2x1x9x512xf8E8M0FNU> into memref<2x130xbf16>
  return
}

func.func @gemv_7168x2048x4_nvfp4_blocked128x4_f32(%a: memref<4x7168x1024xi8>, %sfa: memref<4x56x32x512xf8E4M3FN>, %b: memref<4x1024xi8>, %sfb: memref<4x1x32x512xf8E4M3FN>, %c: memref<4x7168xf32>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<4x7168x1024xi8>, memref<4x56x32x512xf8E4M3FN>, memref<4x1024xi8>, memref<4x1x32x512xf8E4M3FN> into memref<4x7168xf32>
  return
}

func.func @gemv_200x80x2_nvfp4_linear_bf16(%a: memref<2x200x40xi8>, %sfa: memref<2x200x5xf8E4M3FN>, %b: memref<2x40xi8>, %sfb: memref<2x5xf8E4M3FN>, %c: memref<2x200xbf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x200x40xi8>, memref<2x200x5xf8E4M3FN>, memref<2x40xi8>, memref<2x5xf8E4M3FN> into memref<2x200xbf16>
  return
}

func.func @gemv_4096x7168x2_mxfp4_linear_f16(%a: memref<2x4096x3584xi8>, %sfa: memref<2x4096x224xf8E8M0FNU>, %b: memref<2x3584xi8>, %sfb: memref<2x224xf8E8M0FNU>, %c: memref<2x4096xf16>, %alpha: f32) {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x4096x3584xi8>, memref<2x4096x224xf8E8M0FNU>, memref<2x3584xi8>, memref<2x224xf8E8M0FNU> into memref<2x4096xf16>
  return
}
