// pdl=true: programmatic dependent launch. The kernel lets the next kernel
// launch first thing, issues its first loads of a (weights no kernel of the
// stream writes), and only then waits for its predecessor, before it reads
// b or its scales or writes c. Without the option neither instruction is
// there.
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a pdl=true" | FileCheck %s
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=OFF
// RUN: rm -rf %t && nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a pdl=true export-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/nvfp4_gemv_130x2048x2_nvfp4_linear_f16.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/nvfp4_gemv_130x2048x2_nvfp4_linear_f16.ptx -o /dev/null %}

// CHECK: gpu.launch_func
// CHECK-SAME: pdl = true
// CHECK-LABEL: gpu.func @nvfp4_gemv_130x2048x2_nvfp4_linear_f16(
// CHECK: nvvm.griddepcontrol launch_dependents
// CHECK-NOT: nvvm.griddepcontrol wait
// CHECK: llvm.inline_asm "ld.global.nc.L1::no_allocate.v4.u32
// CHECK-NOT: vector.load %arg2
// CHECK: nvvm.griddepcontrol wait
// CHECK: vector.load %arg2
// CHECK: memref.store
// OFF: pdl = false
// OFF-NOT: griddepcontrol
// PTX: griddepcontrol.launch_dependents;
// PTX-NOT: griddepcontrol.wait
// PTX: ld.global.nc.L1::no_allocate.v4.u32
// PTX: griddepcontrol.wait;
// PTX: st.global
func.func @gemv(%a: memref<2x130x1024xi8>, %sfa: memref<2x130x128xf8E4M3FN>,
    %b: memref<2x1024xi8>, %sfb: memref<2x128xf8E4M3FN>, %c: memref<2x130xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x130x1024xi8>, memref<2x130x128xf8E4M3FN>, memref<2x1024xi8>,
        memref<2x128xf8E4M3FN> into memref<2x130xf16>
  return
}
