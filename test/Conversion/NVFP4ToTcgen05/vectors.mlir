// RUN: nvfp4-opt %s -split-input-file --convert-nvfp4-to-tcgen05="stages=2 tma-copies=false" --canonicalize --cse | FileCheck %s

// N packed vectors (b [L, N, K/2]) are the B operand of one MMA of N = 8
// (up to 8 vectors) or 16 (9 to 16): vector n is B row n, its scales row n
// of the sfb atom, its result D column n, stored to c[l, n, m].

// N = 9, NVFP4 linear, K = 1024: an N = 16 MMA (0x08040480). B: 16 rows
// x 32 bytes a stage (512 bytes), threads 0..17 copy two 16-byte chunks of
// each of the 9 vectors; threads 18..26 copy the 9 vectors' scale words to
// rows 0..8 of the sfb atom (byte 16 n) and check their signs (a mask
// word of negative vectors: a negative scale of vector n gives NaN in
// vector n only). TMEM: D in
// columns 0-15, then 2 x 2 x 4 scale columns: 32.
// CHECK-LABEL: func.func @n9
// CHECK: dynamic_shared_memory_size %c11296_i32
// CHECK-SAME: mma_shape = [128, 16, 64]
// CHECK: gpu.func @nvfp4_gemv_128x1024x1_n9_nvfp4_linear_f32_tcgen05
// CHECK-DAG: %[[IDESC:.*]] = arith.constant 134481024 : i32
// CHECK: nvvm.tcgen05.alloc %{{.*}}, %c32_i32
// CHECK: %[[BTHREAD:.*]] = arith.cmpi ult, %thread_id_x, %c18 : index
// CHECK-NEXT: scf.if %[[BTHREAD]] {
// CHECK-NEXT: %[[LB:.*]] = arith.muli %block_id_y, %c9 : index
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[LB]], %{{.*}} : index
// CHECK-NEXT: arith.muli %[[ROW]], %c512 : index
// CHECK: arith.addi %{{.*}}, %c4096 : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = ca
// CHECK: %[[FROM:.*]] = arith.cmpi uge, %thread_id_x, %c18 : index
// CHECK-NEXT: %[[TO:.*]] = arith.cmpi ult, %thread_id_x, %c27 : index
// CHECK-NEXT: %[[SFBT:.*]] = arith.andi %[[FROM]], %[[TO]] : i1
// CHECK-NEXT: scf.if %[[SFBT]] {
// CHECK-NEXT: %[[VEC:.*]] = arith.subi %thread_id_x, %c18 : index
// CHECK: arith.muli %{{.*}}, %c16 : index
// CHECK: arith.addi %{{.*}}, %[[VEC]] : index
// CHECK: arith.muli %{{.*}}, %c64 : index
// CHECK: arith.addi %{{.*}}, %c5120 : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK: scf.for
// The sign check of the vectors' words: the thread of vector v sets bit v
// of the mask word after the TMEM address slot (11280 + 4) with an atomic
// OR; then a plain barrier.
// CHECK: scf.if %[[SFBT]] {
// CHECK: %[[BIT:.*]] = arith.shli %c1_i32, %{{.*}} : i32
// CHECK: %[[SET:.*]] = arith.select %{{.*}}, %[[BIT]], %c0_i32 : i32
// CHECK: %[[MASKP:.*]] = llvm.getelementptr %{{.*}}[11284]
// CHECK: llvm.atomicrmw _or %[[MASKP]], %[[SET]] monotonic
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.tcgen05.mma.block_scale %{{.*}}, %{{.*}}, %{{.*}}, %[[IDESC]],
// Epilogue: nine column loads, one wait, nine stores; vector n's results
// are NaN when the row met a negative scale or bit n of the mask is set.
// CHECK-COUNT-9: nvvm.tcgen05.ld
// CHECK-NOT: nvvm.tcgen05.ld
// CHECK: nvvm.tcgen05.wait <load>
// CHECK: %[[MASK:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK: arith.andi %[[MASK]], %c1_i32 : i32
// CHECK: arith.andi %[[MASK]], %c2_i32 : i32
// CHECK: arith.andi %[[MASK]], %c256_i32 : i32
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c0, %[[R:.*]]] : memref<1x9x128xf32>
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c1, %[[R]]] : memref<1x9x128xf32>
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c2, %[[R]]] : memref<1x9x128xf32>
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c3, %[[R]]] : memref<1x9x128xf32>
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c4, %[[R]]] : memref<1x9x128xf32>
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c5, %[[R]]] : memref<1x9x128xf32>
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c6, %[[R]]] : memref<1x9x128xf32>
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c7, %[[R]]] : memref<1x9x128xf32>
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c8, %[[R]]] : memref<1x9x128xf32>
// CHECK-NEXT: }
func.func @n9(%a: memref<1x128x512xi8>, %sfa: memref<1x128x64xf8E4M3FN>,
    %b: memref<1x9x512xi8>, %sfb: memref<1x9x64xf8E4M3FN>,
    %c: memref<1x9x128xf32>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x128x512xi8>, memref<1x128x64xf8E4M3FN>, memref<1x9x512xi8>,
        memref<1x9x64xf8E4M3FN> into memref<1x9x128xf32>
  return
}

// -----

// N = 2, MXFP4 blocked: two N = 8 MMAs a stage (0x08820480, 0x488204A0);
// the sfb words come from rows 0 and 1 of the batch's one-row-block atom.
// CHECK-LABEL: func.func @n2_mxfp4
// CHECK: mma_shape = [128, 8, 64]
// CHECK: gpu.func @nvfp4_gemv_200x1024x2_n2_mxfp4_blocked128x4_f16_tcgen05
// CHECK-DAG: arith.constant 142738560 : i32
// CHECK-DAG: arith.constant 1216480416 : i32
// CHECK: arith.cmpi ult, %thread_id_x, %c8 : index
// CHECK: arith.cmpi uge, %thread_id_x, %c8 : index
// CHECK-NEXT: arith.cmpi ult, %thread_id_x, %c10 : index
// CHECK-COUNT-2: nvvm.tcgen05.mma.block_scale
// CHECK-COUNT-2: nvvm.tcgen05.ld
// CHECK-NOT: nvvm.tcgen05.ld
// CHECK: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c0, %[[R:.*]]] : memref<2x2x200xf16>
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c1, %[[R]]] : memref<2x2x200xf16>
// CHECK-NEXT: }
func.func @n2_mxfp4(%a: memref<2x200x512xi8>, %sfa: memref<2x2x8x512xf8E8M0FNU>,
    %b: memref<2x2x512xi8>, %sfb: memref<2x1x8x512xf8E8M0FNU>,
    %c: memref<2x2x200xf16>) {
  nvfp4.gemv <mxfp4> <blocked128x4> %a, %sfa, %b, %sfb into %c
      : memref<2x200x512xi8>, memref<2x2x8x512xf8E8M0FNU>, memref<2x2x512xi8>,
        memref<2x1x8x512xf8E8M0FNU> into memref<2x2x200xf16>
  return
}

// -----

// N = 16, NVFP4 linear, K = 80: 8-byte copies, 4 a vector, so threads 0..63
// copy B and threads 64..79 the sfb words, byte by byte (K/16 = 5 scales a
// row: not 4-byte aligned).
// CHECK-LABEL: func.func @n16_tails
// CHECK: mma_shape = [128, 16, 64]
// CHECK: gpu.func @nvfp4_gemv_200x80x2_n16_nvfp4_linear_bf16_tcgen05
// CHECK: arith.constant 134481024 : i32
// CHECK: arith.cmpi ult, %thread_id_x, %c64 : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca, %{{.*}}
// CHECK: arith.cmpi uge, %thread_id_x, %c64 : index
// CHECK-NEXT: arith.cmpi ult, %thread_id_x, %c80 : index
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<1> -> i8
// CHECK-COUNT-16: nvvm.tcgen05.ld
// CHECK-NOT: nvvm.tcgen05.ld
// CHECK-COUNT-16: memref.store
// CHECK-NOT: memref.store
func.func @n16_tails(%a: memref<2x200x40xi8>, %sfa: memref<2x200x5xf8E4M3FN>,
    %b: memref<2x16x40xi8>, %sfb: memref<2x16x5xf8E4M3FN>,
    %c: memref<2x16x200xbf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<2x200x40xi8>, memref<2x200x5xf8E4M3FN>, memref<2x16x40xi8>,
        memref<2x16x5xf8E4M3FN> into memref<2x16x200xbf16>
  return
}

// -----

// N = 1 with the vector dimension (b [L, 1, K/2], c [L, 1, M]): the
// one-vector kernel's MMA (N = 8), stored through c's vector index 0.
// CHECK-LABEL: func.func @n1_dim
// CHECK: mma_shape = [128, 8, 64]
// CHECK: gpu.func @nvfp4_gemv_128x64x1_n1_nvfp4_linear_f16_tcgen05
// CHECK: arith.constant 134349952 : i32
// CHECK: nvvm.tcgen05.ld
// CHECK-NOT: nvvm.tcgen05.ld
// CHECK: memref.store %{{.*}}, %{{.*}}[%block_id_y, %c0, %{{.*}}] : memref<1x1x128xf16>
// CHECK-NOT: memref.store
func.func @n1_dim(%a: memref<1x128x32xi8>, %sfa: memref<1x128x4xf8E4M3FN>,
    %b: memref<1x1x32xi8>, %sfb: memref<1x1x4xf8E4M3FN>,
    %c: memref<1x1x128xf16>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x128x32xi8>, memref<1x128x4xf8E4M3FN>, memref<1x1x32xi8>,
        memref<1x1x4xf8E4M3FN> into memref<1x1x128xf16>
  return
}
