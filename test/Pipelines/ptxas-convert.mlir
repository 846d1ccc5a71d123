// The scale-layout conversion kernels of the benchmark shapes' scales (K/16
// columns for NVFP4, K/32 for MXFP4), in both directions, assembled by ptxas
// for both chips: accepted, no spills, one word of 4 scales loaded and
// stored a thread (every shape here has a multiple of 4 columns).
//
// REQUIRES: ptxas
// RUN: rm -rf %t
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a export-dir=%t/sm_90a" -o /dev/null
// RUN: %ptxas -arch=sm_90a -v %t/sm_90a/*.ptx -o %t/sm_90a.cubin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PTXAS
// RUN: nvfp4-opt %s --nvfp4-to-ptx="chip=sm_100a export-dir=%t/sm_100a" -o /dev/null
// RUN: %ptxas -arch=sm_100a -v %t/sm_100a/*.ptx -o %t/sm_100a.cubin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PTXAS
// RUN: cat %t/sm_90a/nvfp4_convert_scale_layout_7168x1024x1_linear_to_blocked128x4_f8E4M3FN.ptx \
// RUN:   | FileCheck %s --check-prefix=PTX

func.func @sfa_7168x16384(%lin: memref<1x7168x1024xf8E4M3FN>,
                          %blk: memref<1x56x256x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x7168x1024xf8E4M3FN> to memref<1x56x256x512xf8E4M3FN>
  return
}

func.func @sfa_4096x7168x8(%lin: memref<8x4096x448xf8E4M3FN>,
                           %blk: memref<8x32x112x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %blk, %lin from <blocked128x4> to <linear>
      : memref<8x32x112x512xf8E4M3FN> to memref<8x4096x448xf8E4M3FN>
  return
}

// The vector's scales: one row, padded to a 128-row atom.
func.func @sfb_2048x4_mxfp4(%lin: memref<4x1x64xf8E8M0FNU>,
                            %blk: memref<4x1x16x512xf8E8M0FNU>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<4x1x64xf8E8M0FNU> to memref<4x1x16x512xf8E8M0FNU>
  return
}

// ptxas -v prints each kernel's properties on the line after its name;
// {{[[:space:]]+}} spans that line break.
// PTXAS-DAG: Function properties for nvfp4_convert_scale_layout_7168x1024x1_linear_to_blocked128x4_f8E4M3FN{{[[:space:]]+}}0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-DAG: Function properties for nvfp4_convert_scale_layout_4096x448x8_blocked128x4_to_linear_f8E4M3FN{{[[:space:]]+}}0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-DAG: Function properties for nvfp4_convert_scale_layout_1x64x4_linear_to_blocked128x4_f8E8M0FNU{{[[:space:]]+}}0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// PTX: .reqntid 256, 1, 1
// PTX-COUNT-1: ld.global.b32
// PTX-NOT: ld.global
// PTX: st.global.b32
// PTX-NOT: st.global
