//===- GemvKernel.cpp - the CUDA-core GEMV kernel body --------------------===//
//
// A CTA owns rows-per-block rows of one batch (grid: row blocks x L). Groups
// of lanes-per-row threads share rows-per-thread rows; at each step a thread
// loads bytes-per-load bytes of each of its rows at the same K offset, so the
// vector b (and its scales) is loaded and decoded once for all of them.
// Consecutive lanes read consecutive chunks: a warp's loads are coalesced.
// After the K loop the lanes of a group combine their sums with shuffles.
//
//===----------------------------------------------------------------------===//

#include "GemvKernel.h"
#include "UnitDot.h"

#include "nvfp4/Conversion/Common/Codec.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

Value idx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value addi(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}
Value muli(OpBuilder &b, Location loc, Value x, int64_t f) {
  return arith::MulIOp::create(b, loc, x, idx(b, loc, f));
}

/// Loads `bytes` (8 or 16) bytes at `memref[indices]` as i32 words. With
/// `streaming`, the load takes the read-only path without allocating in L1
/// (the matrix is read exactly once); PTX has no MLIR op for that hint.
SmallVector<Value> loadWords(OpBuilder &b, Location loc, Value memref,
                             ValueRange indices, int64_t bytes,
                             bool streaming) {
  int64_t count = bytes / 4;
  SmallVector<Value> words;
  if (!streaming) {
    auto vecType = VectorType::get({bytes}, b.getI8Type());
    Value v = vector::LoadOp::create(b, loc, vecType, memref, indices,
                                     /*nontemporal=*/false,
                                     llvm::MaybeAlign(bytes));
    Value w = vector::BitCastOp::create(
        b, loc, VectorType::get({count}, b.getI32Type()), v);
    for (int64_t i = 0; i < count; ++i)
      words.push_back(vector::ExtractOp::create(b, loc, w, i));
    return words;
  }
  auto type = cast<MemRefType>(memref.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  Value linear = idx(b, loc, offset);
  for (auto [i, index] : llvm::enumerate(indices))
    linear = addi(b, loc, linear, muli(b, loc, index, strides[i]));
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value addr = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                          addi(b, loc, base, linear));
  Value ptr = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), addr);
  SmallVector<Type> fields(count, b.getI32Type());
  auto structType = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  std::string regs, constraints;
  for (int64_t i = 0; i < count; ++i) {
    regs += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=r,";
  }
  std::string asmText = "ld.global.nc.L1::no_allocate.v" +
                        std::to_string(count) + ".u32 {" + regs + "}, [$" +
                        std::to_string(count) + "];";
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, structType, ValueRange{ptr}, asmText, constraints + "l",
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
  for (int64_t i = 0; i < count; ++i)
    words.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0),
                                                 ArrayRef<int64_t>{i}));
  return words;
}

struct KernelBuilder {
  OpBuilder &b;
  Location loc;
  GemvOp op;
  const KernelConfig &cfg;
  Value a, sfa, vec, sfb, c, alpha;
  Value batch, lane, rowFirst;
  SmallVector<Value> rows; // clamped row indices, one per rows-per-thread

  int64_t rowBytes() { return op.getA().getType().getDimSize(2); }
  int64_t numRows() { return op.getA().getType().getDimSize(1); }
  int64_t stepBytes() const { return cfg.lanesPerRow * cfg.bytesPerLoad; }
  ScaleFormat format() { return op.getFormat(); }

  /// acc[r] += the contribution of steps [first, first + count) of K.
  SmallVector<Value> buildSteps(Value first, int64_t count,
                                ArrayRef<Value> acc) {
    int64_t block = getBlockSize(format());
    SmallVector<Value> kBytes, vecWords;
    SmallVector<SmallVector<Value>> aWords;
    Value laneByte = muli(b, loc, lane, cfg.bytesPerLoad);
    // Issue every load of the group before the first use.
    for (int64_t u = 0; u < count; ++u) {
      Value step = addi(b, loc, first, idx(b, loc, u));
      Value k = addi(b, loc, muli(b, loc, step, stepBytes()), laneByte);
      kBytes.push_back(k);
      for (Value row : rows)
        aWords.push_back(loadWords(b, loc, a, {batch, row, k},
                                   cfg.bytesPerLoad, cfg.cacheHints));
    }
    SmallVector<Value> result(acc.begin(), acc.end());
    for (int64_t u = 0; u < count; ++u) {
      SmallVector<Value> bWords = loadWords(b, loc, vec, {batch, kBytes[u]},
                                            cfg.bytesPerLoad, false);
      for (int64_t unit = 0; unit < cfg.bytesPerLoad / 8; ++unit) {
        SmallVector<Value> prepared = buildPrepareVectorUnit(
            b, loc, cfg.decode, ArrayRef<Value>(bWords).slice(2 * unit, 2));
        // Scale column of this unit: byte offset * 2 values / block size.
        Value col = arith::DivUIOp::create(
            b, loc,
            muli(b, loc, addi(b, loc, kBytes[u], idx(b, loc, 8 * unit)), 2),
            idx(b, loc, block));
        Value sb = buildDecodeScale(
            b, loc,
            buildLoadScaleBits(b, loc, sfb,
                               buildScaleIndices(b, loc, op.getLayout(), true,
                                                 batch, idx(b, loc, 0), col)),
            format());
        sb = arith::MulFOp::create(
            b, loc, sb,
            arith::ConstantOp::create(
                b, loc, b.getF32FloatAttr(1.0f / unitDotScale(cfg.decode))));
        for (auto [r, row] : llvm::enumerate(rows)) {
          Value sa = buildDecodeScale(
              b, loc,
              buildLoadScaleBits(b, loc, sfa,
                                 buildScaleIndices(b, loc, op.getLayout(),
                                                   false, batch, row, col)),
              format());
          ArrayRef<Value> words =
              ArrayRef<Value>(aWords[u * rows.size() + r]).slice(2 * unit, 2);
          Value dot = buildUnitDot(b, loc, cfg.decode, words, prepared);
          Value scale = arith::MulFOp::create(b, loc, sa, sb);
          result[r] = math::FmaOp::create(b, loc, dot, scale, result[r]);
        }
      }
    }
    return result;
  }

  /// scf.for over steps [lo, hi) in groups of `group` steps.
  SmallVector<Value> buildStepLoop(int64_t lo, int64_t hi, int64_t group,
                                   ArrayRef<Value> acc) {
    if (hi <= lo)
      return SmallVector<Value>(acc.begin(), acc.end());
    auto loop = scf::ForOp::create(
        b, loc, idx(b, loc, lo), idx(b, loc, hi), idx(b, loc, group), acc,
        [&](OpBuilder &nb, Location, Value s, ValueRange iter) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          SmallVector<Value> next =
              buildSteps(s, group, SmallVector<Value>(iter));
          scf::YieldOp::create(b, loc, next);
        });
    return loop.getResults();
  }

  void build() {
    Type f32 = b.getF32Type();
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value blockRow = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    batch = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
    lane = arith::RemUIOp::create(b, loc, tid, idx(b, loc, cfg.lanesPerRow));
    Value group =
        arith::DivUIOp::create(b, loc, tid, idx(b, loc, cfg.lanesPerRow));
    rowFirst = addi(b, loc, muli(b, loc, blockRow, cfg.rowsPerBlock),
                    muli(b, loc, group, cfg.rowsPerThread));
    // Rows past M read the last row (always valid memory) and store nothing.
    for (int64_t r = 0; r < cfg.rowsPerThread; ++r)
      rows.push_back(arith::MinUIOp::create(
          b, loc, addi(b, loc, rowFirst, idx(b, loc, r)),
          idx(b, loc, numRows() - 1)));

    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    SmallVector<Value> acc(cfg.rowsPerThread, zero);
    int64_t steps = rowBytes() / stepBytes();
    int64_t mainSteps = steps / cfg.loadsInFlight * cfg.loadsInFlight;
    acc = buildStepLoop(0, mainSteps, cfg.loadsInFlight, acc);
    acc = buildStepLoop(mainSteps, steps, 1, acc);

    // Butterfly reduction inside each group of lanes.
    for (Value &v : acc)
      for (int64_t offset = cfg.lanesPerRow / 2; offset >= 1; offset /= 2) {
        auto shuffle = gpu::ShuffleOp::create(b, loc, v, offset, 32,
                                              gpu::ShuffleMode::XOR);
        v = arith::AddFOp::create(b, loc, v, shuffle.getShuffleResult());
      }

    Value isLeader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           lane, idx(b, loc, 0));
    Type outType = op.getC().getType().getElementType();
    for (auto [r, v] : llvm::enumerate(acc)) {
      Value row = addi(b, loc, rowFirst, idx(b, loc, r));
      Value inRange = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, row, idx(b, loc, numRows()));
      Value store = arith::AndIOp::create(b, loc, isLeader, inRange);
      auto ifOp = scf::IfOp::create(b, loc, store, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value result = v;
      if (alpha)
        result = arith::MulFOp::create(b, loc, result, alpha);
      if (outType != f32)
        result = arith::TruncFOp::create(b, loc, outType, result);
      memref::StoreOp::create(b, loc, result, c, ValueRange{batch, row});
    }
  }
};

} // namespace

void mlir::nvfp4::buildGemvKernelBody(OpBuilder &b, gpu::GPUFuncOp kernel,
                                      GemvOp op, const KernelConfig &cfg) {
  Block &entry = kernel.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&entry);
  KernelBuilder kb{b, op.getLoc(), op, cfg};
  kb.a = entry.getArgument(0);
  kb.sfa = entry.getArgument(1);
  kb.vec = entry.getArgument(2);
  kb.sfb = entry.getArgument(3);
  kb.c = entry.getArgument(4);
  if (entry.getNumArguments() > 5)
    kb.alpha = entry.getArgument(5);
  kb.build();
  gpu::ReturnOp::create(b, op.getLoc());
}
