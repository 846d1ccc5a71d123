// --nvfp4-to-ptx assembles and exports identical GEMVs once: both launches
// of the same operation use one kernel, a different one keeps its own.
// RUN: rm -rf %t
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a export-dir=%t" 2> %t.err \
// RUN:   | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err
// RUN: ls %t | FileCheck %s --check-prefix=FILES

// CHECK-LABEL: func.func @three_gemvs
// CHECK:       gpu.launch_func @[[K:nvfp4_gemv_256x128x2_nvfp4_linear_f16]]::@[[K]]
// CHECK-SAME:  kernel = "[[K]]"
// CHECK:       gpu.launch_func @[[K]]::@[[K]]
// CHECK-SAME:  kernel = "[[K]]"
// CHECK:       gpu.launch_func @[[F:nvfp4_gemv_256x128x2_nvfp4_linear_f32]]::@[[F]]
// CHECK:       gpu.binary @[[K]] 
// CHECK-NEXT:  gpu.binary @[[F]] 
// CHECK-NOT:   gpu.binary

// SUMMARY: nvfp4-export-kernels: wrote 2 kernels to '{{.*}}' (.ptx, .json): nvfp4_gemv_256x128x2_nvfp4_linear_f16, nvfp4_gemv_256x128x2_nvfp4_linear_f32

// FILES:      nvfp4_gemv_256x128x2_nvfp4_linear_f16.json
// FILES-NEXT: nvfp4_gemv_256x128x2_nvfp4_linear_f16.ptx
// FILES-NEXT: nvfp4_gemv_256x128x2_nvfp4_linear_f32.json
// FILES-NEXT: nvfp4_gemv_256x128x2_nvfp4_linear_f32.ptx
// FILES-NEXT: three_gemvs.sequence.json
// FILES-NOT:  {{.}}

func.func @three_gemvs(%a: memref<2x256x64xi8>, %sfa: memref<2x256x8xf8E4M3FN>,
                       %b: memref<2x64xi8>, %sfb: memref<2x8xf8E4M3FN>,
                       %c: memref<2x256xf16>, %d: memref<2x256xf16>,
                       %e: memref<2x256xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x256x64xi8>, memref<2x256x8xf8E4M3FN>, memref<2x64xi8>,
        memref<2x8xf8E4M3FN> into memref<2x256xf16>
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %d
      : memref<2x256x64xi8>, memref<2x256x8xf8E4M3FN>, memref<2x64xi8>,
        memref<2x8xf8E4M3FN> into memref<2x256xf16>
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %e
      : memref<2x256x64xi8>, memref<2x256x8xf8E4M3FN>, memref<2x64xi8>,
        memref<2x8xf8E4M3FN> into memref<2x256xf32>
  return
}
