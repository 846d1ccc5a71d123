// N-vector gemvs for the tcgen05 lowering: N = 2, 8, 9 and 16 (the MMA's N
// is 8 up to 8 vectors, 16 above) for NVFP4 and MXFP4, linear and blocked
// scales. Shapes with K tails and unaligned linear scale rows (NVFP4
// K = 80, MXFP4 K = 96), 8-byte copies (NVFP4 K = 80), M not a multiple of
// 128, two batches, and K = 1024 with tensor copies of a (and of blocked
// sfa); f16, bf16 and f32 output, alpha with N = 9. Used by vectors-ptxas.mlir
// and test/Tools/nvfp4-tcgen05-check/vectors.test.

func.func @nvfp4_linear_n2(%a: memref<2x200x40xi8>, %sfa: memref<2x200x5xf8E4M3FN>,
    %b: memref<2x2x40xi8>, %sfb: memref<2x2x5xf8E4M3FN>, %c: memref<2x2x200xbf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x200x40xi8>, memref<2x200x5xf8E4M3FN>, memref<2x2x40xi8>,
        memref<2x2x5xf8E4M3FN> into memref<2x2x200xbf16>
  return
}

func.func @nvfp4_linear_n8(%a: memref<2x130x512xi8>, %sfa: memref<2x130x64xf8E4M3FN>,
    %b: memref<2x8x512xi8>, %sfb: memref<2x8x64xf8E4M3FN>, %c: memref<2x8x130xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x130x512xi8>, memref<2x130x64xf8E4M3FN>, memref<2x8x512xi8>,
        memref<2x8x64xf8E4M3FN> into memref<2x8x130xf16>
  return
}

func.func @nvfp4_linear_n9(%a: memref<1x128x512xi8>, %sfa: memref<1x128x64xf8E4M3FN>,
    %b: memref<1x9x512xi8>, %sfb: memref<1x9x64xf8E4M3FN>, %c: memref<1x9x128xf32>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x128x512xi8>, memref<1x128x64xf8E4M3FN>, memref<1x9x512xi8>,
        memref<1x9x64xf8E4M3FN> into memref<1x9x128xf32>
  return
}

func.func @nvfp4_linear_n16(%a: memref<2x200x40xi8>, %sfa: memref<2x200x5xf8E4M3FN>,
    %b: memref<2x16x40xi8>, %sfb: memref<2x16x5xf8E4M3FN>, %c: memref<2x16x200xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x200x40xi8>, memref<2x200x5xf8E4M3FN>, memref<2x16x40xi8>,
        memref<2x16x5xf8E4M3FN> into memref<2x16x200xf16>
  return
}

func.func @nvfp4_blocked_n2(%a: memref<2x130x512xi8>, %sfa: memref<2x2x16x512xf8E4M3FN>,
    %b: memref<2x2x512xi8>, %sfb: memref<2x1x16x512xf8E4M3FN>, %c: memref<2x2x130xbf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x130x512xi8>, memref<2x2x16x512xf8E4M3FN>, memref<2x2x512xi8>,
        memref<2x1x16x512xf8E4M3FN> into memref<2x2x130xbf16>
  return
}

func.func @nvfp4_blocked_n8(%a: memref<1x128x512xi8>, %sfa: memref<1x1x16x512xf8E4M3FN>,
    %b: memref<1x8x512xi8>, %sfb: memref<1x1x16x512xf8E4M3FN>, %c: memref<1x8x128xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x128x512xi8>, memref<1x1x16x512xf8E4M3FN>, memref<1x8x512xi8>,
        memref<1x1x16x512xf8E4M3FN> into memref<1x8x128xf16>
  return
}

func.func @nvfp4_blocked_n9(%a: memref<2x200x40xi8>, %sfa: memref<2x2x2x512xf8E4M3FN>,
    %b: memref<2x9x40xi8>, %sfb: memref<2x1x2x512xf8E4M3FN>, %c: memref<2x9x200xf32>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x200x40xi8>, memref<2x2x2x512xf8E4M3FN>, memref<2x9x40xi8>,
        memref<2x1x2x512xf8E4M3FN> into memref<2x9x200xf32>
  return
}

func.func @nvfp4_blocked_n16(%a: memref<2x200x40xi8>, %sfa: memref<2x2x2x512xf8E4M3FN>,
    %b: memref<2x16x40xi8>, %sfb: memref<2x1x2x512xf8E4M3FN>, %c: memref<2x16x200xf16>) {
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x200x40xi8>, memref<2x2x2x512xf8E4M3FN>, memref<2x16x40xi8>,
        memref<2x1x2x512xf8E4M3FN> into memref<2x16x200xf16>
  return
}

func.func @mxfp4_linear_n2(%a: memref<2x200x48xi8>, %sfa: memref<2x200x3xf8E8M0FNU>,
    %b: memref<2x2x48xi8>, %sfb: memref<2x2x3xf8E8M0FNU>, %c: memref<2x2x200xbf16>) {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x200x48xi8>, memref<2x200x3xf8E8M0FNU>, memref<2x2x48xi8>,
        memref<2x2x3xf8E8M0FNU> into memref<2x2x200xbf16>
  return
}

func.func @mxfp4_linear_n8(%a: memref<2x130x512xi8>, %sfa: memref<2x130x32xf8E8M0FNU>,
    %b: memref<2x8x512xi8>, %sfb: memref<2x8x32xf8E8M0FNU>, %c: memref<2x8x130xf16>) {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x130x512xi8>, memref<2x130x32xf8E8M0FNU>, memref<2x8x512xi8>,
        memref<2x8x32xf8E8M0FNU> into memref<2x8x130xf16>
  return
}

func.func @mxfp4_linear_n9(%a: memref<1x128x512xi8>, %sfa: memref<1x128x32xf8E8M0FNU>,
    %b: memref<1x9x512xi8>, %sfb: memref<1x9x32xf8E8M0FNU>, %c: memref<1x9x128xf32>, %alpha: f32) {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x128x512xi8>, memref<1x128x32xf8E8M0FNU>, memref<1x9x512xi8>,
        memref<1x9x32xf8E8M0FNU> into memref<1x9x128xf32>
  return
}

func.func @mxfp4_linear_n16(%a: memref<2x200x48xi8>, %sfa: memref<2x200x3xf8E8M0FNU>,
    %b: memref<2x16x48xi8>, %sfb: memref<2x16x3xf8E8M0FNU>, %c: memref<2x16x200xf16>) {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x200x48xi8>, memref<2x200x3xf8E8M0FNU>, memref<2x16x48xi8>,
        memref<2x16x3xf8E8M0FNU> into memref<2x16x200xf16>
  return
}

func.func @mxfp4_blocked_n2(%a: memref<2x130x512xi8>, %sfa: memref<2x2x8x512xf8E8M0FNU>,
    %b: memref<2x2x512xi8>, %sfb: memref<2x1x8x512xf8E8M0FNU>, %c: memref<2x2x130xbf16>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x130x512xi8>, memref<2x2x8x512xf8E8M0FNU>, memref<2x2x512xi8>,
        memref<2x1x8x512xf8E8M0FNU> into memref<2x2x130xbf16>
  return
}

func.func @mxfp4_blocked_n8(%a: memref<1x128x512xi8>, %sfa: memref<1x1x8x512xf8E8M0FNU>,
    %b: memref<1x8x512xi8>, %sfb: memref<1x1x8x512xf8E8M0FNU>, %c: memref<1x8x128xf16>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<1x128x512xi8>, memref<1x1x8x512xf8E8M0FNU>, memref<1x8x512xi8>,
        memref<1x1x8x512xf8E8M0FNU> into memref<1x8x128xf16>
  return
}

func.func @mxfp4_blocked_n9(%a: memref<2x200x48xi8>, %sfa: memref<2x2x1x512xf8E8M0FNU>,
    %b: memref<2x9x48xi8>, %sfb: memref<2x1x1x512xf8E8M0FNU>, %c: memref<2x9x200xf32>, %alpha: f32) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x200x48xi8>, memref<2x2x1x512xf8E8M0FNU>, memref<2x9x48xi8>,
        memref<2x1x1x512xf8E8M0FNU> into memref<2x9x200xf32>
  return
}

func.func @mxfp4_blocked_n16(%a: memref<2x200x48xi8>, %sfa: memref<2x2x1x512xf8E8M0FNU>,
    %b: memref<2x16x48xi8>, %sfb: memref<2x1x1x512xf8E8M0FNU>, %c: memref<2x16x200xf16>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x200x48xi8>, memref<2x2x1x512xf8E8M0FNU>, memref<2x16x48xi8>,
        memref<2x1x1x512xf8E8M0FNU> into memref<2x16x200xf16>
  return
}
