//===- MmaKernelStages.cpp - the tensor-core kernel's cp.async stages -----===//
//
// async-copy-stages for decode=mma: a lane copies its bytes of each whole
// step (cp.async) into its own slots of its warp's stages in dynamic shared
// memory, stages - 1 steps ahead of the step it decodes, and reads them
// back once they landed.
//
//===----------------------------------------------------------------------===//

#include "MmaKernelBuilder.h"

#include "nvfp4/Conversion/Common/Codec.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace cost = ::nvfp4::cost;
using cost::kMmaVectors;

Value MmaBuilder::i32(IV x) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), x);
}

Value MmaBuilder::sharedAt(Value base, Value byteOffset) {
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{byteOffset});
}

/// Byte offset of stage `slot` from the warp's stage 0.
IV MmaBuilder::slotOffset(Value slot) {
  return IV(b, loc, slot) * (warpsPerCta() * stageLayout().bytes());
}

Value MmaBuilder::codeSlot(Value slotOff, int64_t i) {
  return sharedAt(laneCodes,
                  i32(IV(b, loc, slotOff) + MmaStageLayout::codeSlot(i)));
}

Value MmaBuilder::wordSlot(Value slotOff, int64_t w) {
  return sharedAt(laneWords,
                  i32(IV(b, loc, slotOff) + stageLayout().wordSlot(w) -
                      stageLayout().wordSlot(0)));
}

/// cp.async of `bytes` at the generic address `src` (global memory) into
/// `dst`; cp.async.cg (L2 only) exists for 16-byte copies alone.
void MmaBuilder::copyAsync(Value dst, Value src, int64_t bytes) {
  Value global = LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), src);
  NVVM::CpAsyncOp::create(
      b, loc, dst, global, b.getI32IntegerAttr(bytes),
      NVVM::LoadCacheModifierKindAttr::get(
          b.getContext(), bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                      : NVVM::LoadCacheModifierKind::CA),
      /*cpSize=*/Value());
}

/// The 16 bytes of codes at `indices` (row offset last) of `memref`: one
/// copy where rows keep them aligned, else two of 8 bytes.
void MmaBuilder::copyCodes(Value dst, Value memref,
                           SmallVector<Value> indices) {
  if (alignedChunks()) {
    copyAsync(dst, elementPointer(b, loc, memref, indices), 16);
    return;
  }
  for (int64_t h = 0; h < 2; ++h) {
    SmallVector<Value> at = indices;
    at.back() = IV(b, loc, at.back()) + 8 * h;
    copyAsync(sharedAt(dst, i32(IV::index(b, loc, 8 * h))),
              elementPointer(b, loc, memref, at), 8);
  }
}

/// Byte of a lane's scale pair in its 4-byte word: columns 2 t and 2 t + 1
/// sit at 2 t mod 4 in both layouts (blocked: column mod 4; linear: rows
/// of a multiple of 4 columns and steps of 8, resolveMmaStages), so the
/// pair never straddles a word.
IV MmaBuilder::pairInWord() { return (IV(b, loc, quadLane) % 2) * 2; }

/// The aligned 4-byte word that holds the scale pair of columns `col`,
/// `col` + 1 of `row`.
void MmaBuilder::copyScaleWord(Value dst, Value scales, bool isVector,
                               Value row, Value col) {
  Value pair = elementPointer(
      b, loc, scales,
      buildScaleIndices(b, loc, op.getLayout(), isVector, batch, row, col));
  Value back = arith::SubIOp::create(
      b, loc, arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), pairInWord()));
  copyAsync(dst,
            LLVM::GEPOp::create(b, loc, pair.getType(), b.getI8Type(), pair,
                                ValueRange{back}),
            MmaStageLayout::kWordBytes);
}

/// Copies this lane's bytes of whole step `step` into stage `slot` and
/// commits them as one group.
void MmaBuilder::issueStageCopies(Value step, Value slot) {
  Chunk ch = wholeChunk(step);
  IV off = slotOffset(slot);
  int64_t code = 0, word = 0;
  for (Value row : rows) {
    copyCodes(codeSlot(off, code++), codeMemref(),
              codeIndices(row, ch.bytes[0]));
    copyScaleWord(wordSlot(off, word++), sfa, false, row, ch.cols[0]);
  }
  for (int64_t h = 0; h < halves(); ++h) {
    Value v = vectorIds[h];
    SmallVector<Value> at = vectorPrefix(v);
    // Only the lanes of vector g + 8 h < N copy; the others read theirs.
    std::optional<OpBuilder::InsertionGuard> guard;
    if (sharesVectorSlots(h)) {
      auto ifOp = scf::IfOp::create(
          b, loc, vult(IV(b, loc, laneGroup) + kMmaVectors * h, vectors()),
          /*withElseRegion=*/false);
      guard.emplace(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
    }
    if (packed()) {
      at.push_back(ch.bytes[0]);
      copyCodes(codeSlot(off, code++), vec, at);
      if (op.hasVectorDim())
        copyScaleWord(wordSlot(off, word++), sfb, false, v, ch.cols[0]);
      else
        copyScaleWord(wordSlot(off, word++), sfb, true, idx(0), ch.cols[0]);
      continue;
    }
    // 16-bit b: the chunk's 32 values, as loadStep reads them.
    for (int64_t h8 = 0; h8 < 2; ++h8)
      for (int64_t q = 0; q < 2; ++q) {
        SmallVector<Value> indices = at;
        indices.push_back(IV(b, loc, ch.bytes[h8]) * 2 + 8 * q);
        copyAsync(codeSlot(off, code++), elementPointer(b, loc, vec, indices),
                  16);
      }
  }
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

SmallVector<Value> MmaBuilder::readCodeSlot(Value slotOff, int64_t i) {
  auto type = VectorType::get({4}, b.getI32Type());
  Value v = LLVM::LoadOp::create(b, loc, type, codeSlot(slotOff, i),
                                 /*alignment=*/16);
  SmallVector<Value> words;
  for (int64_t w = 0; w < 4; ++w)
    words.push_back(vector::ExtractOp::create(b, loc, v, w));
  return words;
}

/// The scale pair in word slot `w` (pairInWord).
Value MmaBuilder::readScalePair(Value slotOff, int64_t w) {
  Value at = sharedAt(wordSlot(slotOff, w), i32(pairInWord()));
  Value bits =
      LLVM::LoadOp::create(b, loc, b.getI16Type(), at, /*alignment=*/2);
  return LLVM::BitcastOp::create(b, loc, VectorType::get({2}, b.getI8Type()),
                                 bits);
}

/// A step's loads, read back from stage `slot`.
MmaBuilder::StepLoads MmaBuilder::readStage(Value step, Value slot) {
  StepLoads s;
  s.chunk = wholeChunk(step);
  IV off = slotOffset(slot);
  int64_t code = 0, word = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    s.aWords.push_back(readCodeSlot(off, code++));
    s.aScales.push_back(readScalePair(off, word++));
  }
  for (int64_t h = 0; h < halves(); ++h) {
    // The slots of the lane that copied vector g + 8 h: g clamped alike.
    IV lanes =
        (IV(b, loc, vectorIds[h]) - kMmaVectors * h - IV(b, loc, laneGroup)) *
        cost::kMmaLanesPerRow;
    IV codes =
        sharesVectorSlots(h) ? off + lanes * MmaStageLayout::kCodeBytes : off;
    IV words =
        sharesVectorSlots(h) ? off + lanes * MmaStageLayout::kWordBytes : off;
    SmallVector<Value> bWords;
    for (int64_t i = 0; i < (packed() ? 1 : 4); ++i)
      llvm::append_range(bWords, readCodeSlot(codes, code++));
    s.bWords.push_back(bWords);
    if (packed())
      s.bScales.push_back(readScalePair(words, word++));
  }
  return s;
}

/// Whole steps [first, first + count) of this warp's slice through the
/// stages: stages - 1 steps copied ahead; step j's copies target the
/// slot step j - 1 was read from. Past the slice's last step the copies
/// repeat it (they stay inside the warp's own bytes; nobody reads them).
SmallVector<Value> MmaBuilder::buildAsyncStepLoop(Value first, Value count,
                                                  ArrayRef<Value> acc) {
  int64_t ahead = stages() - 1;
  IV last = IV(b, loc, first) + IV(b, loc, count) - 1;
  auto stepAt = [&](IV j) {
    return arith::MinSIOp::create(b, loc, IV(b, loc, first) + j, last)
        .getResult();
  };
  for (int64_t i = 0; i < ahead; ++i)
    issueStageCopies(stepAt(IV::index(b, loc, i)), idx(i));
  auto loop = scf::ForOp::create(b, loc, idx(0), count, idx(1), acc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    IV j(b, loc, loop.getInductionVar());
    // At most ahead - 1 groups pending: step j's has landed.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, ahead - 1);
    // Lanes read other lanes' copies of b: after all of them landed.
    if (sharesAnySlots())
      NVVM::SyncWarpOp::create(b, loc,
                               arith::ConstantIntOp::create(b, loc, -1, 32));
    StepLoads s = readStage(IV(b, loc, first) + j, j % stages());
    issueStageCopies(stepAt(j + ahead), (j + ahead) % stages());
    scf::YieldOp::create(
        b, loc, computeStep(s, SmallVector<Value>(loop.getRegionIterArgs())));
  }
  // No copy may still write shared memory when the warp moves on.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  return SmallVector<Value>(loop.getResults());
}
