// MXFP4 (linear and blocked scales) and an NVFP4 shape with every tail
// (M = 200, K = 80: a partial K stage, 8-byte copies, unaligned linear scale
// rows) through --nvfp4-to-ptx with strategy=tcgen05, for 1, 4 and 8 ring
// slots; each kernel must assemble for sm_100a without spills. (Assembled
// only: there is no Blackwell GPU to run them on.)
//
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/s1 %t/s4 %t/s8
// RUN: nvfp4-opt %s --nvfp4-to-ptx="strategy=tcgen05 chip=sm_100a stages=1 export-dir=%t/s1" -o /dev/null
// RUN: nvfp4-opt %s --nvfp4-to-ptx="strategy=tcgen05 chip=sm_100a export-dir=%t/s4" -o /dev/null
// RUN: nvfp4-opt %s --nvfp4-to-ptx="strategy=tcgen05 chip=sm_100a stages=8 export-dir=%t/s8" -o /dev/null
//
// RUN: FileCheck %s --check-prefix=MXPTX < %t/s4/nvfp4_gemv_4096x7168x2_mxfp4_linear_f16_tcgen05.ptx
// RUN: FileCheck %s --check-prefix=MXPTX < %t/s4/nvfp4_gemv_7168x2048x4_mxfp4_blocked128x4_f32_tcgen05.ptx
// RUN: FileCheck %s --check-prefix=TAILPTX < %t/s4/nvfp4_gemv_200x80x2_nvfp4_linear_bf16_tcgen05.ptx
//
// RUN: for s in s1 s4 s8; do for k in nvfp4_gemv_4096x7168x2_mxfp4_linear_f16_tcgen05 nvfp4_gemv_7168x2048x4_mxfp4_blocked128x4_f32_tcgen05 nvfp4_gemv_200x80x2_nvfp4_linear_bf16_tcgen05; do %ptxas -arch=sm_100a -v %t/$s/$k.ptx -o %t/$s/$k.cubin 2>&1; done; done | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning --implicit-check-not=error
//
// RUN: FileCheck %s --check-prefix=JSON8 < %t/s8/nvfp4_gemv_4096x7168x2_mxfp4_linear_f16_tcgen05.json

// A K128 stage of a is two 128 x 32-byte boxes, one a K64 slab, counted
// by one full barrier (8192 bytes).
// MXPTX: mbarrier.arrive.expect_tx.shared.b64
// MXPTX-COUNT-2: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// MXPTX: tcgen05.cp.cta_group::1.32x128b.warpx4
// MXPTX: tcgen05.cp.cta_group::1.32x128b.warpx4
// MXPTX: mov.b32 {{%r[0-9]+}}, 142738560;
// MXPTX-NEXT: tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32.collector::a::discard
// MXPTX: mov.b32 {{%r[0-9]+}}, 1216480416;
// MXPTX-NEXT: tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32.collector::a::discard
// MXPTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64

// TAILPTX: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 8, {{%r[0-9]+}};
// TAILPTX: ld.global.b8
// TAILPTX: tcgen05.cp.cta_group::1.32x128b.warpx4
// TAILPTX: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16
// TAILPTX: cvt.rn.bf16.f32

// Three kernels for each of the three ring sizes.
// PTXAS-COUNT-9: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// Eight MXFP4 slots of 9728 bytes need more than 48 KiB of dynamic shared
// memory (the runner opts in above 48 KiB; 16 mbarriers: a's tensor copies
// have their own) and 8 + 8 x 8 = 72 TMEM columns.
// JSON8-DAG: "shared_bytes": 77968,
// JSON8-DAG: "tmem_columns": 128

func.func @odd(%a: memref<2x200x40xi8>, %sfa: memref<2x200x5xf8E4M3FN>,
    %b: memref<2x40xi8>, %sfb: memref<2x5xf8E4M3FN>, %c: memref<2x200xbf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x200x40xi8>, memref<2x200x5xf8E4M3FN>, memref<2x40xi8>,
        memref<2x5xf8E4M3FN> into memref<2x200xbf16>
  return
}

func.func @mx_linear(%a: memref<2x4096x3584xi8>, %sfa: memref<2x4096x224xf8E8M0FNU>,
    %b: memref<2x3584xi8>, %sfb: memref<2x224xf8E8M0FNU>, %c: memref<2x4096xf16>,
    %alpha: f32) {
  nvfp4.gemv <mxfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<2x4096x3584xi8>, memref<2x4096x224xf8E8M0FNU>, memref<2x3584xi8>,
        memref<2x224xf8E8M0FNU> into memref<2x4096xf16>
  return
}

func.func @mx_blocked(%a: memref<4x7168x1024xi8>, %sfa: memref<4x56x16x512xf8E8M0FNU>,
    %b: memref<4x1024xi8>, %sfb: memref<4x1x16x512xf8E8M0FNU>, %c: memref<4x7168xf32>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<4x7168x1024xi8>, memref<4x56x16x512xf8E8M0FNU>, memref<4x1024xi8>,
        memref<4x1x16x512xf8E8M0FNU> into memref<4x7168xf32>
  return
}
