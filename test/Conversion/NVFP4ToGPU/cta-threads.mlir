// cta-threads sets the CTA size the cost model fills with row groups and K
// slices (128 threads by default); the CUDA-core kernel only.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu | FileCheck %s --check-prefix=DEFAULT
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="cta-threads=512" | FileCheck %s --check-prefix=WIDE
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="cta-threads=48" 2>&1 | FileCheck %s --check-prefix=MULTIPLE
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="cta-threads=2048" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="cta-threads=256 decode=mma" 2>&1 | FileCheck %s --check-prefix=MMA

// 16 x 7776 x 1 (a small launch: one row a thread) splits K within the CTA
// as far as its threads allow; 4096 x 7168 x 8 fills it with row groups.
// DEFAULT: block = [128, 1, 1]{{.*}}rows_per_block = 1 : i64, rows_per_thread = 1 : i64, split_k = 4 : i64
// DEFAULT: block = [128, 1, 1]{{.*}}rows_per_block = 16 : i64, rows_per_thread = 4 : i64, split_k = 1 : i64
// WIDE: block = [512, 1, 1]{{.*}}rows_per_block = 2 : i64, rows_per_thread = 1 : i64, split_k = 8 : i64
// WIDE: block = [512, 1, 1]{{.*}}rows_per_block = 64 : i64, rows_per_thread = 4 : i64, split_k = 1 : i64

// MULTIPLE: cta-threads.mlir:[[@LINE+4]]:3: error: 'nvfp4.gemv' op cta-threads must be a multiple of 32, got 48
// RANGE: cta-threads.mlir:[[@LINE+3]]:3: error: 'nvfp4.gemv' op cta-threads must be in [32, 1024], got 2048
// MMA: cta-threads.mlir:[[@LINE+2]]:3: error: 'nvfp4.gemv' op decode=mma: cta-threads applies to the CUDA-core kernel only
func.func @gemv_16x7776x1_nvfp4_linear_f16(%a: memref<1x16x3888xi8>, %sfa: memref<1x16x486xf8E4M3FN>, %b: memref<1x3888xi8>, %sfb: memref<1x486xf8E4M3FN>, %c: memref<1x16xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x16x3888xi8>, memref<1x16x486xf8E4M3FN>, memref<1x3888xi8>, memref<1x486xf8E4M3FN> into memref<1x16xf16>
  return
}

func.func @gemv_4096x7168x8_nvfp4_linear_f16(%a: memref<8x4096x3584xi8>, %sfa: memref<8x4096x448xf8E4M3FN>, %b: memref<8x3584xi8>, %sfb: memref<8x448xf8E4M3FN>, %c: memref<8x4096xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<8x4096x3584xi8>, memref<8x4096x448xf8E4M3FN>, memref<8x3584xi8>, memref<8x448xf8E4M3FN> into memref<8x4096xf16>
  return
}
