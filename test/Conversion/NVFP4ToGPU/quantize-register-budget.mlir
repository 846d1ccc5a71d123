// max-registers applies to every kernel the pass writes: the quantizers'
// (the global scale's reduction too), the dequantizer's and the scale-layout
// conversion's, as to the GEMV's. By default only the quantizer of two
// blocks a thread takes a budget (56); -1 takes that one off.
//
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a" \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a max-registers=40" \
// RUN:   | FileCheck %s --check-prefix=GIVEN
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a max-registers=-1" \
// RUN:   | FileCheck %s --check-prefix=NONE --implicit-check-not=maxnreg
// Out of range: a located error on each op, the bounds the CUDA-core
// GEMV's.
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a max-registers=23" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANGE
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a max-registers=256" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANGE-HIGH
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a max-registers=24" \
// RUN:   | FileCheck %s --check-prefix=LEAST

// DEFAULT: gpu.func @nvfp4_quantize_global_scale_130x64x2_bf16
// DEFAULT-SAME: kernel attributes {nvvm.reqntid
// DEFAULT: gpu.func @nvfp4_quantize_130x64x2_nvfp4_blocked128x4_bf16_2l
// DEFAULT-SAME: nvvm.maxnreg = 56
// DEFAULT: gpu.func @nvfp4_dequantize_4x32x1_nvfp4_linear_f16_gs
// DEFAULT-SAME: kernel attributes {nvvm.reqntid
// DEFAULT: gpu.func @nvfp4_convert_scale_layout
// DEFAULT-SAME: kernel attributes {nvvm.reqntid

// GIVEN: gpu.func @nvfp4_quantize_global_scale_130x64x2_bf16
// GIVEN-SAME: nvvm.maxnreg = 40
// GIVEN: gpu.func @nvfp4_quantize_130x64x2_nvfp4_blocked128x4_bf16_2l
// GIVEN-SAME: nvvm.maxnreg = 40
// GIVEN: gpu.func @nvfp4_dequantize_4x32x1_nvfp4_linear_f16_gs
// GIVEN-SAME: nvvm.maxnreg = 40
// GIVEN: gpu.func @nvfp4_convert_scale_layout
// GIVEN-SAME: nvvm.maxnreg = 40

// NONE: gpu.func @nvfp4_quantize_global_scale_130x64x2_bf16
// NONE: gpu.func @nvfp4_quantize_130x64x2_nvfp4_blocked128x4_bf16_2l
// NONE: gpu.func @nvfp4_dequantize_4x32x1_nvfp4_linear_f16_gs
// NONE: gpu.func @nvfp4_convert_scale_layout

// RANGE: quantize-register-budget.mlir:[[# @LINE + 9]]:3: error: 'nvfp4.quantize' op max-registers must be -1, 0 or in [24, 255], got 23
// RANGE: error: 'nvfp4.dequantize' op max-registers must be -1, 0 or in [24, 255], got 23
// RANGE: error: 'nvfp4.convert_scale_layout' op max-registers must be -1, 0 or in [24, 255], got 23
// RANGE-HIGH: error: 'nvfp4.quantize' op max-registers must be -1, 0 or in [24, 255], got 256

// LEAST-COUNT-4: nvvm.maxnreg = 24

func.func @two_level(%x: memref<2x130x64xbf16>, %q: memref<2x130x32xi8>,
                     %s: memref<2x2x1x512xf8E4M3FN>, %gs: memref<f32>) {
  nvfp4.quantize <nvfp4> <blocked128x4> %x into %q, %s global_scale(%gs)
      : memref<2x130x64xbf16> into memref<2x130x32xi8>,
        memref<2x2x1x512xf8E4M3FN>, memref<f32>
  return
}

func.func @dequantize(%q: memref<1x4x16xi8>, %s: memref<1x4x2xf8E4M3FN>,
                      %gs: memref<f32>, %y: memref<1x4x32xf16>) {
  nvfp4.dequantize <nvfp4> <linear> %q, %s global_scale(%gs) into %y
      : memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>, memref<f32>
        into memref<1x4x32xf16>
  return
}

func.func @convert(%lin: memref<1x200x7xf8E4M3FN>,
                   %blk: memref<1x2x2x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x200x7xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  return
}
