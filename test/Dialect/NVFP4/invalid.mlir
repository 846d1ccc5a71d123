// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics

func.func @f(%a: memref<256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{a must have rank 3 ([L, M, K/2]), got rank 2}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x12xi8>, %sfa: memref<1x256x1xf8E4M3FN>, %b: memref<1x12xi8>, %sfb: memref<1x1xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{K = 24 (twice a dimension 2) is not a multiple of the nvfp4 block size 16}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x12xi8>, memref<1x256x1xf8E4M3FN>, memref<1x12xi8>, memref<1x1xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x24xi8>, %sfa: memref<1x256x1xf8E8M0FNU>, %b: memref<1x24xi8>, %sfb: memref<1x1xf8E8M0FNU>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{K = 48 (twice a dimension 2) is not a multiple of the mxfp4 block size 32}}
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x24xi8>, memref<1x256x1xf8E8M0FNU>, memref<1x24xi8>, memref<1x1xf8E8M0FNU> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E8M0FNU>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfa element type 'f8E8M0FNU' does not match format nvfp4, which needs 'f8E4M3FN'}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E8M0FNU>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x4xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x4xf8E8M0FNU>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfa element type 'f8E4M3FN' does not match format mxfp4, which needs 'f8E8M0FNU'}}
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x4xf8E4M3FN>, memref<1x64xi8>, memref<1x4xf8E8M0FNU> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x4xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfa dimension 2 is 4 but one scale per block with K = 128 needs 8}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x4xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x128x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfa dimension 1 is 128 but the linear layout with rows = 256 needs 256}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x128x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<2x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfa dimension 0 is 2 but the batch size L = 1 needs 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<2x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x1x2x512xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfa must have rank 4, got rank 3}}
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x1x2x512xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x1x2x512xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x1x2x512xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfa dimension 1 is 1 but the blocked128x4 layout with rows = 256 (128-row blocks) needs 2}}
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x1x2x512xf8E4M3FN>, memref<1x64xi8>, memref<1x1x2x512xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x2x4x512xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x1x2x512xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfa dimension 2 is 4 but the blocked128x4 layout with scale columns = 8 (4-column blocks) needs 2}}
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x2x4x512xf8E4M3FN>, memref<1x64xi8>, memref<1x1x2x512xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x2x2x256xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x1x2x512xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfa dimension 3 is 256 but one 128x4 atom needs 512}}
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x2x2x256xf8E4M3FN>, memref<1x64xi8>, memref<1x1x2x512xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x2x2x512xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x2x2x512xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfb dimension 1 is 2 but the blocked128x4 layout with rows = 1 (128-row blocks) needs 1}}
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x2x2x512xf8E4M3FN>, memref<1x64xi8>, memref<1x2x2x512xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x32xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{b dimension 1 is 32 but a with K = 128 needs 64}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x32xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<3x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{b dimension 0 is 3 but a with L = 1 needs 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<3x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E8M0FNU>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfb element type 'f8E8M0FNU' does not match format nvfp4, which needs 'f8E4M3FN'}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E8M0FNU> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x4xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfb dimension 1 is 4 but one scale per block with K = 128 needs 8}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x4xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfb must have rank 2, got rank 3}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x128xf16>) {
  // expected-error @+1 {{c dimension 1 is 128 but a with M = 256 needs 256}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x128xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<2x256xf16>) {
  // expected-error @+1 {{c dimension 0 is 2 but a with L = 1 needs 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<2x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<256xf16>) {
  // expected-error @+1 {{c must have rank 2, got rank 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xf16>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{operand #0 must be memref of 8-bit signless integer values}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xf16>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xi32>) {
  // expected-error @+1 {{operand #4 must be memref of 16-bit float or bfloat16 type or 32-bit float values}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xi32>
  return
}

// -----

func.func @f(%s: memref<1x256x16xf8E4M3FN>, %d: memref<1x2x4x512xf8E8M0FNU>) {
  // expected-error @+1 {{source element type 'f8E4M3FN' differs from dest element type 'f8E8M0FNU'}}
  nvfp4.convert_scale_layout %s, %d from <linear> to <blocked128x4> : memref<1x256x16xf8E4M3FN> to memref<1x2x4x512xf8E8M0FNU>
  return
}

// -----

func.func @f(%s: memref<1x256x16xf8E4M3FN>, %d: memref<1x256x16xf8E4M3FN>) {
  // expected-error @+1 {{dest in the blocked128x4 layout must have rank 4, got rank 3}}
  nvfp4.convert_scale_layout %s, %d from <linear> to <blocked128x4> : memref<1x256x16xf8E4M3FN> to memref<1x256x16xf8E4M3FN>
  return
}

// -----

func.func @f(%s: memref<1x2x4x512xf8E4M3FN>, %d: memref<1x256x16xf8E4M3FN>) {
  // expected-error @+1 {{source in the linear layout must have rank 3, got rank 4}}
  nvfp4.convert_scale_layout %s, %d from <linear> to <blocked128x4> : memref<1x2x4x512xf8E4M3FN> to memref<1x256x16xf8E4M3FN>
  return
}

// -----

func.func @f(%s: memref<1x256x16xf8E4M3FN>, %d: memref<1x256x8xf8E4M3FN>) {
  // expected-error @+1 {{dest dimension 2 is 8 but a conversion to the same layout needs 16}}
  nvfp4.convert_scale_layout %s, %d from <linear> to <linear> : memref<1x256x16xf8E4M3FN> to memref<1x256x8xf8E4M3FN>
  return
}

// -----

func.func @f(%s: memref<1x256x16xf8E4M3FN>, %d: memref<1x3x4x512xf8E4M3FN>) {
  // expected-error @+1 {{dest dimension 1 is 3 but the blocked128x4 layout with rows = 256 (128-row blocks) of the source needs 2}}
  nvfp4.convert_scale_layout %s, %d from <linear> to <blocked128x4> : memref<1x256x16xf8E4M3FN> to memref<1x3x4x512xf8E4M3FN>
  return
}

// -----

func.func @f(%s: memref<1x2x4x512xf8E4M3FN>, %d: memref<1x256x20xf8E4M3FN>) {
  // expected-error @+1 {{source dimension 2 is 4 but the blocked128x4 layout with scale columns = 20 (4-column blocks) of the dest needs 5}}
  nvfp4.convert_scale_layout %s, %d from <blocked128x4> to <linear> : memref<1x2x4x512xf8E4M3FN> to memref<1x256x20xf8E4M3FN>
  return
}

// -----

func.func @f(%x: memref<1x4x32xf32>, %q: memref<1x4x16xi8>, %s: memref<1x4x1xf8E8M0FNU>, %g: memref<f32>) {
  // expected-error @+1 {{global_scale (two-level scaling) needs format nvfp4, got mxfp4}}
  nvfp4.quantize <mxfp4> <linear> %x into %q, %s global_scale(%g) : memref<1x4x32xf32> into memref<1x4x16xi8>, memref<1x4x1xf8E8M0FNU>, memref<f32>
  return
}

// -----

func.func @f(%x: memref<4x32xf32>, %q: memref<1x4x16xi8>, %s: memref<1x4x2xf8E4M3FN>) {
  // expected-error @+1 {{input must have rank 3 ([L, rows, K]), got rank 2}}
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s : memref<4x32xf32> into memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>
  return
}

// -----

func.func @f(%x: memref<1x4x24xf32>, %q: memref<1x4x12xi8>, %s: memref<1x4x2xf8E4M3FN>) {
  // expected-error @+1 {{K = 24 (input dimension 2) is not a multiple of the nvfp4 block size 16}}
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s : memref<1x4x24xf32> into memref<1x4x12xi8>, memref<1x4x2xf8E4M3FN>
  return
}

// -----

func.func @f(%x: memref<1x4x32xf32>, %q: memref<1x4x32xi8>, %s: memref<1x4x2xf8E4M3FN>) {
  // expected-error @+1 {{data dimension 2 is 32 but two values a byte with K = 32 needs 16}}
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s : memref<1x4x32xf32> into memref<1x4x32xi8>, memref<1x4x2xf8E4M3FN>
  return
}

// -----

func.func @f(%x: memref<2x4x32xf32>, %q: memref<1x4x16xi8>, %s: memref<1x4x2xf8E4M3FN>) {
  // expected-error @+1 {{input dimension 0 is 2 but data with L = 1 needs 1}}
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s : memref<2x4x32xf32> into memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>
  return
}

// -----

func.func @f(%x: memref<1x4x32xf32>, %q: memref<1x4x16xi8>, %s: memref<1x4x2xf8E4M3FN>, %g: memref<1xf32>) {
  // expected-error @+1 {{operand #3 must be 0D memref of 32-bit float values}}
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s global_scale(%g) : memref<1x4x32xf32> into memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>, memref<1xf32>
  return
}

// -----

func.func @f(%q: memref<1x4x16xi8>, %s: memref<1x4x2xf8E4M3FN>, %y: memref<1x8x32xf32>) {
  // expected-error @+1 {{output dimension 1 is 8 but data with rows = 4 needs 4}}
  nvfp4.dequantize <nvfp4> <linear> %q, %s into %y : memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN> into memref<1x8x32xf32>
  return
}

// -----

func.func @f(%q: memref<1x4x16xi8>, %s: memref<1x4x1xf8E4M3FN>, %y: memref<1x4x32xf32>) {
  // expected-error @+1 {{scales element type 'f8E4M3FN' does not match format mxfp4, which needs 'f8E8M0FNU'}}
  nvfp4.dequantize <mxfp4> <linear> %q, %s into %y : memref<1x4x16xi8>, memref<1x4x1xf8E4M3FN> into memref<1x4x32xf32>
  return
}

// -----

func.func @f(%q: memref<1x4x16xi8>, %s: memref<1x1x2x512xf8E4M3FN>, %y: memref<1x4x32xf32>) {
  // expected-error @+1 {{scales dimension 2 is 2 but the blocked128x4 layout with scale columns = 2 (4-column blocks) needs 1}}
  nvfp4.dequantize <nvfp4> <blocked128x4> %q, %s into %y : memref<1x4x16xi8>, memref<1x1x2x512xf8E4M3FN> into memref<1x4x32xf32>
  return
}

// -----

// Empty operands: every size must be at least 1 (an empty batch once divided
// every GPU lowering by zero).
func.func @f(%a: memref<0x256x64xi8>, %sfa: memref<0x256x8xf8E4M3FN>, %b: memref<0x64xi8>, %sfb: memref<0x8xf8E4M3FN>, %c: memref<0x256xf16>) {
  // expected-error @+1 {{L = 0: every size must be at least 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<0x256x64xi8>, memref<0x256x8xf8E4M3FN>, memref<0x64xi8>, memref<0x8xf8E4M3FN> into memref<0x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x0x64xi8>, %sfa: memref<1x0x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x0xf16>) {
  // expected-error @+1 {{M = 0: every size must be at least 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x0x64xi8>, memref<1x0x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x0xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x0xi8>, %sfa: memref<1x256x0xf8E4M3FN>, %b: memref<1x0xi8>, %sfb: memref<1x0xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{K = 0: every size must be at least 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x0xi8>, memref<1x256x0xf8E4M3FN>, memref<1x0xi8>, memref<1x0xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%s: memref<0x130x6xf8E4M3FN>, %d: memref<0x2x2x512xf8E4M3FN>) {
  // expected-error @+1 {{source dimension 0 (L) is 0: every size must be at least 1}}
  nvfp4.convert_scale_layout %s, %d from <linear> to <blocked128x4> : memref<0x130x6xf8E4M3FN> to memref<0x2x2x512xf8E4M3FN>
  return
}

// -----

func.func @f(%s: memref<1x0x6xf8E4M3FN>, %d: memref<1x0x6xf8E4M3FN>) {
  // expected-error @+1 {{source dimension 1 (a scale matrix size) is 0: every size must be at least 1}}
  nvfp4.convert_scale_layout %s, %d from <linear> to <linear> : memref<1x0x6xf8E4M3FN> to memref<1x0x6xf8E4M3FN>
  return
}

// -----

func.func @f(%x: memref<1x4x0xf32>, %d: memref<1x4x0xi8>, %s: memref<1x4x0xf8E4M3FN>) {
  // expected-error @+1 {{K = 0: every size must be at least 1}}
  nvfp4.quantize <nvfp4> <linear> %x into %d, %s : memref<1x4x0xf32> into memref<1x4x0xi8>, memref<1x4x0xf8E4M3FN>
  return
}

// -----

// Operands are plain buffers: another layout or memory space has no
// lowering (the CPU pipeline once left casts behind and exited 0).
func.func @f(%a: memref<1x256x64xi8, strided<[16384, 64, 1], offset: ?>>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{operand #0 has layout strided<[16384, 64, 1], offset: ?>; nvfp4 ops take memrefs of the identity layout}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8, strided<[16384, 64, 1], offset: ?>>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16, 1>) {
  // expected-error @+1 {{operand #4 is in memory space 1 : i64; nvfp4 ops take memrefs of the default memory space}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16, 1>
  return
}

// -----

// A blocked-to-blocked copy still needs whole 128x4 atoms (found by the fuzz
// harness: the kernel's grid followed the memref, the runner the atoms).
func.func @blocked_copy_bad_atom(%src: memref<2x2x4x1000xf8E8M0FNU>,
                                 %dst: memref<2x2x4x1000xf8E8M0FNU>) {
  // expected-error @+1 {{source dimension 3 is 1000 but one 128x4 atom needs 512}}
  nvfp4.convert_scale_layout %src, %dst from <blocked128x4> to <blocked128x4>
      : memref<2x2x4x1000xf8E8M0FNU> to memref<2x2x4x1000xf8E8M0FNU>
  return
}
