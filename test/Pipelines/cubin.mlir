// cubin=true: ptxas assembles every exported kernel into <kernel>.cubin next
// to its .ptx and .json, and the summary line says so.
// REQUIRES: ptxas
// RUN: rm -rf %t
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a export-dir=%t export-prefix=p_ export-cubin=true" \
// RUN:   -o /dev/null 2>&1 | FileCheck %s
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: %python -c "import sys; sys.exit(open(sys.argv[1], 'rb').read(4) != b'\x7fELF')" \
// RUN:   %t/p_nvfp4_gemv_256x128x1_nvfp4_linear_f16.cubin

// CHECK: nvfp4-export-kernels: wrote 1 kernel to '{{.*}}' (.ptx, .json, .cubin): p_nvfp4_gemv_256x128x1_nvfp4_linear_f16

// FILES:      p_nvfp4_gemv_256x128x1_nvfp4_linear_f16.cubin
// FILES-NEXT: p_nvfp4_gemv_256x128x1_nvfp4_linear_f16.json
// FILES-NEXT: p_nvfp4_gemv_256x128x1_nvfp4_linear_f16.ptx

func.func @gemv(%a: memref<1x256x64xi8>, %sfa: memref<1x256x8xf8E4M3FN>,
                %b: memref<1x64xi8>, %sfb: memref<1x8xf8E4M3FN>,
                %c: memref<1x256xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x256x64xi8>, memref<1x256x8xf8E4M3FN>, memref<1x64xi8>,
        memref<1x8xf8E4M3FN> into memref<1x256xf16>
  return
}
