//===- MmaKernelReduce.cpp - the tensor-core kernel's sums and stores -----===//
//
// decode=mma: the MMAs' f32 sums added across the K slices of a CTA
// (split-k, in shared memory) and across CTAs (cta-split-k, through a
// global workspace), unscaled and stored.
//
//===----------------------------------------------------------------------===//

#include "MmaKernelBuilder.h"

#include "nvfp4/Conversion/Common/ScalarOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nvfp4;

using ::nvfp4::cost::kMmaVectors;

/// Slot of this lane's sum of row rowsInBlock[i] and vector `vector` in
/// the split-k partials.
Value MmaBuilder::partialSlot(int64_t i, Value vector) {
  return IV(b, loc, rowsInBlock[i]) * vectors() + IV(b, loc, vector);
}

/// c's indices (or the workspace's after `slice`) of a sum.
SmallVector<Value> MmaBuilder::outputIndices(Value row, Value vector,
                                             Value slice) {
  SmallVector<Value> indices;
  if (slice)
    indices.push_back(slice);
  indices.push_back(batch);
  if (op.hasVectorDim())
    indices.push_back(vector);
  indices.push_back(row);
  return indices;
}

/// Adds the slices' partials (split-k, then cta-split-k: the last CTA of
/// a row block adds every CTA's in order) and stores alpha times each sum
/// of a row below M and a vector below N, undoing the operands' scaling
/// first (a power of two: exact).
void MmaBuilder::storeSums(ArrayRef<Value> acc) {
  OpBuilder::InsertionGuard guard(b);
  ScalarOps o{b, loc};
  int exponent = -kOperandExp * (packed() ? 2 : 1);
  Value unscale = o.f32(std::ldexp(1.0f, exponent));
  Type outType = op.getC().getType().getElementType();
  // C fragment: element (i, j) is row g + 8 i, column 2 t + j.
  struct Sum {
    int64_t row; // index into rows / rowIds
    Value vector;
    Value value;
  };
  SmallVector<Sum> sums;
  for (int64_t r = 0; r < tiles(); ++r)
    for (int64_t h = 0; h < halves(); ++h)
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 2; ++j) {
          Value vector = IV(b, loc, quadLane) * 2 + (j + kMmaVectors * h);
          Value v = vector::ExtractOp::create(b, loc, acc[r * halves() + h],
                                              ArrayRef<int64_t>{i, j});
          sums.push_back({2 * r + i, vector, v});
        }
  auto isVector = [&](const Sum &s) {
    return vult(IV(b, loc, s.vector), vectors());
  };
  // Parks a partial sum where `cond` holds.
  auto park = [&](Value cond, Value value, Value memref, ValueRange indices) {
    auto ifOp = scf::IfOp::create(b, loc, cond, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::StoreOp::create(b, loc, value, memref, indices);
  };
  Value keep = arith::ConstantIntOp::create(b, loc, 1, 1);
  if (cfg.splitK > 1) {
    for (const Sum &s : sums)
      park(isVector(s), s.value, partials,
           ValueRange{slice, partialSlot(s.row, s.vector)});
    gpu::BarrierOp::create(b, loc);
    keep = vult(IV(b, loc, slice), 1);
    // Slice 0 adds the others in order; its own loads stay in range.
    for (Sum &s : sums) {
      Value slot = vminu(IV(b, loc, partialSlot(s.row, s.vector)),
                         cfg.rowsPerBlock * vectors() - 1);
      for (int64_t k = 1; k < cfg.splitK; ++k)
        s.value = arith::AddFOp::create(
            b, loc, s.value,
            memref::LoadOp::create(b, loc, partials, ValueRange{idx(k), slot}));
    }
  }
  auto stored = [&](const Sum &s) {
    return arith::AndIOp::create(
        b, loc, keep,
        arith::AndIOp::create(b, loc, isVector(s),
                              vult(IV(b, loc, rowIds[s.row]), numRows())));
  };
  if (cfg.ctaSplitK > 1) {
    for (const Sum &s : sums)
      park(stored(s), s.value, workspace,
           outputIndices(rowIds[s.row], s.vector, ctaSlice));
    Value isLast =
        arriveAtCtaSplit(b, loc, counters, ValueRange{batch, rowBlock},
                         lastFlag, threadId, cfg.ctaSplitK);
    auto ifLast = scf::IfOp::create(b, loc, isLast, false);
    b.setInsertionPointToStart(ifLast.thenBlock());
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
    // Rows past M and vectors past N read valid partials, unstored.
    for (Sum &s : sums) {
      Value vector = vminu(IV(b, loc, s.vector), vectors() - 1);
      s.value = Value();
      for (int64_t k = 0; k < cfg.ctaSplitK; ++k) {
        Value part = loadCoherent(b, loc, workspace,
                                  outputIndices(rows[s.row], vector, idx(k)));
        s.value = k ? arith::AddFOp::create(b, loc, s.value, part) : part;
      }
    }
  }
  for (const Sum &s : sums) {
    auto ifOp = scf::IfOp::create(b, loc, stored(s), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value result = arith::MulFOp::create(b, loc, s.value, unscale);
    if (alpha)
      result = arith::MulFOp::create(b, loc, result, alpha);
    if (outType != b.getF32Type())
      result = arith::TruncFOp::create(b, loc, outType, result);
    memref::StoreOp::create(b, loc, result, c,
                            outputIndices(rowIds[s.row], s.vector));
  }
  if (cfg.ctaSplitK > 1)
    resetCtaSplit(b, loc, counters, ValueRange{batch, rowBlock}, threadId);
}
