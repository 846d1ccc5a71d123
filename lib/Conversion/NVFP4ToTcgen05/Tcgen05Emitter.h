//===- Tcgen05Emitter.h - builds the tcgen05 GEMV kernel body ---*- C++ -*-===//
//
// The state and the pieces of the kernel body; Tcgen05Kernel.cpp builds the
// set-up, the pipeline, the MMA issue and the epilogue, Tcgen05Staging.cpp
// the global-to-shared copies of one stage. Docs: docs/tcgen05.md.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_LIB_CONVERSION_NVFP4TOTCGEN05_TCGEN05EMITTER_H
#define NVFP4_LIB_CONVERSION_NVFP4TOTCGEN05_TCGEN05EMITTER_H

#include "Tcgen05IR.h"
#include "nvfp4/Support/Tcgen05Plan.h"

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::nvfp4::tc5 {

/// Fills the empty body of `kernel` (arguments a, sfa, b, sfb, c [, alpha]
/// with the types of `op`'s operands, then the i64 address of each of
/// plan.tensorMaps()) with the tcgen05 GEMV of `plan`.
void buildTcgen05GemvKernelBody(OpBuilder &b, gpu::GPUFuncOp kernel, GemvOp op,
                                const ::nvfp4::tcgen05::plan::GemvPlan &plan);

struct KernelEmitter {
  OpBuilder &b;
  Location loc;
  const ::nvfp4::tcgen05::plan::GemvPlan &plan;

  KernelEmitter(OpBuilder &builder, Location l,
                const ::nvfp4::tcgen05::plan::GemvPlan &p)
      : b(builder), loc(l), plan(p) {}

  // Kernel arguments.
  Value cMem, alpha;
  // Global base pointers (!llvm.ptr<1>).
  Value aBase, sfaBase, bBase, sfbBase;
  // index values.
  Value tid, warp, batch, rowTile;
  // Dynamic shared memory: !llvm.ptr<3> and its i32 shared-window address.
  Value smem, smem32;
  // Tensor-memory base address (i32) returned by tcgen05.alloc.
  Value tmem;
  // NVFP4: !llvm.ptr to the thread's i32 "negative scale seen" flag.
  Value signFlag;
  // Tensor copies: the maps' nvgpu descriptors (null when the plan copies
  // that operand with the threads) and the slots' full barriers.
  Value aMap, sfaMap, fullBarriers;

  IV iv(Value v) { return IV(b, loc, v); }
  Value idx(int64_t v) { return constIndex(b, loc, v); }
  /// !llvm.ptr<3> at byte `offset` (index) of the dynamic shared memory.
  Value smemAt(Value offset) { return byteAddress(b, loc, smem, offset); }
  /// i32 shared-window address of byte `offset` (index).
  Value smemAddress(Value offset);
  Value cmpIndex(arith::CmpIPredicate pred, Value x, int64_t c);
  /// Whether thread `t` copies (and checks) a vector's scales: t in
  /// [sfbThread(), sfbThread() + vectors).
  Value isSfbThread(Value t);
  /// Builds `body` under `scf.if cond`.
  void ifThen(Value cond, llvm::function_ref<void()> body);
  /// Builds `body(i)` in an scf.for over [lo, hi).
  void forLoop(int64_t lo, int64_t hi, llvm::function_ref<void(Value)> body);

  // Tcgen05Staging.cpp
  /// All threads issue the cp.async (or, for unaligned linear scales, the
  /// loads and stores) of stage `stage` into ring slot `slot` (index values);
  /// thread 0 the tensor copies, counted by the slot's full barrier.
  void emitStageCopies(Value stage, Value slot);
  void emitTensorCopies(Value stage, Value slot);

  // Tcgen05Kernel.cpp
  void emitSetup();
  /// One elected thread of warp 0: scales to TMEM, the MMAs of `stage`,
  /// commit to the slot's mbarrier.
  void emitIssueMma(Value stage, Value slot);
  void emitIssueMmaElected(Value stage, Value slot);
  /// All threads wait for the commit of stage `stage` (index).
  void emitWaitMma(Value stage);
  /// Own cp.async groups done (at most `pending` left), the tensor copies
  /// of stage `stage` landed (full barrier), generic-proxy writes made
  /// visible to the async proxy, CTA barrier; for NVFP4 the sign check of
  /// the scales in ring slot `slot` (index).
  void emitStageLanded(int64_t pending, Value stage, Value slot);
  void emitPipeline();
  void emitEpilogue();
};

} // namespace mlir::nvfp4::tc5

#endif // NVFP4_LIB_CONVERSION_NVFP4TOTCGEN05_TCGEN05EMITTER_H
