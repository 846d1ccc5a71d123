// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics

// Every inconsistent shape, type and scale combination of the N-vector and
// 16-bit forms of nvfp4.gemv is a located error.

// b of rank 1
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{b must have rank 2 ([L, K/2], one vector) or 3 ([L, N, K/2], N vectors), got rank 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

// 16-bit b of rank 4
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x1x2x128xf16>, %c: memref<1x2x256xf16>) {
  // expected-error @+1 {{b must have rank 2 ([L, K], one vector) or 3 ([L, N, K], N vectors), got rank 4}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x1x2x128xf16> into memref<1x2x256xf16>
  return
}

// -----

// 17 vectors
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x17x64xi8>, %sfb: memref<1x17x8xf8E4M3FN>, %c: memref<1x17x256xf16>) {
  // expected-error @+1 {{N = 17 (b dimension 1): a gemv takes 1 to 16 vectors}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x17x64xi8>, memref<1x17x8xf8E4M3FN> into memref<1x17x256xf16>
  return
}

// -----

// no vector
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x0x64xi8>, %sfb: memref<1x0x8xf8E4M3FN>, %c: memref<1x0x256xf16>) {
  // expected-error @+1 {{N = 0 (b dimension 1): a gemv takes 1 to 16 vectors}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x0x64xi8>, memref<1x0x8xf8E4M3FN> into memref<1x0x256xf16>
  return
}

// -----

// 17 vectors of bf16
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x4xf8E8M0FNU>, %b: memref<1x17x128xbf16>, %c: memref<1x17x256xf32>) {
  // expected-error @+1 {{N = 17 (b dimension 1): a gemv takes 1 to 16 vectors}}
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x4xf8E8M0FNU>, memref<1x17x128xbf16> into memref<1x17x256xf32>
  return
}

// -----

// packed vectors of the wrong length
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x32xi8>, %sfb: memref<1x4x8xf8E4M3FN>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{b dimension 2 is 32 but a with K = 128 needs 64}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x32xi8>, memref<1x4x8xf8E4M3FN> into memref<1x4x256xf16>
  return
}

// -----

// packed vectors of another batch
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<2x4x64xi8>, %sfb: memref<2x4x8xf8E4M3FN>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{b dimension 0 is 2 but a with L = 1 needs 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<2x4x64xi8>, memref<2x4x8xf8E4M3FN> into memref<1x4x256xf16>
  return
}

// -----

// f16 vectors of K/2 values (bytes, not values)
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x64xf16>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{b dimension 2 is 64 but a with K = 128 needs 128}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x64xf16> into memref<1x4x256xf16>
  return
}

// -----

// one bf16 vector of the wrong length
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xbf16>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{b dimension 1 is 64 but a with K = 128 needs 128}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xbf16> into memref<1x256xf16>
  return
}

// -----

// one f16 vector of another batch
func.func @f(%a: memref<2x256x64xi8>, %sfa: memref<2x256x4xf8E8M0FNU>, %b: memref<1x128xf16>, %c: memref<2x256xf16>) {
  // expected-error @+1 {{b dimension 0 is 1 but a with L = 2 needs 2}}
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c : memref<2x256x64xi8>, memref<2x256x4xf8E8M0FNU>, memref<1x128xf16> into memref<2x256xf16>
  return
}

// -----

// packed vectors without scales
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x64xi8>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{b of packed e2m1 needs its scales sfb}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x64xi8> into memref<1x4x256xf16>
  return
}

// -----

// one packed vector without scales
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x2x1x512xf8E8M0FNU>, %b: memref<1x64xi8>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{b of packed e2m1 needs its scales sfb}}
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x2x1x512xf8E8M0FNU>, memref<1x64xi8> into memref<1x256xf16>
  return
}

// -----

// bf16 vectors with scales
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x128xbf16>, %sfb: memref<1x4x8xf8E4M3FN>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{b of 'bf16' values carries no block scales; drop sfb}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x128xbf16>, memref<1x4x8xf8E4M3FN> into memref<1x4x256xf16>
  return
}

// -----

// one f16 vector with scales
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x128xf16>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{b of 'f16' values carries no block scales; drop sfb}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x128xf16>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

// vector scales of too few vectors
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x64xi8>, %sfb: memref<1x2x8xf8E4M3FN>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{sfb dimension 1 is 2 but the linear layout with N = 4 needs 4}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x64xi8>, memref<1x2x8xf8E4M3FN> into memref<1x4x256xf16>
  return
}

// -----

// one-vector scales for N vectors
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{sfb must have rank 3, got rank 2}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x64xi8>, memref<1x8xf8E4M3FN> into memref<1x4x256xf16>
  return
}

// -----

// N-vector scales for one vector
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{sfb must have rank 2, got rank 3}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

// vector scales of the wrong length
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x64xi8>, %sfb: memref<1x4x4xf8E4M3FN>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{sfb dimension 2 is 4 but one scale per block with K = 128 needs 8}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x64xi8>, memref<1x4x4xf8E4M3FN> into memref<1x4x256xf16>
  return
}

// -----

// vector scales of another batch
func.func @f(%a: memref<2x256x64xi8>, %sfa: memref<2x256x4xf8E8M0FNU>, %b: memref<2x4x64xi8>, %sfb: memref<1x4x4xf8E8M0FNU>, %c: memref<2x4x256xf16>) {
  // expected-error @+1 {{sfb dimension 0 is 1 but the batch size L = 2 needs 2}}
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<2x256x64xi8>, memref<2x256x4xf8E8M0FNU>, memref<2x4x64xi8>, memref<1x4x4xf8E8M0FNU> into memref<2x4x256xf16>
  return
}

// -----

// blocked vector scales with two row blocks
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x2x2x512xf8E4M3FN>, %b: memref<1x4x64xi8>, %sfb: memref<1x2x2x512xf8E4M3FN>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{sfb dimension 1 is 2 but the blocked128x4 layout with N = 4 (128-row blocks) needs 1}}
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x2x2x512xf8E4M3FN>, memref<1x4x64xi8>, memref<1x2x2x512xf8E4M3FN> into memref<1x4x256xf16>
  return
}

// -----

// blocked vector scales of too few columns
func.func @f(%a: memref<1x256x512xi8>, %sfa: memref<1x2x16x512xf8E4M3FN>, %b: memref<1x8x512xi8>, %sfb: memref<1x1x8x512xf8E4M3FN>, %c: memref<1x8x256xf16>) {
  // expected-error @+1 {{sfb dimension 2 is 8 but the blocked128x4 layout with scale columns = 64 (4-column blocks) needs 16}}
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c : memref<1x256x512xi8>, memref<1x2x16x512xf8E4M3FN>, memref<1x8x512xi8>, memref<1x1x8x512xf8E4M3FN> into memref<1x8x256xf16>
  return
}

// -----

// blocked vector scales that are not whole atoms
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x2x1x512xf8E8M0FNU>, %b: memref<1x4x64xi8>, %sfb: memref<1x1x1x128xf8E8M0FNU>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{sfb dimension 3 is 128 but one 128x4 atom needs 512}}
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x2x1x512xf8E8M0FNU>, memref<1x4x64xi8>, memref<1x1x1x128xf8E8M0FNU> into memref<1x4x256xf16>
  return
}

// -----

// linear vector scales in the blocked layout
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x2x2x512xf8E4M3FN>, %b: memref<1x4x64xi8>, %sfb: memref<1x4x8xf8E4M3FN>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{sfb must have rank 4, got rank 3}}
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x2x2x512xf8E4M3FN>, memref<1x4x64xi8>, memref<1x4x8xf8E4M3FN> into memref<1x4x256xf16>
  return
}

// -----

// vector scales of the other format
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x64xi8>, %sfb: memref<1x4x8xf8E8M0FNU>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{sfb element type 'f8E8M0FNU' does not match format nvfp4, which needs 'f8E4M3FN'}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x64xi8>, memref<1x4x8xf8E8M0FNU> into memref<1x4x256xf16>
  return
}

// -----

// matrix scales of the other format with bf16 b
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x4xf8E4M3FN>, %b: memref<1x2x128xbf16>, %c: memref<1x2x256xf16>) {
  // expected-error @+1 {{sfa element type 'f8E4M3FN' does not match format mxfp4, which needs 'f8E8M0FNU'}}
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x4xf8E4M3FN>, memref<1x2x128xbf16> into memref<1x2x256xf16>
  return
}

// -----

// matrix scales of the wrong length with f16 b
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x4xf8E4M3FN>, %b: memref<1x2x128xf16>, %c: memref<1x2x256xf16>) {
  // expected-error @+1 {{sfa dimension 2 is 4 but one scale per block with K = 128 needs 8}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x4xf8E4M3FN>, memref<1x2x128xf16> into memref<1x2x256xf16>
  return
}

// -----

// K not a multiple of the block with f16 b
func.func @f(%a: memref<1x256x24xi8>, %sfa: memref<1x256x1xf8E8M0FNU>, %b: memref<1x2x48xf16>, %c: memref<1x2x256xf16>) {
  // expected-error @+1 {{K = 48 (twice a dimension 2) is not a multiple of the mxfp4 block size 32}}
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b into %c : memref<1x256x24xi8>, memref<1x256x1xf8E8M0FNU>, memref<1x2x48xf16> into memref<1x2x256xf16>
  return
}

// -----

// one-vector result for N vectors
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x64xi8>, %sfb: memref<1x4x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{c must have rank 3, got rank 2}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x64xi8>, memref<1x4x8xf8E4M3FN> into memref<1x256xf16>
  return
}

// -----

// N-vector result for one vector
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x1x256xf16>) {
  // expected-error @+1 {{c must have rank 2, got rank 3}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x1x256xf16>
  return
}

// -----

// N-vector result for one bf16 vector
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x128xbf16>, %c: memref<1x1x256xf16>) {
  // expected-error @+1 {{c must have rank 2, got rank 3}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x128xbf16> into memref<1x1x256xf16>
  return
}

// -----

// result of fewer vectors
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x64xi8>, %sfb: memref<1x4x8xf8E4M3FN>, %c: memref<1x2x256xf16>) {
  // expected-error @+1 {{c dimension 1 is 2 but b with N = 4 needs 4}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x64xi8>, memref<1x4x8xf8E4M3FN> into memref<1x2x256xf16>
  return
}

// -----

// result of fewer bf16 vectors
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x128xbf16>, %c: memref<1x3x256xf32>) {
  // expected-error @+1 {{c dimension 1 is 3 but b with N = 4 needs 4}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x128xbf16> into memref<1x3x256xf32>
  return
}

// -----

// result rows transposed
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x64xi8>, %sfb: memref<1x4x8xf8E4M3FN>, %c: memref<1x256x4xf16>) {
  // expected-error @+1 {{c dimension 1 is 256 but b with N = 4 needs 4}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x64xi8>, memref<1x4x8xf8E4M3FN> into memref<1x256x4xf16>
  return
}

// -----

// result of fewer rows
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x2x1x512xf8E8M0FNU>, %b: memref<1x4x64xi8>, %sfb: memref<1x1x1x512xf8E8M0FNU>, %c: memref<1x4x128xbf16>) {
  // expected-error @+1 {{c dimension 2 is 128 but a with M = 256 needs 256}}
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x2x1x512xf8E8M0FNU>, memref<1x4x64xi8>, memref<1x1x1x512xf8E8M0FNU> into memref<1x4x128xbf16>
  return
}

// -----

// result of another batch
func.func @f(%a: memref<2x256x64xi8>, %sfa: memref<2x256x8xf8E4M3FN>, %b: memref<2x4x128xf16>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{c dimension 0 is 1 but a with L = 2 needs 2}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c : memref<2x256x64xi8>, memref<2x256x8xf8E4M3FN>, memref<2x4x128xf16> into memref<1x4x256xf16>
  return
}

// -----

// f32 vectors: b is packed e2m1 or 16-bit values
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x128xf32>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{operand #2 must be memref of 8-bit signless integer or 16-bit float or bfloat16 type values, but got 'memref<1x4x128xf32>'}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x128xf32> into memref<1x4x256xf16>
  return
}

// -----

// strided f16 vectors
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x128xf16, strided<[1024, 256, 1]>>, %c: memref<1x4x256xf16>) {
  // expected-error @+1 {{operand #2 has layout strided<[1024, 256, 1]>; nvfp4 ops take memrefs of the identity layout}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x128xf16, strided<[1024, 256, 1]>> into memref<1x4x256xf16>
  return
}

// -----

// a result of N vectors in another memory space
func.func @f(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x4x64xi8>, %sfb: memref<1x4x8xf8E4M3FN>, %c: memref<1x4x256xf16, 1>) {
  // expected-error @+1 {{operand #4 is in memory space 1 : i64; nvfp4 ops take memrefs of the default memory space}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x4x64xi8>, memref<1x4x8xf8E4M3FN> into memref<1x4x256xf16, 1>
  return
}
