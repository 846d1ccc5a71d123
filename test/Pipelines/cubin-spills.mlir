// cubin=true: a kernel that ptxas spills to local memory is a warning that
// names the bytes, the registers and the budget; the kernel is still
// written. Without the budget that forces it, the same kernel gets none.
// REQUIRES: ptxas
// RUN: rm -rf %t
// RUN: nvfp4-opt %s -o /dev/null 2>&1 --nvfp4-to-ptx="chip=sm_90a decode=mma \
// RUN:   rows-per-thread=4 max-registers=32 export-dir=%t export-cubin=true" \
// RUN:   | FileCheck %s --check-prefix=SPILL
// RUN: nvfp4-opt %s -o /dev/null 2>&1 --nvfp4-to-ptx="chip=sm_90a decode=mma \
// RUN:   rows-per-thread=4 max-registers=-1 export-dir=%t export-cubin=true" \
// RUN:   | FileCheck %s --check-prefix=NONE

// SPILL: warning: ptxas spills {{[1-9][0-9]*}} bytes of 'nvfp4_gemv_256x1024x1_n16_nvfp4_linear_f16.ptx' to local memory at 32 registers (.maxnreg 32)
// SPILL: nvfp4-export-kernels: wrote 1 kernel to '{{.*}}' (.ptx, .json, .cubin): nvfp4_gemv_256x1024x1_n16_nvfp4_linear_f16

// NONE-NOT: warning
// NONE: nvfp4-export-kernels: wrote 1 kernel

func.func @gemv(%a: memref<1x256x512xi8>, %sfa: memref<1x256x64xf8E4M3FN>,
                %b: memref<1x16x512xi8>, %sfb: memref<1x16x64xf8E4M3FN>,
                %c: memref<1x16x256xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x256x512xi8>, memref<1x256x64xf8E4M3FN>, memref<1x16x512xi8>,
        memref<1x16x64xf8E4M3FN> into memref<1x16x256xf16>
  return
}
