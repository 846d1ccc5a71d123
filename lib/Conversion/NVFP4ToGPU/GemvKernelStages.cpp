//===- GemvKernelStages.cpp - a's shared-memory stages --------------------===//
//
// The GEMV kernel's stages of a in shared memory: cp.async copies a thread
// issues for itself (async-copy-stages), or tensor-memory-accelerator boxes
// a producer warp issues for the CTA (tma), with full and empty mbarriers
// a stage.
//
//===----------------------------------------------------------------------===//

#include "GemvKernelBuilder.h"
#include "TmaCopy.h"

#include "nvfp4/Conversion/Common/TensorMapIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;

Value GemvKernelBuilder::stageOffset(Value slot, int64_t r) {
  return ((IV(b, loc, slot) * cfg.rowsPerThread + r) * cfg.threads() +
          IV(b, loc, threadId)) *
         cfg.bytesPerLoad;
}

Value GemvKernelBuilder::issueStageCopies(Value step) {
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  Value slot = IV(b, loc, step) % cfg.asyncCopyStages;
  Value k = stepByte(step, /*clamp=*/true);
  SmallVector<Value> tokens;
  for (auto [r, row] : llvm::enumerate(rows))
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, tokenType, stages, {stageOffset(slot, r)}, a, {batch, row, k},
        b.getIndexAttr(cfg.bytesPerLoad),
        /*srcElements=*/Value(),
        // cp.async.cg (L2 only) exists for 16-byte copies alone.
        cfg.bytesPerLoad == 16 ? b.getUnitAttr() : UnitAttr()));
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
}

void GemvKernelBuilder::appendWords(Value chunk,
                                    SmallVectorImpl<Value> &words) {
  Value w = vector::BitCastOp::create(
      b, loc, VectorType::get({wordsPerLoad()}, b.getI32Type()), chunk);
  for (int64_t i = 0; i < wordsPerLoad(); ++i)
    words.push_back(vector::ExtractOp::create(b, loc, w, i));
}

SmallVector<Value> GemvKernelBuilder::readStage(Value slot) {
  SmallVector<Value> words;
  for (int64_t r = 0; r < cfg.rowsPerThread; ++r) {
    Value bytes = vector::LoadOp::create(
        b, loc, VectorType::get({cfg.bytesPerLoad}, b.getI8Type()), stages,
        {stageOffset(slot, r)}, /*nontemporal=*/false,
        llvm::MaybeAlign(cfg.bytesPerLoad));
    appendWords(bytes, words);
  }
  return words;
}

SmallVector<Value> GemvKernelBuilder::buildAsyncStepLoop(Value full,
                                                         ArrayRef<Value> acc) {
  int64_t ahead = cfg.asyncCopyStages - 1;
  for (int64_t i = 0; i < ahead; ++i)
    issueStageCopies(IV::index(b, loc, i));
  auto loop = scf::ForOp::create(
      b, loc, IV::index(b, loc, 0), full, IV::index(b, loc, 1), acc,
      [&](OpBuilder &nb, Location, Value step, ValueRange iter) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value group = issueStageCopies(IV(b, loc, step) + ahead);
        // At most `ahead` groups still pending: this step's has landed.
        nvgpu::DeviceAsyncWaitOp::create(b, loc, group,
                                         b.getI32IntegerAttr(ahead));
        Value slot = IV(b, loc, step) % cfg.asyncCopyStages;
        scf::YieldOp::create(
            b, loc,
            computeSteps(step, 1, readStage(slot), SmallVector<Value>(iter)));
      });
  // Drain the copies nobody reads before the kernel ends.
  Value none = nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), ValueRange{});
  nvgpu::DeviceAsyncWaitOp::create(b, loc, none, b.getI32IntegerAttr(0));
  return SmallVector<Value>(loop.getResults());
}

Value GemvKernelBuilder::ctaSliceChunk(int64_t q, int64_t sliceChunks) {
  IV global = IV::index(b, loc, q);
  if (ctaSlice)
    global = IV(b, loc, ctaSlice) * cfg.splitK + q;
  return global * sliceChunks;
}

void GemvKernelBuilder::issueTmaStage(Value step, int64_t sliceChunks) {
  Value slot = IV(b, loc, step) % cfg.asyncCopyStages;
  SmallVector<int64_t> boxShape = tmaBoxShape(op, cfg);
  int64_t boxBytes = boxShape[1] * boxShape[2] * tmaElementBytes();
  nvgpu::MBarrierArriveExpectTxOp::create(
      b, loc, barriers, IV::index(b, loc, cfg.splitK * boxBytes), slot,
      /*predicate=*/Value());
  for (int64_t q = 0; q < cfg.splitK; ++q) {
    // Coordinates innermost first, a's row in 8-byte elements.
    IV chunk = IV(b, loc, ctaSliceChunk(q, sliceChunks)) +
               IV(b, loc, step) * cfg.lanesPerRow;
    Value kElement = chunk * (cfg.bytesPerLoad / tmaElementBytes());
    Value firstRow = IV(b, loc, rowBlock) * cfg.rowsPerBlock;
    Value box = IV(b, loc, slot) * cfg.splitK + q;
    auto view = memref::SubViewOp::create(
        b, loc, stages,
        ArrayRef<OpFoldResult>{box, b.getIndexAttr(0), b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(boxShape[1]),
                               b.getIndexAttr(boxShape[2])},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                               b.getIndexAttr(1)});
    nvgpu::TmaAsyncLoadOp::create(b, loc, view, barriers, tmaMap,
                                  ValueRange{kElement, firstRow, batch}, slot,
                                  /*multicastMask=*/Value(),
                                  /*predicate=*/Value());
  }
}

SmallVector<Value> GemvKernelBuilder::readTmaStage(Value slot) {
  SmallVector<Value> words;
  Value box = IV(b, loc, slot) * cfg.splitK + IV(b, loc, slice);
  Value column = IV(b, loc, lane) * (cfg.bytesPerLoad / tmaElementBytes());
  for (int64_t r = 0; r < cfg.rowsPerThread; ++r) {
    Value row = IV(b, loc, rowInBlock) + r;
    Value pair = vector::LoadOp::create(
        b, loc,
        VectorType::get({cfg.bytesPerLoad / tmaElementBytes()},
                        b.getIntegerType(8 * tmaElementBytes())),
        stages, ValueRange{box, row, column});
    appendWords(pair, words);
  }
  return words;
}

Value GemvKernelBuilder::useParity(Value step, int64_t before) {
  IV use = IV(b, loc, step) / cfg.asyncCopyStages - before;
  return arith::TruncIOp::create(
      b, loc, b.getI1Type(),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), use % 2));
}

void GemvKernelBuilder::waitBarrier(Value index, Value parity) {
  nvgpu::MBarrierTryWaitParityOp::create(
      b, loc, barriers, parity, IV::index(b, loc, kTryWaitTicks), index);
}

Value GemvKernelBuilder::emptyBarrier(Value slot) {
  return IV(b, loc, slot) + cfg.asyncCopyStages;
}

void GemvKernelBuilder::buildTmaProducer(int64_t steps, int64_t sliceChunks) {
  nvgpu::TmaPrefetchOp::create(b, loc, tmaMap, /*predicate=*/Value());
  for (int64_t i = 0; i < std::min(cfg.asyncCopyStages, steps); ++i)
    issueTmaStage(IV::index(b, loc, i), sliceChunks);
  scf::ForOp::create(
      b, loc, IV::index(b, loc, cfg.asyncCopyStages), IV::index(b, loc, steps),
      IV::index(b, loc, 1), ValueRange{},
      [&](OpBuilder &nb, Location, Value step, ValueRange) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value slot = IV(b, loc, step) % cfg.asyncCopyStages;
        waitBarrier(emptyBarrier(slot), useParity(step, /*before=*/1));
        issueTmaStage(step, sliceChunks);
        scf::YieldOp::create(b, loc);
      });
}

SmallVector<Value> GemvKernelBuilder::buildTmaStepLoop(Value full,
                                                       ArrayRef<Value> acc,
                                                       int64_t sliceChunks,
                                                       bool equalSlices) {
  int64_t steps = sliceChunks / cfg.lanesPerRow;
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      threadId, IV::index(b, loc, 0));
  for (int64_t s = 0; s < cfg.asyncCopyStages; ++s) {
    nvgpu::MBarrierInitOp::create(b, loc, barriers, IV::index(b, loc, 1),
                                  IV::index(b, loc, s), first);
    nvgpu::MBarrierInitOp::create(
        b, loc, barriers, IV::index(b, loc, cfg.threads() / ::nvfp4::kWarpSize),
        emptyBarrier(IV::index(b, loc, s)), first);
  }
  // The initialised barriers must be visible to the copy engine and to
  // every thread before anyone uses them.
  NVVM::FenceMbarrierInitOp::create(b, loc);
  gpu::BarrierOp::create(b, loc);
  Value consumer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, threadId,
                            IV::index(b, loc, cfg.threads()));
  auto split = scf::IfOp::create(b, loc, TypeRange(ValueRange(acc)), consumer,
                                 /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(split.elseBlock());
    Value issuer =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, threadId,
                              IV::index(b, loc, cfg.threads()));
    auto ifIssuer = scf::IfOp::create(b, loc, issuer, false);
    b.setInsertionPointToStart(ifIssuer.thenBlock());
    buildTmaProducer(steps, sliceChunks);
    b.setInsertionPointAfter(ifIssuer);
    scf::YieldOp::create(b, loc, acc);
  }
  b.setInsertionPointToStart(split.thenBlock());
  int64_t numAcc = acc.size();
  SmallVector<Value> init(acc.begin(), acc.end());
  llvm::append_range(init, loadStepOperands(stepByte(IV::index(b, loc, 0),
                                                     /*clamp=*/true)));
  Value warpLeader = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      IV(b, loc, threadId) % ::nvfp4::kWarpSize, IV::index(b, loc, 0));
  auto loop = scf::ForOp::create(
      b, loc, IV::index(b, loc, 0), IV::index(b, loc, steps),
      IV::index(b, loc, 1), init,
      [&](OpBuilder &nb, Location, Value step, ValueRange iter) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        SmallVector<Value> sums(iter.take_front(numAcc));
        SmallVector<Value> operands(iter.drop_front(numAcc));
        SmallVector<Value> next =
            loadStepOperands(stepByte(IV(b, loc, step) + 1, /*clamp=*/true));
        Value slot = IV(b, loc, step) % cfg.asyncCopyStages;
        waitBarrier(slot, useParity(step));
        auto compute = [&]() {
          return computeStep(stepByte(step), operands, readTmaStage(slot),
                             sums);
        };
        SmallVector<Value> out;
        if (equalSlices) {
          out = compute();
        } else {
          Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             step, full);
          auto ifOp = scf::IfOp::create(b, loc, TypeRange(ValueRange(sums)),
                                        mine, /*withElseRegion=*/true);
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPointToStart(ifOp.thenBlock());
          scf::YieldOp::create(b, loc, compute());
          b.setInsertionPointToStart(ifOp.elseBlock());
          scf::YieldOp::create(b, loc, sums);
          out = SmallVector<Value>(ifOp.getResults());
        }
        // The stage is overwritten by the async proxy (the copy engine):
        // this thread's generic-proxy reads of it must be ordered before
        // that. Without the fence the H200 computed wrong sums now and
        // then (7 of 104 verifications of large shapes failed).
        NVVM::FenceProxyOp::create(
            b, loc, NVVM::ProxyKind::async_shared,
            NVVM::SharedSpaceAttr::get(b.getContext(),
                                       NVVM::SharedSpace::shared_cta));
        // The warp's reads are done before its leader releases the stage
        // (the arrive is a release).
        NVVM::SyncWarpOp::create(b, loc,
                                 arith::ConstantIntOp::create(b, loc, -1, 32));
        auto release =
            scf::IfOp::create(b, loc, warpLeader, /*withElseRegion=*/false);
        {
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPointToStart(release.thenBlock());
          nvgpu::MBarrierArriveOp::create(
              b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), barriers,
              emptyBarrier(slot));
        }
        llvm::append_range(out, next);
        scf::YieldOp::create(b, loc, out);
      });
  scf::YieldOp::create(b, loc,
                       ValueRange(loop.getResults()).take_front(numAcc));
  b.setInsertionPointAfter(split);
  return SmallVector<Value>(split.getResults());
}
