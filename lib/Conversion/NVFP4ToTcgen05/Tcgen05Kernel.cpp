//===- Tcgen05Kernel.cpp - the tcgen05 GEMV kernel body -------------------===//
//
// A CTA of 128 threads (4 warps) owns 128 rows of one batch (grid: row tiles
// x L). The N vectors of b are the B operand of tcgen05.mma, padded to the
// MMA's N (8 or 16) with zero rows; the accumulator D[128 x N] f32 lives in
// tensor memory, column n is the result of vector n. K is walked in stages of
// one 128x4 scale atom column (64 values for NVFP4, 128 for MXFP4) through a
// ring of `stages` shared-memory slots filled by cp.async and, where the shape
// allows, by tensor copies (nvgpu.tma.async.load of A's slabs and blocked sfa
// atoms, counted by the slot's "full" mbarrier); thread 0 copies each stage's
// scale atoms to tensor memory (tcgen05.cp 32x128b warpx4), issues the stage's
// MMAs and commits them to the slot's mbarrier, which gates the slot's reuse.
// The epilogue reads D with tcgen05.ld 32x32b (warp w: lanes 32w..32w+31),
// scales by alpha, rounds and stores. The synchronization argument is in
// docs/tcgen05.md.
//
//===----------------------------------------------------------------------===//

#include "Tcgen05Emitter.h"

#include "nvfp4/Conversion/Common/GemvOutlining.h"
#include "nvfp4/Conversion/Common/TensorMapIR.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::nvfp4::tc5;
namespace plan = ::nvfp4::tcgen05::plan;

/// The kernel's dynamic shared memory (dynamicSharedMemory).
static constexpr llvm::StringLiteral kSharedSymbol = "__nvfp4_tcgen05_smem";
/// The 32-byte swizzle pattern of the A and B tiles repeats every 256 bytes
/// from an aligned address; 1024 covers every swizzle mode.
static constexpr uint64_t kSharedAlignment = 1024;

Value KernelEmitter::smemAddress(Value offset) {
  return b.createOrFold<arith::AddIOp>(loc, smem32, toI32(b, loc, offset));
}

Value KernelEmitter::cmpIndex(arith::CmpIPredicate pred, Value x, int64_t c) {
  return b.createOrFold<arith::CmpIOp>(loc, pred, x, idx(c));
}

Value KernelEmitter::isSfbThread(Value t) {
  if (plan.vectors == 1)
    return cmpIndex(arith::CmpIPredicate::eq, t, plan.sfbThread());
  Value from = cmpIndex(arith::CmpIPredicate::uge, t, plan.sfbThread());
  Value to =
      cmpIndex(arith::CmpIPredicate::ult, t, plan.sfbThread() + plan.vectors);
  return b.createOrFold<arith::AndIOp>(loc, from, to);
}

void KernelEmitter::ifThen(Value cond, llvm::function_ref<void()> body) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

void KernelEmitter::forLoop(int64_t lo, int64_t hi,
                            llvm::function_ref<void(Value)> body) {
  auto loop = scf::ForOp::create(b, loc, idx(lo), idx(hi), idx(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

void KernelEmitter::emitSetup() {
  MLIRContext *ctx = b.getContext();
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  warp = iv(tid) / ::nvfp4::kWarpSize;
  rowTile = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  batch = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);

  // Dynamic shared memory (the launch passes plan.sharedBytes()).
  smem32 = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), smem);
  if (plan.checksScaleSigns()) {
    // One flag a thread, set when a scale of its row or of the vector is
    // negative (with several vectors: of its row; the vectors' go to the
    // mask word) (a register once LLVM promotes the slot: it is in the
    // entry block).
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    signFlag = LLVM::AllocaOp::create(b, loc, ptrType, b.getI32Type(),
                                      constI32(b, loc, 1), /*alignment=*/4);
    LLVM::StoreOp::create(b, loc, constI32(b, loc, 0), signFlag);
  }

  // Zero the ring once: the B rows past the vectors (N..mmaN-1) of every B
  // tile and the sfb atom's rows past the vectors are never written again
  // (the MMA reads them as N padding, into D columns that are not stored).
  int64_t perPass = plan::kThreads * 16;
  int64_t ring = plan.ringBytes();
  auto vecType = VectorType::get({4}, b.getI32Type());
  Value zeros = LLVM::ConstantOp::create(
      b, loc, vecType, DenseElementsAttr::get(vecType, b.getI32IntegerAttr(0)));
  forLoop(0, ::nvfp4::layout::ceilDiv(ring, perPass), [&](Value pass) {
    IV offset = iv(pass) * perPass + iv(tid) * 16;
    auto store = [&] {
      LLVM::StoreOp::create(b, loc, zeros, smemAt(offset), /*alignment=*/16);
    };
    if (ring % perPass)
      ifThen(cmpIndex(arith::CmpIPredicate::ult, offset, ring), store);
    else
      store();
  });

  if (plan.usesTma())
    fullBarriers = sharedBarrierGroup(
        b, loc, smemAt(idx(plan.fullBarrierOffset(0))), plan.stages);
  ifThen(cmpIndex(arith::CmpIPredicate::eq, tid, 0), [&] {
    for (int64_t slot = 0; slot < plan.stages; ++slot)
      NVVM::MBarrierInitOp::create(b, loc,
                                   smemAt(idx(plan.barrierOffset(slot))),
                                   constI32(b, loc, 1), Value());
    // A full barrier completes when thread 0 has armed it and the bytes it
    // announced have landed.
    if (fullBarriers)
      for (int64_t slot = 0; slot < plan.stages; ++slot)
        nvgpu::MBarrierInitOp::create(b, loc, fullBarriers, idx(1), idx(slot),
                                      Value());
    if (plan.hasVectorSignMask())
      LLVM::StoreOp::create(b, loc, constI32(b, loc, 0),
                            smemAt(idx(plan.vectorSignMaskOffset())));
    NVVM::FenceMbarrierInitOp::create(b, loc);
    for (Value map : {aMap, sfaMap})
      if (map)
        nvgpu::TmaPrefetchOp::create(b, loc, map, Value());
  });
  auto cta1 = NVVM::CTAGroupKindAttr::get(ctx, NVVM::CTAGroupKind::CTA_1);
  ifThen(cmpIndex(arith::CmpIPredicate::eq, warp, 0), [&] {
    NVVM::Tcgen05AllocOp::create(b, loc, smemAt(idx(plan.tmemSlotOffset())),
                                 constI32(b, loc, plan.tmemAllocColumns()),
                                 cta1);
    NVVM::Tcgen05RelinquishAllocPermitOp::create(b, loc, cta1);
  });
  // The zeros are generic-proxy writes the tensor core reads later.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  NVVM::Tcgen05FenceOp::create(
      b, loc,
      NVVM::Tcgen05FenceKindAttr::get(
          ctx, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC));
  gpu::BarrierOp::create(b, loc);
  NVVM::Tcgen05FenceOp::create(
      b, loc,
      NVVM::Tcgen05FenceKindAttr::get(
          ctx, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC));
  tmem = LLVM::LoadOp::create(b, loc, b.getI32Type(),
                              smemAt(idx(plan.tmemSlotOffset())));
}

void KernelEmitter::emitStageLanded(int64_t pending, Value stage, Value slot) {
  MLIRContext *ctx = b.getContext();
  NVVM::CpAsyncWaitGroupOp::create(b, loc, b.getI32IntegerAttr(pending));
  // The tensor copies' writes are visible to every thread that observed
  // the phase complete.
  if (fullBarriers)
    mbarrierWaitParity(
        b, loc,
        smemAt(plan.fullBarrierOffset(0) + iv(slot) * ::nvfp4::kMbarrierBytes),
        toI32(b, loc, plan.parityOf(iv(stage))));
  // Each thread's own copies are now visible to it: thread t checks the
  // signs of row t's scales, thread sfbThread() + v those of vector v.
  Value sfaSigns, sfbSigns;
  if (plan.checksScaleSigns()) {
    Value signBits = constI32(b, loc, plan::GemvPlan::kScaleSignBits);
    auto loadSigns = [&](IV offset) {
      Value word = LLVM::LoadOp::create(b, loc, b.getI32Type(), smemAt(offset),
                                        /*alignment=*/4);
      return arith::AndIOp::create(b, loc, word, signBits).getResult();
    };
    sfaSigns = loadSigns(plan.sfaWordOffset(iv(tid), iv(slot)));
    if (plan.hasVectorSignMask()) {
      // Several vectors: the thread of vector v sets bit v of the mask
      // (atomic OR); every thread reads the mask after the last stage
      // barrier, which orders all of these before it.
      ifThen(isSfbThread(tid), [&] {
        IV vec = iv(tid) - plan.sfbThread();
        Value negative = b.createOrFold<arith::CmpIOp>(
            loc, arith::CmpIPredicate::ne,
            loadSigns(plan.sfbWordOffset(vec, iv(slot))), constI32(b, loc, 0));
        Value bit = arith::ShLIOp::create(b, loc, constI32(b, loc, 1),
                                          toI32(b, loc, vec));
        Value set =
            arith::SelectOp::create(b, loc, negative, bit, constI32(b, loc, 0));
        LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::_or,
                                  smemAt(idx(plan.vectorSignMaskOffset())), set,
                                  LLVM::AtomicOrdering::monotonic);
      });
    } else {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{b.getI32Type()},
                                    isSfbThread(tid), /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc, loadSigns(plan.sfbWordOffset(iv(slot))));
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, constI32(b, loc, 0));
      sfbSigns = ifOp.getResult(0);
    }
  }
  // cp.async and st.shared write through the generic proxy; tcgen05.cp and
  // tcgen05.mma read through the async proxy.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  if (!plan.checksScaleSigns()) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  if (plan.hasVectorSignMask()) {
    gpu::BarrierOp::create(b, loc);
    Value flag = LLVM::LoadOp::create(b, loc, b.getI32Type(), signFlag);
    flag = arith::OrIOp::create(b, loc, flag, sfaSigns);
    LLVM::StoreOp::create(b, loc, flag, signFlag);
    return;
  }
  // The CTA barrier doubles as the OR of the vector's sign check
  // (bar.red.or.pred): no extra synchronization.
  Value vectorNegative =
      NVVM::BarrierOp::create(
          b, loc, b.getI32Type(), Value(), Value(),
          NVVM::BarrierReductionAttr::get(ctx, NVVM::BarrierReduction::OR),
          sfbSigns)
          .getRes();
  Value flag = LLVM::LoadOp::create(b, loc, b.getI32Type(), signFlag);
  flag = arith::OrIOp::create(b, loc, flag, sfaSigns);
  flag = arith::OrIOp::create(b, loc, flag, vectorNegative);
  LLVM::StoreOp::create(b, loc, flag, signFlag);
}

void KernelEmitter::emitWaitMma(Value stage) {
  IV s = iv(stage);
  mbarrierWaitParity(b, loc, smemAt(plan.barrierOffsetOf(plan.slotOf(s))),
                     toI32(b, loc, plan.parityOf(s)));
}

void KernelEmitter::emitIssueMma(Value stage, Value slot) {
  // One thread of warp 0 issues (elect.sync elects the same lane every
  // time for the same mask, so every commit tracks all earlier MMAs).
  ifThen(cmpIndex(arith::CmpIPredicate::eq, warp, 0), [&] {
    ifThen(NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value()),
           [&] { emitIssueMmaElected(stage, slot); });
  });
}

void KernelEmitter::emitIssueMmaElected(Value stage, Value slot) {
  MLIRContext *ctx = b.getContext();
  NVVM::Tcgen05FenceOp::create(
      b, loc,
      NVVM::Tcgen05FenceKindAttr::get(
          ctx, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC));
  auto cta1 = NVVM::CTAGroupKindAttr::get(ctx, NVVM::CTAGroupKind::CTA_1);
  IV s = iv(slot);
  IV slotStart = s * plan.slotBytes();

  // Scale atoms: shared memory -> this slot's TMEM columns, replicated
  // into the four 32-lane partitions.
  auto copyAtom = [&](int64_t atomOffset, IV column) {
    Value desc = smemDescriptor(b, loc, plan.scaleCopyDescConstant(),
                                smemAddress(slotStart + atomOffset));
    NVVM::Tcgen05CpOp::create(
        b, loc,
        NVVM::Tcgen05CpShapeAttr::get(ctx, NVVM::Tcgen05CpShape::SHAPE_32x128b),
        cta1,
        NVVM::Tcgen05CpMulticastAttr::get(ctx,
                                          NVVM::Tcgen05CpMulticast::WARPX4),
        NVVM::Tcgen05CpSrcFormatAttr(),
        tmemPointer(b, loc, tmem, toI32(b, loc, column)), desc);
  };
  copyAtom(plan.sfaOffset(), plan.sfaColumnOf(s));
  copyAtom(plan.sfbOffset(), plan.sfbColumnOf(s));

  auto kind = NVVM::MMABlockScaleKindAttr::get(
      ctx, plan.mxfp4 ? NVVM::MMABlockScaleKind::MXF4
                      : NVVM::MMABlockScaleKind::MXF4NVF4);
  auto blockScale = NVVM::Tcgen05MMABlockScaleAttr::get(
      ctx, plan.mxfp4 ? NVVM::Tcgen05MMABlockScale::BLOCK32
                      : NVVM::Tcgen05MMABlockScale::BLOCK16);
  auto collector = NVVM::Tcgen05MMACollectorOpAttr::get(
      ctx, NVVM::Tcgen05MMACollectorOp::DISCARD);
  Value d = tmemPointer(b, loc, tmem, constI32(b, loc, plan.dColumn()));
  // D = A.B on the first K64 step of the row, D += A.B afterwards.
  Value notFirstStage = cmpIndex(arith::CmpIPredicate::ne, stage, 0);
  Value trueValue = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (int64_t step = 0; step < plan.mmasPerStage(); ++step) {
    Value aDesc =
        smemDescriptor(b, loc, plan.aDescConstant(),
                       smemAddress(slotStart + plan.aStepOffset(step)));
    Value bDesc =
        smemDescriptor(b, loc, plan.bDescConstant(),
                       smemAddress(slotStart + plan.bStepOffset(step)));
    Value idesc = constI32(b, loc, plan.instrDesc(step));
    Value sfa = tmemPointer(
        b, loc, tmem,
        toI32(b, loc, plan.sfaColumnOf(s) + plan.scaleStepColumn(step)));
    Value sfb = tmemPointer(
        b, loc, tmem,
        toI32(b, loc, plan.sfbColumnOf(s) + plan.scaleStepColumn(step)));
    NVVM::Tcgen05MMABlockScaleOp::create(
        b, loc, kind, cta1, blockScale, collector, d, aDesc, bDesc, idesc,
        step == 0 ? notFirstStage : trueValue, sfa, sfb);
  }
  // Arrives on the slot's mbarrier when the copies and MMAs above are done.
  NVVM::Tcgen05CommitOp::create(b, loc, smemAt(plan.barrierOffsetOf(s)),
                                Value(), cta1);
}

void KernelEmitter::emitPipeline() {
  int64_t n = plan.kStages();
  int64_t ahead = plan.prefetch();
  if (plan.stages == 1) {
    // Load, multiply, wait: no overlap.
    forLoop(0, n, [&](Value j) {
      ifThen(cmpIndex(arith::CmpIPredicate::uge, j, 1),
             [&] { emitWaitMma(iv(j) - 1); });
      emitStageCopies(j, idx(0));
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
      emitStageLanded(0, j, idx(0));
      emitIssueMma(j, idx(0));
    });
    return;
  }
  // Prologue: stages 0..ahead-1, one cp.async group each (empty groups keep
  // the count uniform when K is short).
  for (int64_t s = 0; s < ahead; ++s) {
    if (s < n)
      emitStageCopies(idx(s), idx(s));
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }
  forLoop(0, n, [&](Value j) {
    // Groups 0..j+ahead-1 are committed; group j is stage j.
    IV slot = plan.slotOf(iv(j));
    emitStageLanded(ahead - 1, j, slot);
    emitIssueMma(j, slot);
    // Refill the slot of stage j - 1 with stage j + ahead once the MMAs of
    // j - 1 have completed (they read its shared memory and TMEM columns).
    IV next = iv(j) + ahead;
    ifThen(cmpIndex(arith::CmpIPredicate::ult, next, n), [&] {
      ifThen(cmpIndex(arith::CmpIPredicate::uge, j, 1),
             [&] { emitWaitMma(iv(j) - 1); });
      emitStageCopies(next, plan.slotOf(next));
    });
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  });
}

void KernelEmitter::emitEpilogue() {
  MLIRContext *ctx = b.getContext();
  // The last commit covers every earlier MMA of thread 0.
  emitWaitMma(idx(plan.kStages() - 1));
  NVVM::Tcgen05FenceOp::create(
      b, loc,
      NVVM::Tcgen05FenceKindAttr::get(
          ctx, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC));
  // Warp w reads lanes 32w..32w+31 of column n (vector n): thread t gets
  // row t. One .x1 load a vector; the D columns past the vectors are
  // padding and never read.
  SmallVector<Value> words;
  for (int64_t vec = 0; vec < plan.vectors; ++vec) {
    Value addr = tmemPointer(
        b, loc, tmem, toI32(b, loc, plan.resultTmemOffset(iv(tid), vec)));
    words.push_back(NVVM::Tcgen05LdOp::create(
        b, loc, b.getI32Type(), UnitAttr(),
        NVVM::Tcgen05LdStShapeAttr::get(ctx,
                                        NVVM::Tcgen05LdStShape::SHAPE_32X32B),
        addr, Value()));
  }
  NVVM::Tcgen05WaitOp::create(
      b, loc, NVVM::Tcgen05WaitKindAttr::get(ctx, NVVM::Tcgen05WaitKind::LOAD));
  // The register tcgen05.ld writes may only be read after tcgen05.wait::ld,
  // but to LLVM it is an ordinary SSA value that arithmetic could be
  // scheduled above the wait. A side-effecting move pins the first use
  // after the wait.
  for (Value &word : words)
    word = LLVM::InlineAsmOp::create(
               b, loc, b.getI32Type(), ValueRange{word}, "mov.b32 $0, $1;",
               "=r,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
               LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
               .getResult(0);
  Value negative, nan; // built after the first result's bitcast
  // Several vectors: bit n of the mask says a scale of vector n was
  // negative (the last stage barrier ordered every atomic OR before this).
  Value vectorMask;
  Type outType = cast<MemRefType>(cMem.getType()).getElementType();
  SmallVector<Value> results;
  for (auto [vec, word] : llvm::enumerate(words)) {
    Value result = arith::BitcastOp::create(b, loc, b.getF32Type(), word);
    if (signFlag && !negative) {
      Value flag = LLVM::LoadOp::create(b, loc, b.getI32Type(), signFlag);
      negative = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                               flag, constI32(b, loc, 0));
      nan = arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(std::numeric_limits<float>::quiet_NaN()));
      if (plan.hasVectorSignMask())
        vectorMask = LLVM::LoadOp::create(
            b, loc, b.getI32Type(), smemAt(idx(plan.vectorSignMaskOffset())),
            /*alignment=*/4);
    }
    Value nanHere = negative;
    if (vectorMask) {
      Value bit = arith::AndIOp::create(
          b, loc, vectorMask, constI32(b, loc, int64_t(1) << int64_t(vec)));
      Value vectorNegative = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne, bit, constI32(b, loc, 0));
      nanHere = arith::OrIOp::create(b, loc, negative, vectorNegative);
    }
    if (signFlag)
      result = arith::SelectOp::create(b, loc, nanHere, nan, result);
    if (alpha)
      result = arith::MulFOp::create(b, loc, result, alpha);
    if (outType != result.getType())
      result = arith::TruncFOp::create(b, loc, outType, result);
    results.push_back(result);
  }
  IV row = iv(rowTile) * plan::kTileRows + iv(tid);
  bool vectorDim = cast<MemRefType>(cMem.getType()).getRank() == 3;
  ifThen(cmpIndex(arith::CmpIPredicate::ult, row, plan.m), [&] {
    for (auto [vec, result] : llvm::enumerate(results)) {
      if (vectorDim)
        memref::StoreOp::create(b, loc, result, cMem,
                                ValueRange{batch, idx(int64_t(vec)), row});
      else
        memref::StoreOp::create(b, loc, result, cMem, ValueRange{batch, row});
    }
  });

  // Every warp's tcgen05.ld is complete (wait::ld) before warp 0 frees TMEM.
  NVVM::Tcgen05FenceOp::create(
      b, loc,
      NVVM::Tcgen05FenceKindAttr::get(
          ctx, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC));
  gpu::BarrierOp::create(b, loc);
  ifThen(cmpIndex(arith::CmpIPredicate::eq, warp, 0), [&] {
    NVVM::Tcgen05FenceOp::create(
        b, loc,
        NVVM::Tcgen05FenceKindAttr::get(
            ctx, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC));
    NVVM::Tcgen05DeallocOp::create(
        b, loc, tmemPointer(b, loc, tmem, constI32(b, loc, 0)),
        constI32(b, loc, plan.tmemAllocColumns()),
        NVVM::CTAGroupKindAttr::get(ctx, NVVM::CTAGroupKind::CTA_1));
  });
}

void mlir::nvfp4::tc5::buildTcgen05GemvKernelBody(OpBuilder &b,
                                                  gpu::GPUFuncOp kernel,
                                                  GemvOp op,
                                                  const plan::GemvPlan &plan) {
  OpBuilder::InsertionGuard guard(b);
  Location loc = op.getLoc();
  Block &entry = kernel.getBody().front();
  b.setInsertionPointToStart(&entry);
  KernelEmitter e(b, loc, plan);
  e.smem = dynamicSharedMemory(b, loc, kernel, kSharedSymbol, kSharedAlignment);
  e.aBase = globalBase(b, loc, entry.getArgument(0));
  e.sfaBase = globalBase(b, loc, entry.getArgument(1));
  e.bBase = globalBase(b, loc, entry.getArgument(2));
  e.sfbBase = globalBase(b, loc, entry.getArgument(3));
  e.cMem = entry.getArgument(4);
  if (op.getAlpha())
    e.alpha = entry.getArgument(5);
  // The maps' addresses are the last arguments.
  unsigned mapArg = entry.getNumArguments() - plan.tensorMaps().size();
  for (const ::nvfp4::tensormap::TiledMap &map : plan.tensorMaps()) {
    Value operand = tensorMapOperand(b, loc, entry.getArgument(mapArg++), map);
    (map.tensor == ::nvfp4::manifest::Param::A ? e.aMap : e.sfaMap) = operand;
  }
  e.emitSetup();
  e.emitPipeline();
  e.emitEpilogue();
  gpu::ReturnOp::create(b, loc);
}
