//===- GemvKernelReduce.cpp - the sums' reduction and stores --------------===//
//
// The GEMV kernel's sums after the K loop: shuffles inside a lane group,
// and with cta-split-k the partials of every CTA of a row block, added in
// slice order (the same bits every run) by the cluster's first CTA or by
// the last CTA to finish; then alpha and the stores.
//
//===----------------------------------------------------------------------===//

#include "GemvKernelBuilder.h"

#include "nvfp4/Support/ScaleLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

Value GemvKernelBuilder::partialSlot(int64_t i) {
  int64_t n = vectors();
  return (IV(b, loc, rowInBlock) + int64_t(i) / n) * n + int64_t(i) % n;
}

void GemvKernelBuilder::reduceLanes(MutableArrayRef<Value> values) {
  for (Value &v : values)
    for (int64_t offset = cfg.lanesPerRow / 2; offset >= 1; offset /= 2) {
      auto shuffle =
          gpu::ShuffleOp::create(b, loc, v, offset, 32, gpu::ShuffleMode::XOR);
      v = arith::AddFOp::create(b, loc, v, shuffle.getShuffleResult());
    }
}

void GemvKernelBuilder::storeResults(Value store, ArrayRef<Value> acc) {
  Type outType = op.getC().getType().getElementType();
  for (auto [i, v] : llvm::enumerate(acc)) {
    Value row = rowIds[i / vectors()];
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          row, IV::index(b, loc, numRows()));
    Value cond = arith::AndIOp::create(b, loc, store, inRange);
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value result = v;
    if (alpha)
      result = arith::MulFOp::create(b, loc, result, alpha);
    if (outType != b.getF32Type())
      result = arith::TruncFOp::create(b, loc, outType, result);
    memref::StoreOp::create(b, loc, result, c,
                            outputIndices(i % vectors(), row));
  }
}

void GemvKernelBuilder::buildCtaReduction(Value isLeader, ArrayRef<Value> acc) {
  auto inRange = [&](int64_t r) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rowIds[r],
                                 IV::index(b, loc, numRows()));
  };
  for (auto [i, v] : llvm::enumerate(acc)) {
    Value cond =
        arith::AndIOp::create(b, loc, isLeader, inRange(i / vectors()));
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::StoreOp::create(
        b, loc, v, workspace,
        workspaceIndices(ctaSlice, i % vectors(), rowIds[i / vectors()]));
  }
  Value isLast = arriveAtCtaSplit(b, loc, counters, ValueRange{batch, rowBlock},
                                  lastFlag, threadId, cfg.ctaSplitK);
  auto ifLast = scf::IfOp::create(b, loc, isLast, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifLast.thenBlock());
  NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
  SmallVector<Value> sums = sumCtaPartials([&](Value k, int64_t i) {
    return loadCoherent(
        b, loc, workspace,
        workspaceIndices(k, i % vectors(), rows[i / vectors()]));
  });
  storeResults(isLeader, sums);
  resetCtaSplit(b, loc, counters, ValueRange{batch, rowBlock}, threadId);
}

Value mlir::nvfp4::arriveAtCtaSplit(OpBuilder &b, Location loc, Value counters,
                                    ValueRange counter, Value lastFlag,
                                    Value threadId, int64_t ctaSplitK) {
  Value zeroIdx = IV::index(b, loc, 0);
  // Each writer's partials are visible GPU-wide before the CTA counts
  // itself in (membar.gl, then the barrier orders the count after it).
  NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
  gpu::BarrierOp::create(b, loc);
  Value isFirstThread = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              threadId, zeroIdx);
  {
    auto ifOp =
        scf::IfOp::create(b, loc, isFirstThread, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
    Value before = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::addi, one, counters, counter);
    Value last = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, before,
        arith::ConstantIntOp::create(b, loc, ctaSplitK - 1, 32));
    memref::StoreOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, b.getI32Type(), last), lastFlag,
        ValueRange{zeroIdx});
  }
  gpu::BarrierOp::create(b, loc);
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      memref::LoadOp::create(b, loc, lastFlag, ValueRange{zeroIdx}),
      arith::ConstantIntOp::create(b, loc, 0, 32));
}

void mlir::nvfp4::resetCtaSplit(OpBuilder &b, Location loc, Value counters,
                                ValueRange counter, Value threadId) {
  Value isFirstThread = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              threadId, IV::index(b, loc, 0));
  auto reset =
      scf::IfOp::create(b, loc, isFirstThread, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(reset.thenBlock());
  memref::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, 0, 32),
                          counters, counter);
}

SmallVector<Value> GemvKernelBuilder::sumCtaPartials(
    function_ref<Value(Value k, int64_t i)> partialOf) {
  // The lanes of a row group share the work: lane j adds the partials
  // j, j + lanes-per-row, ... in order, then the butterfly combines the
  // lanes; every step has a fixed order, so the bits do not depend on
  // which CTA came last. Rows past M read the last row's partials (and
  // store nothing).
  SmallVector<Value> sums;
  int64_t rounds = ::nvfp4::layout::ceilDiv(cfg.ctaSplitK, cfg.lanesPerRow);
  Value zeroF = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  for (int64_t i = 0; i < cfg.rowsPerThread * vectors(); ++i) {
    Value sum = zeroF;
    for (int64_t j = 0; j < rounds; ++j) {
      IV k = IV(b, loc, lane) + j * cfg.lanesPerRow;
      Value part = partialOf(vmin(k, cfg.ctaSplitK - 1), i);
      if ((j + 1) * cfg.lanesPerRow > cfg.ctaSplitK) {
        Value valid =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k,
                                  IV::index(b, loc, cfg.ctaSplitK));
        part = arith::SelectOp::create(b, loc, valid, part, zeroF);
      }
      sum = arith::AddFOp::create(b, loc, sum, part);
    }
    sums.push_back(sum);
  }
  reduceLanes(sums);
  return sums;
}

void GemvKernelBuilder::buildClusterReduction(Value isLeader,
                                              ArrayRef<Value> acc) {
  // Phase one of the cluster barrier (arrived at the kernel's start): every
  // CTA of the cluster runs, so the first one's shared memory exists.
  NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/UnitAttr());
  {
    auto ifOp = scf::IfOp::create(b, loc, isLeader, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value firstCta = arith::ConstantIntOp::create(b, loc, 0, 32);
    for (auto [i, v] : llvm::enumerate(acc)) {
      Value local = elementPointer(b, loc, clusterPartials,
                                   ValueRange{ctaSlice, partialSlot(i)});
      Value remote =
          NVVM::MapaOp::create(b, loc, local.getType(), local, firstCta);
      LLVM::StoreOp::create(b, loc, v, remote, /*alignment=*/4);
    }
  }
  // Phase two: the arrive releases the writes to the cluster, the wait
  // acquires them.
  NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/UnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/UnitAttr());
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        ctaSlice, IV::index(b, loc, 0));
  auto ifFirst = scf::IfOp::create(b, loc, isFirst, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  SmallVector<Value> sums = sumCtaPartials([&](Value k, int64_t i) {
    return memref::LoadOp::create(b, loc, clusterPartials,
                                  ValueRange{k, partialSlot(i)});
  });
  storeResults(isLeader, sums);
}

SmallVector<Value> GemvKernelBuilder::workspaceIndices(Value slice, int64_t v,
                                                       Value row) {
  SmallVector<Value> indices = outputIndices(v, row);
  indices.insert(indices.begin(), slice);
  return indices;
}

Value mlir::nvfp4::loadCoherent(OpBuilder &b, Location loc, Value memref,
                                ValueRange indices) {
  Value ptr = elementPointer(b, loc, memref, indices);
  return LLVM::LoadOp::create(b, loc, b.getF32Type(), ptr, /*alignment=*/4,
                              /*isVolatile=*/false, /*isNonTemporal=*/false,
                              /*isInvariant=*/false,
                              /*isInvariantGroup=*/false,
                              LLVM::AtomicOrdering::monotonic, "device");
}
