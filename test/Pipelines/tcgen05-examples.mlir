// The three benchmark examples through --nvfp4-to-ptx with strategy=tcgen05:
// every kernel must assemble for sm_100a with ptxas, without spills, and
// hold the block-scaled MMA and the scale copy. (Assembled only: there is
// no Blackwell GPU to run them on.)
//
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: nvfp4-opt %nvfp4_src_root/examples/gemv_7168x16384x1.mlir --nvfp4-to-ptx="strategy=tcgen05 chip=sm_100a export-dir=%t" -o /dev/null
// RUN: nvfp4-opt %nvfp4_src_root/examples/gemv_4096x7168x8.mlir --nvfp4-to-ptx="strategy=tcgen05 chip=sm_100a export-dir=%t" -o /dev/null
// RUN: nvfp4-opt %nvfp4_src_root/examples/gemv_7168x2048x4.mlir --nvfp4-to-ptx="strategy=tcgen05 chip=sm_100a export-dir=%t" -o /dev/null
//
// RUN: FileCheck %s --check-prefix=PTX < %t/nvfp4_gemv_7168x16384x1_nvfp4_linear_f16_tcgen05.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/nvfp4_gemv_4096x7168x8_nvfp4_linear_f16_tcgen05.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/nvfp4_gemv_7168x2048x4_nvfp4_blocked128x4_f16_tcgen05.ptx
//
// RUN: %ptxas -arch=sm_100a -v %t/nvfp4_gemv_7168x16384x1_nvfp4_linear_f16_tcgen05.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS -DKERNEL=nvfp4_gemv_7168x16384x1_nvfp4_linear_f16_tcgen05 --implicit-check-not=warning --implicit-check-not=error
// RUN: %ptxas -arch=sm_100a -v %t/nvfp4_gemv_4096x7168x8_nvfp4_linear_f16_tcgen05.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS -DKERNEL=nvfp4_gemv_4096x7168x8_nvfp4_linear_f16_tcgen05 --implicit-check-not=warning --implicit-check-not=error
// RUN: %ptxas -arch=sm_100a -v %t/nvfp4_gemv_7168x2048x4_nvfp4_blocked128x4_f16_tcgen05.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS -DKERNEL=nvfp4_gemv_7168x2048x4_nvfp4_blocked128x4_f16_tcgen05 --implicit-check-not=warning --implicit-check-not=error
//
// RUN: FileCheck %s --check-prefix=JSON < %t/nvfp4_gemv_7168x2048x4_nvfp4_blocked128x4_f16_tcgen05.json

// PTX: .version 8.8
// PTX: .target sm_100a
// PTX: .extern .shared .align 1024 .b8 __nvfp4_tcgen05_smem[];
// PTX: .reqntid 128, 1, 1
// Eight mbarriers: one a slot for the MMAs' commits, one a slot ("full")
// for the tensor copies of a; thread 0 prefetches the map.
// PTX-COUNT-8: mbarrier.init.shared.b64 [__nvfp4_tcgen05_smem+{{[0-9]+}}], {{%r[0-9]+}};
// PTX-NEXT: fence.mbarrier_init.release.cluster;
// PTX-NEXT: prefetch.tensormap [{{%rd[0-9]+}}];
// PTX: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [__nvfp4_tcgen05_smem+{{[0-9]+}}], {{%r[0-9]+}};
// PTX: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// a's 128 x 32-byte box of a stage: one tensor copy, counted by the full
// barrier; b and the scales by the threads.
// PTX: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [__nvfp4_tcgen05_smem+{{[0-9]+}}], {{%r[0-9]+}};
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [__nvfp4_tcgen05_smem+{{[0-9]+}}];
// PTX: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 16;
// The NVFP4 sign check rides on the stage barrier; one elected thread of
// warp 0 issues. Descriptors: scale copy 0x400800080000 (LBO = SBO = 128),
// A and B 0xC000401000010000 (32-byte swizzle, SBO 256, LBO field 1).
// PTX: cp.async.wait_group 2;
// The full barrier's wait: a plain branch loop (no bra.uni).
// PTX: mbarrier.try_wait.parity.shared.b64 [[DONE:%p[0-9]+]], [{{%rd[0-9]+}}], {{%r[0-9]+}}, {{%r[0-9]+}};
// PTX-NEXT: not.pred [[WAITING:%p[0-9]+]], [[DONE]];
// PTX-NEXT: @[[WAITING]] bra $L__BB
// PTX: fence.proxy.async.shared::cta;
// PTX-NEXT: bar.red.or.pred {{%p[0-9]+}}, 0, {{%p[0-9]+}};
// PTX: elect.sync {{%r[0-9]+}}|{{%p[0-9]+}}, -1;
// PTX: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 70403104440320;
// PTX: tcgen05.cp.cta_group::1.32x128b.warpx4 [{{.*}}], {{%rd[0-9]+}};
// PTX: tcgen05.cp.cta_group::1.32x128b.warpx4 [{{.*}}], {{%rd[0-9]+}};
// PTX: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, -4611615580963667968;
// PTX: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, -4611615580963667968;
// PTX: mov.b32 {{%r[0-9]+}}, 134349952;
// PTX-NEXT: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16.collector::a::discard [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%r[0-9]+}}, [{{.*}}], [{{.*}}], {{%p[0-9]+}};
// PTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [{{.*}}];
// PTX: mbarrier.try_wait.parity.shared.b64 [[MMADONE:%p[0-9]+]], [{{%rd[0-9]+}}], {{%r[0-9]+}}, {{%r[0-9]+}};
// PTX-NEXT: not.pred [[MMAWAITING:%p[0-9]+]], [[MMADONE]];
// PTX-NEXT: @[[MMAWAITING]] bra $L__BB
// PTX: tcgen05.fence::after_thread_sync;
// PTX: tcgen05.ld.sync.aligned.32x32b.x1.b32 {{{%r[0-9]+}}}, [{{%r[0-9]+}}];
// PTX-NEXT: tcgen05.wait::ld.sync.aligned;
// PTX: cvt.rn.f16.f32
// PTX: st.global.b16
// PTX: tcgen05.fence::before_thread_sync;
// PTX-NEXT: bar.sync 0;
// PTX: tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, {{%r[0-9]+}};

// PTXAS: Compiling entry function '[[KERNEL]]' for 'sm_100a'
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Used {{[0-9]+}} registers, used 1 barriers

// JSON: "chip": "sm_100a",
// JSON: "grid": [
// JSON-NEXT: 56,
// JSON-NEXT: 4,
// JSON: "params": [
// JSON-NEXT: "a",
// JSON-NEXT: "sfa",
// JSON-NEXT: "b",
// JSON-NEXT: "sfb",
// JSON-NEXT: "c",
// JSON-NEXT: "alpha",
// JSON-NEXT: "a_tensor_map",
// JSON-NEXT: "sfa_tensor_map"
// JSON-NEXT: ],
// JSON: "shared_bytes": 21584,
// JSON-NEXT: "strategy": "tcgen05",
// JSON-NEXT: "tensor_maps": [
// JSON: "param": "a_tensor_map",
// JSON: "param": "sfa_tensor_map",
