// --nvfp4-to-host-sim: the kernels of --nvfp4-to-ptx (same options, same
// device passes) as host code for the GPU simulation runtime; the host
// function calls one launcher a kernel, with bare pointers.
//
// RUN: nvfp4-opt %s --nvfp4-to-host-sim="chip=sm_90a split-k=2 cta-split-k=1 lanes-per-row=8 rows-per-thread=4 export-prefix=sim_" \
// RUN:   | FileCheck %s --check-prefix=SM90
// RUN: nvfp4-opt %s --nvfp4-to-host-sim="chip=sm_100a" | FileCheck %s --check-prefix=SM100
// The result is plain LLVM IR for the host.
// RUN: nvfp4-opt %s --nvfp4-to-host-sim | mlir-translate --mlir-to-llvmir \
// RUN:   | FileCheck %s --check-prefix=LLVMIR

func.func @convert_and_gemv(%a: memref<2x130x512xi8>,
                            %sfa: memref<2x130x64xf8E4M3FN>,
                            %sfa_blk: memref<2x2x16x512xf8E4M3FN>,
                            %b: memref<2x512xi8>,
                            %sfb: memref<2x1x16x512xf8E4M3FN>,
                            %c: memref<2x130xbf16>, %alpha: f32) {
  nvfp4.convert_scale_layout %sfa, %sfa_blk from <linear> to <blocked128x4>
      : memref<2x130x64xf8E4M3FN> to memref<2x2x16x512xf8E4M3FN>
  nvfp4.gemv <nvfp4> <blocked128x4> %a, %sfa_blk, %b, %sfb into %c alpha(%alpha)
      : memref<2x130x512xi8>, memref<2x2x16x512xf8E4M3FN>, memref<2x512xi8>,
        memref<2x1x16x512xf8E4M3FN> into memref<2x130xbf16>
  return
}

// SM90-NOT: gpu.
// SM90-NOT: nvvm.
// SM90-LABEL: llvm.func @convert_and_gemv(
// SM90-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: f32)
// SM90: llvm.call @sim_nvfp4_convert_scale_layout_130x64x2_linear_to_blocked128x4_f8E4M3FN(
// SM90: llvm.call @sim_nvfp4_gemv_130x1024x2_nvfp4_blocked128x4_bf16(
// SM90-LABEL: llvm.func internal @sim_nvfp4_gemv_130x1024x2_nvfp4_blocked128x4_bf16__nvfp4_gemv_130x1024x2_nvfp4_blocked128x4_bf16(
// SM90: llvm.call @nvfp4sim_dp4a
// SM90: llvm.call @nvfp4sim_shfl
// SM90: llvm.call @nvfp4sim_barrier
// SM90-LABEL: llvm.func @sim_nvfp4_gemv_130x1024x2_nvfp4_blocked128x4_bf16(
// SM90-SAME: nvfp4sim.launch = array<i64: 8, 2, 1, 128, 1, 1, 0>
// SM90: llvm.call @nvfp4sim_launch

// The sm_100a default decode is cvt.rn.f16x2.e2m1x2 (type 3).
// SM100-LABEL: llvm.func internal @nvfp4_gemv_130x1024x2_nvfp4_blocked128x4_bf16__nvfp4_gemv_130x1024x2_nvfp4_blocked128x4_bf16(
// SM100: %[[E2M1:.*]] = llvm.mlir.constant(3 : i32)
// SM100: llvm.call @nvfp4sim_cvt_x2(%[[E2M1]]
// SM100-NOT: nvfp4sim_dp4a
// SM100: llvm.return

// LLVMIR: define void @convert_and_gemv(ptr
// LLVMIR: call void @nvfp4_gemv_130x1024x2_nvfp4_blocked128x4_bf16(
// LLVMIR: call void @nvfp4sim_launch(ptr @{{.*}}__entry, ptr %{{.*}}, i32 {{[0-9]+}}, i32 2, i32 1, i32 {{[0-9]+}}, i32 1, i32 1, i64 {{[0-9]+}})
