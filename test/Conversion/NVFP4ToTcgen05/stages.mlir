// RUN: nvfp4-opt %s --convert-nvfp4-to-tcgen05="stages=1 tma-copies=false" --canonicalize --cse | FileCheck %s --check-prefix=ONE
// RUN: nvfp4-opt %s --convert-nvfp4-to-tcgen05="stages=2 tma-copies=false" --canonicalize --cse | FileCheck %s --check-prefix=TWO

// One slot: wait for the previous stage's MMAs, load, wait for the copies,
// multiply; no overlap. 32 TMEM columns: D plus one sfa and one sfb atom.
// ONE: shared_bytes = 5392 : i64
// ONE: nvvm.tcgen05.alloc %{{.*}}, %c32_i32
// ONE: scf.for %[[J:.*]] = %c0 to %c8 step %c1 {
// ONE-NEXT: %[[NOTFIRST:.*]] = arith.cmpi uge, %[[J]], %c1 : index
// ONE-NEXT: scf.if %[[NOTFIRST]] {
// ONE: nvvm.mbarrier.try_wait
// ONE: }
// ONE: nvvm.cp.async.shared.global
// ONE: nvvm.cp.async.commit.group
// ONE-NEXT: nvvm.cp.async.wait.group 0
// ONE: nvvm.fence.proxy
// ONE-NEXT: nvvm.barrier #nvvm.reduction<or>
// ONE: nvvm.tcgen05.mma.block_scale
// ONE: nvvm.tcgen05.commit
// ONE: }
// ONE: %[[LAST:.*]] = llvm.getelementptr %{{.*}}[5376] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// ONE-NEXT: scf.while
// ONE-NEXT: nvvm.mbarrier.try_wait %[[LAST]], %c1_i32

// Two slots: one stage in flight while the other is multiplied.
// TWO: shared_bytes = 10784 : i64
// TWO: nvvm.cp.async.commit.group
// TWO-NEXT: scf.for
// TWO: nvvm.cp.async.wait.group 0
// TWO: nvvm.tcgen05.mma.block_scale
// TWO: nvvm.tcgen05.commit
// TWO: nvvm.mbarrier.try_wait
// TWO: nvvm.cp.async.commit.group
func.func @gemv(%a: memref<1x128x256xi8>, %sfa: memref<1x128x32xf8E4M3FN>,
    %b: memref<1x256xi8>, %sfb: memref<1x32xf8E4M3FN>, %c: memref<1x128xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x128x256xi8>, memref<1x128x32xf8E4M3FN>, memref<1x256xi8>,
        memref<1x32xf8E4M3FN> into memref<1x128xf32>
  return
}
