//===- Tcgen05Staging.cpp - global-to-shared copies of one stage ----------===//
//
// One stage is K = 4 * block values: a [128 x stageK] tile of a, rows 0..N-1
// of the [mmaN x stageK] tile of b (N vectors; both 32-byte swizzled,
// KMajorFp4Sw32Tile), one 512-byte 128x4 atom of sfa and the words of rows
// 0..N-1 of one atom of sfb. Where
// the plan says so (tmaA, tmaSfa), thread 0 copies a's slabs and the sfa
// atom with nvgpu.tma.async.load: the 32-byte swizzle of a's map writes the
// tile layout, and the map's zero fill covers rows and K past the tensor.
// Every other copy is a cp.async whose addresses come from the templates of
// Tcgen05Plan.h; bytes past K are zero-filled by the cp.async source size.
// Thread r copies the 4 scales of row r to the atom position of row r, so
// linear scales are converted to the blocked atom while they are staged.
// Only linear scales whose rows are not 4-byte aligned (K/block not a
// multiple of 4) take ordinary loads and stores.
//
//===----------------------------------------------------------------------===//

#include "Tcgen05Emitter.h"

#include "nvfp4/Conversion/Common/TensorMapIR.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::nvfp4::tc5;
namespace plan = ::nvfp4::tcgen05::plan;

namespace {

struct StageCopies {
  KernelEmitter &e;
  IV t, stage, slot, batch, rowTile;

  /// cp.async of `c` from `base`; the source size operand only when it can
  /// be short.
  void copy(const plan::Copy<IV> &c, Value base, int64_t size, bool mayBeShort,
            bool streaming) {
    Value src = byteAddress(e.b, e.loc, base, c.src);
    cpAsync(e.b, e.loc, e.smemAt(c.dst), src, size,
            mayBeShort ? c.srcBytes.v : Value(), streaming);
  }

  /// Ordinary byte load (zero where `valid` is 0) and shared store.
  void byteCopy(const plan::ByteCopy<IV> &c, Value base) {
    OpBuilder &b = e.b;
    Location loc = e.loc;
    Value ptr = byteAddress(b, loc, base, c.src);
    Value byte = LLVM::LoadOp::create(b, loc, b.getI8Type(), ptr);
    Value valid = e.cmpIndex(arith::CmpIPredicate::ne, c.valid, 0);
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 8);
    Value value = arith::SelectOp::create(b, loc, valid, byte, zero);
    LLVM::StoreOp::create(b, loc, value, e.smemAt(c.dst));
  }

  void emitA() {
    const plan::GemvPlan &p = e.plan;
    for (int64_t i = 0; i < p.aChunksPerThread(); ++i)
      copy(p.aCopy(t, i, stage, slot, batch, rowTile), e.aBase, p.chunkBytes(),
           p.hasKTail(), /*streaming=*/true);
  }

  void emitB() {
    const plan::GemvPlan &p = e.plan;
    e.ifThen(e.cmpIndex(arith::CmpIPredicate::ult, t, p.bCopyThreads()), [&] {
      copy(p.bCopy(t, stage, slot, batch), e.bBase, p.chunkBytes(),
           p.hasKTail(), /*streaming=*/false);
    });
  }

  void emitSfa() {
    const plan::GemvPlan &p = e.plan;
    switch (p.sfaStaging()) {
    case plan::GemvPlan::SfaStaging::LinearWords:
      copy(p.sfaLinearCopy(t, stage, slot, batch, rowTile), e.sfaBase, 4,
           /*mayBeShort=*/false, /*streaming=*/false);
      return;
    case plan::GemvPlan::SfaStaging::LinearBytes:
      for (int64_t byte = 0; byte < 4; ++byte)
        byteCopy(p.sfaLinearByte(t, byte, stage, slot, batch, rowTile),
                 e.sfaBase);
      return;
    case plan::GemvPlan::SfaStaging::BlockedWords:
      copy(p.sfaBlockedWord(t, stage, slot, batch, rowTile), e.sfaBase, 4,
           /*mayBeShort=*/p.hasScaleTail(), /*streaming=*/false);
      return;
    }
  }

  void emitSfb() {
    const plan::GemvPlan &p = e.plan;
    if (p.vectors > 1) {
      // Thread sfbThread() + v copies the scales of vector v.
      e.ifThen(e.isSfbThread(t), [&] {
        IV vec = t - p.sfbThread();
        if (p.sfbBytes()) {
          for (int64_t byte = 0; byte < 4; ++byte)
            byteCopy(p.sfbLinearByte(vec, byte, stage, slot, batch), e.sfbBase);
          return;
        }
        copy(p.sfbCopy(vec, stage, slot, batch), e.sfbBase, 4, p.hasScaleTail(),
             false);
      });
      return;
    }
    e.ifThen(e.cmpIndex(arith::CmpIPredicate::eq, t, p.sfbThread()), [&] {
      if (p.sfbBytes()) {
        for (int64_t byte = 0; byte < 4; ++byte)
          byteCopy(p.sfbLinearByte(byte, stage, slot, batch), e.sfbBase);
        return;
      }
      copy(p.sfbCopy(stage, slot, batch), e.sfbBase, 4, p.hasScaleTail(),
           false);
    });
  }
};

} // namespace

void KernelEmitter::emitTensorCopies(Value stage, Value slot) {
  MLIRContext *ctx = b.getContext();
  // Arm the slot's full barrier with the bytes of every box, then copy.
  nvgpu::MBarrierArriveExpectTxOp::create(
      b, loc, fullBarriers, idx(plan.tmaStageBytes()), slot, Value());
  auto load = [&](Value map, const ::nvfp4::tensormap::TiledMap &tiled,
                  const plan::GemvPlan::TensorCopy<IV> &copy) {
    Value dst =
        sharedMemRef(b, loc, smemAt(copy.dst), tensorMapBoxType(ctx, tiled));
    SmallVector<Value> coords(copy.coords, copy.coords + tiled.dims.size());
    nvgpu::TmaAsyncLoadOp::create(b, loc, dst, fullBarriers, map, coords, slot,
                                  /*multicastMask=*/Value(),
                                  /*predicate=*/Value());
  };
  if (aMap)
    for (int64_t box = 0; box < plan.aBoxesPerStage(); ++box)
      load(aMap, plan.aMap(),
           plan.aTensorCopy(box, iv(stage), iv(slot), iv(batch), iv(rowTile)));
  if (sfaMap)
    load(sfaMap, plan.sfaMap(),
         plan.sfaTensorCopy(iv(stage), iv(slot), iv(batch), iv(rowTile)));
}

void KernelEmitter::emitStageCopies(Value stage, Value slot) {
  if (fullBarriers)
    ifThen(cmpIndex(arith::CmpIPredicate::eq, tid, 0),
           [&] { emitTensorCopies(stage, slot); });
  StageCopies copies{*this,    iv(tid),   iv(stage),
                     iv(slot), iv(batch), iv(rowTile)};
  if (!aMap)
    copies.emitA();
  copies.emitB();
  if (!sfaMap)
    copies.emitSfa();
  copies.emitSfb();
}
