// Options and operands convert-nvfp4-to-gpu rejects, with a located error.
// Each case needs its own options, so each is a file of its own.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: nvfp4-opt %t/cvt-on-hopper.mlir --convert-nvfp4-to-gpu="chip=sm_90a decode=cvt" -verify-diagnostics
// RUN: nvfp4-opt %t/lanes.mlir --convert-nvfp4-to-gpu="chip=sm_90a lanes-per-row=3" -verify-diagnostics
// RUN: nvfp4-opt %t/bytes-per-load.mlir --convert-nvfp4-to-gpu="chip=sm_90a bytes-per-load=16" -verify-diagnostics
// RUN: nvfp4-opt %t/loads-range.mlir --convert-nvfp4-to-gpu="chip=sm_90a loads-in-flight=100" -verify-diagnostics
// RUN: nvfp4-opt %t/async-stages.mlir --convert-nvfp4-to-gpu="chip=sm_90a async-copy-stages=1" -verify-diagnostics
// RUN: nvfp4-opt %t/async-shared.mlir --convert-nvfp4-to-gpu="chip=sm_90a async-copy-stages=8 rows-per-block=32 rows-per-thread=4 lanes-per-row=32" -verify-diagnostics
// RUN: nvfp4-opt %t/tma-stages.mlir --convert-nvfp4-to-gpu="chip=sm_90a tma=true" -verify-diagnostics
// RUN: nvfp4-opt %t/tma-bytes.mlir --convert-nvfp4-to-gpu="chip=sm_90a tma=true async-copy-stages=2" -verify-diagnostics
// RUN: nvfp4-opt %t/tma-rows.mlir --convert-nvfp4-to-gpu="chip=sm_90a tma=true async-copy-stages=2 rows-per-block=512 rows-per-thread=8 lanes-per-row=2 split-k=1 cta-split-k=1" -verify-diagnostics
// RUN: nvfp4-opt %t/tma-align.mlir --convert-nvfp4-to-gpu="chip=sm_90a tma=true async-copy-stages=2 rows-per-block=2 rows-per-thread=1 lanes-per-row=2 split-k=8 cta-split-k=1" -verify-diagnostics
// RUN: nvfp4-opt %t/rows-range.mlir --convert-nvfp4-to-gpu="chip=sm_90a rows-per-thread=9" -verify-diagnostics
// RUN: nvfp4-opt %t/split-range.mlir --convert-nvfp4-to-gpu="chip=sm_90a split-k=17" -verify-diagnostics
// RUN: nvfp4-opt %t/cta-split-range.mlir --convert-nvfp4-to-gpu="chip=sm_90a cta-split-k=65" -verify-diagnostics
// RUN: nvfp4-opt %t/cluster-size.mlir --convert-nvfp4-to-gpu="chip=sm_90a cta-split-k=9 cta-reduction=cluster" -verify-diagnostics
// RUN: nvfp4-opt %t/empty-slices.mlir --convert-nvfp4-to-gpu="chip=sm_90a cta-split-k=5" -verify-diagnostics
// RUN: nvfp4-opt %t/rows-per-block.mlir --convert-nvfp4-to-gpu="chip=sm_90a rows-per-block=10 rows-per-thread=4" -verify-diagnostics
// RUN: nvfp4-opt %t/threads.mlir --convert-nvfp4-to-gpu="chip=sm_90a rows-per-block=4 rows-per-thread=4 lanes-per-row=8 split-k=1 cta-split-k=1" -verify-diagnostics
// RUN: nvfp4-opt %t/empty.mlir --convert-nvfp4-to-gpu="chip=sm_90a" -verify-diagnostics
// RUN: nvfp4-opt %t/dynamic.mlir --convert-nvfp4-to-gpu="chip=sm_90a" -split-input-file -verify-diagnostics
// RUN: nvfp4-opt %t/huge.mlir --convert-nvfp4-to-gpu="chip=sm_90a" -split-input-file -verify-diagnostics
// RUN: nvfp4-opt %t/huge.mlir --convert-nvfp4-to-tcgen05="chip=sm_100a" -split-input-file -verify-diagnostics

//--- cvt-on-hopper.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{decode=cvt needs a chip that converts e2m1 (cvt.rn.f16x2.e2m1x2), not sm_90a}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- lanes.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{lanes-per-row must be a power of two in [1, 32], got 3}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- bytes-per-load.mlir
// K = 48: a row is 24 bytes, which 16-byte loads do not divide.
func.func @gemv(%a: memref<1x256x24xi8>, %sfa: memref<1x256x3xf8E4M3FN>, %b: memref<1x24xi8>, %sfb: memref<1x3xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{bytes-per-load = 16 does not divide the 24 bytes of a row}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x24xi8>, memref<1x256x3xf8E4M3FN>, memref<1x24xi8>, memref<1x3xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- dynamic.mlir
// Kernels are specialised on their shapes.
func.func @gemv(%a: memref<?x?x?xi8>, %sfa: memref<?x?x?xf8E4M3FN>, %b: memref<?x?xi8>, %sfb: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{needs static shapes for the GPU lowering}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<?x?x?xi8>, memref<?x?x?xf8E4M3FN>, memref<?x?xi8>, memref<?x?xf8E4M3FN> into memref<?x?xf32>
  return
}

// -----

func.func @convert(%lin: memref<?x256x16xf8E4M3FN>, %blk: memref<?x2x4x512xf8E4M3FN>) {
  // expected-error @+1 {{needs static, identity-layout memrefs for the GPU lowering}}
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4> : memref<?x256x16xf8E4M3FN> to memref<?x2x4x512xf8E4M3FN>
  return
}

//--- loads-range.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{loads-in-flight must be in [1, 8], got 100}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- async-stages.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{async-copy-stages must be 0 or in [2, 8], got 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- async-shared.mlir
// 8 stages of 4 rows x 16 bytes for every thread, over 48 KiB.
func.func @gemv(%a: memref<1x256x1024xi8>, %sfa: memref<1x256x128xf8E4M3FN>, %b: memref<1x1024xi8>, %sfb: memref<1x128xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{bytes of shared memory (async-copy-stages x rows-per-block}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x1024xi8>, memref<1x256x128xf8E4M3FN>, memref<1x1024xi8>, memref<1x128xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- tma-stages.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{tma fills the async-copy stages: it needs async-copy-stages in [2, 8], got 0}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- tma-bytes.mlir
// K = 48: rows of 24 bytes, loaded 8 bytes at a time.
func.func @gemv(%a: memref<1x256x24xi8>, %sfa: memref<1x256x3xf8E4M3FN>, %b: memref<1x24xi8>, %sfb: memref<1x3xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{tma needs bytes-per-load = 16 (rows of a multiple of 16 bytes, a tensor map's stride rule), got 8}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x24xi8>, memref<1x256x3xf8E4M3FN>, memref<1x24xi8>, memref<1x3xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- tma-rows.mlir
func.func @gemv(%a: memref<1x1024x64xi8>, %sfa: memref<1x1024x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x1024xf16>) {
  // expected-error @+1 {{tma needs rows-per-block <= 256 (a tensor map's box), got 512}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x1024x64xi8>, memref<1x1024x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x1024xf16>
  return
}

//--- tma-align.mlir
func.func @gemv(%a: memref<1x256x256xi8>, %sfa: memref<1x256x32xf8E4M3FN>, %b: memref<1x256xi8>, %sfb: memref<1x32xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{tma copies boxes of rows-per-block x lanes-per-row x 16 = 64 bytes into shared memory; they must be a multiple of 128 bytes to stay aligned}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x256xi8>, memref<1x256x32xf8E4M3FN>, memref<1x256xi8>, memref<1x32xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- rows-range.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{rows-per-thread must be in [1, 8], got 9}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- split-range.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{split-k must be in [1, 16], got 17}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- cta-split-range.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{cta-split-k must be in [1, 64], got 65}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- cluster-size.mlir
func.func @gemv(%a: memref<1x256x4096xi8>, %sfa: memref<1x256x512xf8E4M3FN>, %b: memref<1x4096xi8>, %sfb: memref<1x512xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{cta-reduction=cluster takes cta-split-k <= 8 (a portable cluster), got 9}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x4096xi8>, memref<1x256x512xf8E4M3FN>, memref<1x4096xi8>, memref<1x512xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- empty-slices.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{split-k * cta-split-k = 5 slices leave some without work: a row has 4 loads of 16 bytes for 4 lanes}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- rows-per-block.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{rows-per-block = 10 is not a multiple of rows-per-thread = 4}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- threads.mlir
func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x256xf16>) {
  // expected-error @+1 {{rows-per-block / rows-per-thread * lanes-per-row * split-k = 1 * 8 * 1 = 8 threads; a CTA needs a multiple of 32 in [32, 1024]}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}

//--- empty.mlir
func.func @gemv(%a: memref<1x0x64xi8>, %sfa: memref<1x0x8xf8E4M3FN>, %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>, %c: memref<1x0xf16>) {
  // expected-error @+1 {{M = 0: every size must be at least 1}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x0x64xi8>, memref<1x0x8xf8E4M3FN>, memref<1x64xi8>, memref<1x8xf8E4M3FN> into memref<1x0xf16>
  return
}

// Sizes the runner refuses are refused here, by name: M or K of 2^31 and
// more (the kernels index in 32 bits), buffers beyond 2^40 bytes.
//--- huge.mlir
func.func @gemv(%a: memref<1x2147483648x8xi8>, %sfa: memref<1x2147483648x1xf8E4M3FN>, %b: memref<1x8xi8>, %sfb: memref<1x1xf8E4M3FN>, %c: memref<1x2147483648xf16>) {
  // expected-error @+1 {{M = 2147483648 is too large for the GPU lowering (at most 2^31 - 1)}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x2147483648x8xi8>, memref<1x2147483648x1xf8E4M3FN>, memref<1x8xi8>, memref<1x1xf8E4M3FN> into memref<1x2147483648xf16>
  return
}

// -----

func.func @gemv(%a: memref<1x128x2147483648xi8>, %sfa: memref<1x128x268435456xf8E4M3FN>, %b: memref<1x2147483648xi8>, %sfb: memref<1x268435456xf8E4M3FN>, %c: memref<1x128xf16>) {
  // expected-error @+1 {{K = 4294967296 is too large for the GPU lowering (at most 2^31 - 1)}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<1x128x2147483648xi8>, memref<1x128x268435456xf8E4M3FN>, memref<1x2147483648xi8>, memref<1x268435456xf8E4M3FN> into memref<1x128xf16>
  return
}

// -----

func.func @gemv(%a: memref<8x1048576x524288xi8>, %sfa: memref<8x1048576x65536xf8E4M3FN>, %b: memref<8x524288xi8>, %sfb: memref<8x65536xf8E4M3FN>, %c: memref<8x1048576xf16>) {
  // expected-error @+1 {{an operand of 'memref<8x1048576x524288xi8>' is larger than the 2^40 bytes a GPU buffer may take}}
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c : memref<8x1048576x524288xi8>, memref<8x1048576x65536xf8E4M3FN>, memref<8x524288xi8>, memref<8x65536xf8E4M3FN> into memref<8x1048576xf16>
  return
}
