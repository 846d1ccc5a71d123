// RUN: nvfp4-opt %s --convert-gpu-to-host-sim="prefix=t_" | FileCheck %s

// Every GPU instruction the CUDA-core kernels use, in the LLVM/NVVM form
// gpu-module-to-binary would serialize, becomes host code: runtime calls for
// what needs the simulated hardware, plain LLVM for the rest.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.mlir.global internal @partials() {addr_space = 3 : i32} : !llvm.array<64 x f32>
    llvm.mlir.global internal @words() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8 x i32>

    llvm.func @kernel(%a: !llvm.ptr, %x: i32, %f: f32, %q: vector<2xi8>, %byte: i8, %w: vector<4xi8>) attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 64, 1, 1>} {
      %tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 64> : i32
      %cta = nvvm.read.ptx.sreg.ctaid.y : i32
      %ntid = nvvm.read.ptx.sreg.ntid.x : i32
      %mask = llvm.mlir.constant(-1 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %clamp = llvm.mlir.constant(31 : i32) : i32
      %s = nvvm.shfl.sync bfly %mask, %f, %one, %clamp : f32 -> f32
      %t = nvvm.shfl.sync idx %mask, %x, %one, %clamp {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
      %p = nvvm.prmt #nvvm.permute_mode<default> %x, %tid, %cta : i32
      %e = nvvm.prmt #nvvm.permute_mode<f4e> %x, %tid, %cta : i32
      %d = nvvm.dot.accumulate.4way %w <signed>, %w <unsigned>, %x : vector<4xi8>, vector<4xi8>
      %h = nvvm.convert.f8x2.to.f16x2 %q : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
      %u = nvvm.convert.f8x2.to.bf16x2 %q : vector<2xi8>(f8E8M0FNU) -> vector<2xbf16>
      %g = nvvm.convert.f4x2.to.f16x2 %byte : i8(f4E2M1FN) -> vector<2xf16>
      %b = llvm.fptrunc %f : f32 to bf16
      nvvm.barrier0
      %sh = llvm.mlir.addressof @words : !llvm.ptr<3>
      %gen = llvm.addrspacecast %sh : !llvm.ptr<3> to !llvm.ptr
      llvm.store %x, %gen : i32, !llvm.ptr
      %part = llvm.mlir.addressof @partials : !llvm.ptr<3>
      llvm.store %f, %part : f32, !llvm.ptr<3>
      %ld = llvm.inline_asm "ld.global.nc.L1::no_allocate.v4.u32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %a : (!llvm.ptr) -> !llvm.struct<(i32, i32, i32, i32)>
      %ld2 = llvm.inline_asm "ld.global.nc.v2.u32 {$0, $1}, [$2];", "=r,=r,l" %a : (!llvm.ptr) -> !llvm.struct<(i32, i32)>
      llvm.return
    }
  }

  func.func @host(%a: memref<16xi8>, %x: i32, %f: f32, %q: vector<2xi8>, %byte: i8, %w: vector<4xi8>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@kernel blocks in (%c3, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<16xi8>, %x : i32, %f : f32, %q : vector<2xi8>, %byte : i8, %w : vector<4xi8>)
    return
  }
}

// CHECK-NOT: gpu.module
// CHECK-NOT: gpu.container_module
// The runtime is declared once.
// CHECK-DAG: llvm.func @nvfp4sim_launch(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, i32, i64)
// CHECK-DAG: llvm.func @nvfp4sim_sreg(i32) -> i32

// CHECK-LABEL: llvm.func internal @t_kernels__kernel(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr,
// CHECK-NOT: nvvm.kernel
// CHECK: %[[TIDX:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: llvm.call @nvfp4sim_sreg(%[[TIDX]])
// CHECK: %[[CTAY:.*]] = llvm.mlir.constant(7 : i32)
// CHECK: llvm.call @nvfp4sim_sreg(%[[CTAY]])
// CHECK: %[[NTIDX:.*]] = llvm.mlir.constant(3 : i32)
// CHECK: llvm.call @nvfp4sim_sreg(%[[NTIDX]])
// shfl.sync: bfly is mode 2, idx mode 3; f32 travels as its bits.
// CHECK: %[[BFLY:.*]] = llvm.mlir.constant(2 : i32)
// CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: llvm.call @nvfp4sim_shfl(%[[BFLY]], %{{.*}}, %[[BITS]],
// CHECK: llvm.bitcast %{{.*}} : i32 to f32
// CHECK: %[[IDX:.*]] = llvm.mlir.constant(3 : i32)
// CHECK: %[[PACKED:.*]] = llvm.call @nvfp4sim_shfl(%[[IDX]]
// CHECK: llvm.lshr %[[PACKED]]
// CHECK: llvm.trunc %{{.*}} : i64 to i1
// CHECK: llvm.insertvalue %{{.*}}[1] : !llvm.struct<(i32, i1)>
// prmt: the mode code, then lo, hi, selector.
// CHECK: %[[DEFAULT:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: llvm.call @nvfp4sim_prmt(%[[DEFAULT]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}})
// CHECK: %[[F4E:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: llvm.call @nvfp4sim_prmt(%[[F4E]],
// dp4a: the bytes as i32, then a signed, b unsigned.
// CHECK: llvm.bitcast %{{.*}} : vector<4xi8> to i32
// CHECK: %[[SA:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[SB:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: llvm.call @nvfp4sim_dp4a(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[SA]], %[[SB]])
// Conversions: e4m3 (0), ue8m0 (2), e2m1 (3).
// CHECK: %[[E4M3:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: %[[H:.*]] = llvm.call @nvfp4sim_cvt_x2(%[[E4M3]]
// CHECK: llvm.bitcast %[[H]] : i32 to vector<2xf16>
// CHECK: %[[UE8M0:.*]] = llvm.mlir.constant(2 : i32)
// CHECK: %[[U:.*]] = llvm.call @nvfp4sim_cvt_x2(%[[UE8M0]]
// CHECK: llvm.bitcast %[[U]] : i32 to vector<2xbf16>
// CHECK: %[[E2M1:.*]] = llvm.mlir.constant(3 : i32)
// CHECK: llvm.call @nvfp4sim_cvt_x2(%[[E2M1]]
// CHECK: llvm.call @nvfp4sim_f32_to_bf16
// CHECK: llvm.call @nvfp4sim_barrier()
// Shared globals live in the per-CTA buffer: @partials at 0, @words at 256.
// CHECK: %[[BASE1:.*]] = llvm.call @nvfp4sim_shared()
// CHECK: %[[WORDS:.*]] = llvm.getelementptr %[[BASE1]][256] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %{{.*}}, %[[WORDS]] : i32, !llvm.ptr
// CHECK: %[[BASE0:.*]] = llvm.call @nvfp4sim_shared()
// CHECK: %[[PART:.*]] = llvm.getelementptr %[[BASE0]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %{{.*}}, %[[PART]] : f32, !llvm.ptr
// Non-coherent vector loads are plain loads, each after the check of the
// alignment its width needs on the GPU (a misaligned access fails the
// launch as it faults there) and the call that counts it in a load trace
// (its address, bytes and site, numbered in order).
// CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32)
// CHECK-NEXT: llvm.call @nvfp4sim_check_align(%[[A]], %[[SIXTEEN]])
// CHECK-NEXT: %[[BYTES16:.*]] = llvm.mlir.constant(16 : i32)
// CHECK-NEXT: %[[SITE0:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-NEXT: llvm.call @nvfp4sim_trace_load(%[[A]], %[[BYTES16]], %[[SITE0]])
// CHECK-NEXT: llvm.load %[[A]] {alignment = 16 : i64} : !llvm.ptr -> vector<4xi32>
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32)
// CHECK-NEXT: llvm.call @nvfp4sim_check_align(%[[A]], %[[EIGHT]])
// CHECK-NEXT: %[[BYTES8:.*]] = llvm.mlir.constant(8 : i32)
// CHECK-NEXT: %[[SITE1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK-NEXT: llvm.call @nvfp4sim_trace_load(%[[A]], %[[BYTES8]], %[[SITE1]])
// CHECK-NEXT: llvm.load %[[A]] {alignment = 8 : i64} : !llvm.ptr -> vector<2xi32>
// CHECK-NOT: llvm.inline_asm
// CHECK-NOT: nvvm.
// CHECK: llvm.return

// The trampoline unpacks the argument block for every thread.
// CHECK-LABEL: llvm.func internal @t_kernels__kernel__entry(%{{.*}}: !llvm.ptr)
// CHECK: llvm.call @t_kernels__kernel(

// The launcher: grid 3 x 1 x 1, 64 threads, 288 bytes of shared memory (256 + 32).
// CHECK-LABEL: llvm.func @t_kernel(
// CHECK-SAME: nvfp4sim.launch = array<i64: 3, 1, 1, 64, 1, 1, 0>
// CHECK: %[[ENTRY:.*]] = llvm.mlir.addressof @t_kernels__kernel__entry
// CHECK: %[[SHARED:.*]] = llvm.mlir.constant(288 : i64)
// CHECK: llvm.call @nvfp4sim_launch(%[[ENTRY]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SHARED]])

// The host calls it with the memref's aligned pointer.
// CHECK-LABEL: func.func @host(
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: %[[INT:.*]] = arith.index_cast %[[PTR]] : index to i64
// CHECK: %[[APTR:.*]] = llvm.inttoptr %[[INT]] : i64 to !llvm.ptr
// CHECK: llvm.call @t_kernel(%[[APTR]],
// CHECK-NOT: gpu.launch_func
