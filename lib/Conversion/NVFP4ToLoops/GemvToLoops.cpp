//===- GemvToLoops.cpp - nvfp4.gemv and convert_scale_layout to loops -----===//

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/NVFP4ToLoops/LoopsCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// Indices of b and c: [l, k] and [l, m] in the one-vector form, [l, n, k]
/// and [l, n, m] with a vector dimension.
SmallVector<Value> vectorIndex(GemvOp op, Value l, Value n, Value i) {
  if (op.hasVectorDim())
    return {l, n, i};
  return {l, i};
}

/// Constants of the loop nest, made once before it; `codes` is what a's
/// codes load from: a, or for tiled codes its batches as flat byte runs.
struct LoopConstants {
  Value c0, c1, bytesPerBlock, zero, codes;
};

/// Byte `byte` of row `m` of a (batch `l`), wherever its layout keeps it.
Value loadCodes(OpBuilder &b, Location loc, GemvOp op, const LoopConstants &cst,
                Value l, Value m, Value byte) {
  if (!op.getTiledCodes())
    return memref::LoadOp::create(b, loc, cst.codes, ValueRange{l, m, byte});
  return memref::LoadOp::create(
      b, loc, cst.codes,
      buildTiledCodeIndices(b, loc, op.getA().getType().getDimSize(2), l, m,
                            byte));
}

/// One block term of packed b: dot * (sfa * sfb), the dot product exact.
Value buildPackedBlockTerm(OpBuilder &b, Location loc, GemvOp op,
                           const LoopConstants &cst, Value l, Value n, Value m,
                           Value kb, Value sa) {
  ScaleFormat format = op.getFormat();
  auto [c0, c1, bytesPerBlock, zero, codes] = cst;
  Value sb = buildLoadScale(b, loc, op.getSfb(), op.getLayout(), format,
                            /*isVector=*/!op.hasVectorDim(), l, n, kb);
  Value first = arith::MulIOp::create(b, loc, kb, bytesPerBlock);
  auto dot = scf::ForOp::create(
      b, loc, c0, bytesPerBlock, c1, ValueRange{zero},
      [&](OpBuilder &b, Location loc, Value j, ValueRange part) {
        Value k = arith::AddIOp::create(b, loc, first, j);
        Value byteA = loadCodes(b, loc, op, cst, l, m, k);
        Value byteB =
            memref::LoadOp::create(b, loc, op.getB(), vectorIndex(op, l, n, k));
        auto [aLo, aHi] = buildDecodeE2M1Pair(b, loc, byteA);
        auto [bLo, bHi] = buildDecodeE2M1Pair(b, loc, byteB);
        Value sum = arith::AddFOp::create(
            b, loc, part[0], arith::MulFOp::create(b, loc, aLo, bLo));
        sum = arith::AddFOp::create(b, loc, sum,
                                    arith::MulFOp::create(b, loc, aHi, bHi));
        scf::YieldOp::create(b, loc, sum);
      });
  // Both products are exact in f32; only the sum over blocks rounds.
  Value scale = arith::MulFOp::create(b, loc, sa, sb);
  Value term = arith::MulFOp::create(b, loc, dot.getResult(0), scale);
  if (format == ScaleFormat::MXFP4) {
    // Two ue8m0 scales multiply to up to 2^254, infinite in f32; a
    // zero dot product still adds 0 there (0 * inf would be NaN).
    // A NaN scale still makes the term NaN.
    Value infScale = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OEQ, scale,
        arith::ConstantOp::create(
            b, loc, b.getF32FloatAttr(std::numeric_limits<float>::infinity())));
    Value zeroDot = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                          dot.getResult(0), zero);
    term = arith::SelectOp::create(
        b, loc, arith::AndIOp::create(b, loc, infScale, zeroDot),
        dot.getResult(0), term);
  }
  return term;
}

/// Adds one block of 16-bit b to `acc`, value by value: acc += (a * b) * sfa.
/// a * b is exact in f32 (unless it overflows); the scale product and every
/// addition round (docs/numerics.md section 12).
Value buildWideBlock(OpBuilder &b, Location loc, GemvOp op,
                     const LoopConstants &cst, Value l, Value n, Value m,
                     Value kb, Value sa, Value acc) {
  Value c0 = cst.c0, c1 = cst.c1, bytesPerBlock = cst.bytesPerBlock;
  Value c2 = arith::ConstantIndexOp::create(b, loc, 2);
  Value first = arith::MulIOp::create(b, loc, kb, bytesPerBlock);
  auto loop = scf::ForOp::create(
      b, loc, c0, bytesPerBlock, c1, ValueRange{acc},
      [&](OpBuilder &b, Location loc, Value j, ValueRange part) {
        Value byte = arith::AddIOp::create(b, loc, first, j);
        Value byteA = loadCodes(b, loc, op, cst, l, m, byte);
        auto [aLo, aHi] = buildDecodeE2M1Pair(b, loc, byteA);
        Value kLo = arith::MulIOp::create(b, loc, byte, c2);
        Value kHi = arith::AddIOp::create(b, loc, kLo, c1);
        Value sum = part[0];
        for (auto [av, k] : {std::pair(aLo, kLo), std::pair(aHi, kHi)}) {
          Value bv = memref::LoadOp::create(b, loc, op.getB(),
                                            vectorIndex(op, l, n, k));
          bv = arith::ExtFOp::create(b, loc, b.getF32Type(), bv);
          Value product = arith::MulFOp::create(b, loc, av, bv);
          sum = arith::AddFOp::create(
              b, loc, sum, arith::MulFOp::create(b, loc, product, sa));
        }
        scf::YieldOp::create(b, loc, sum);
      });
  return loop.getResult(0);
}

/// c[l, (n,) m] = alpha * sum over blocks, in f32, from +0.
struct GemvLowering : public OpRewritePattern<GemvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GemvOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    ScaleFormat format = op.getFormat();
    ScaleLayout layout = op.getLayout();
    int64_t block = getBlockSize(format);
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
    Value bytesPerBlock = arith::ConstantIndexOp::create(b, loc, block / 2);
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    Value batches = memref::DimOp::create(b, loc, op.getA(), 0);
    Value rows = memref::DimOp::create(b, loc, op.getA(), 1);
    Value rowBytes = memref::DimOp::create(b, loc, op.getA(), 2);
    Value blocks = arith::DivUIOp::create(b, loc, rowBytes, bytesPerBlock);
    Type outType = op.getC().getType().getElementType();
    Value codes =
        op.getTiledCodes() ? buildFlatCodes(b, loc, op.getA()) : op.getA();
    LoopConstants cst{c0, c1, bytesPerBlock, zero, codes};
    // The one-vector form keeps its two loops (and its IR).
    SmallVector<Value> bounds = {batches, rows};
    if (op.hasVectorDim())
      bounds.insert(bounds.begin() + 1,
                    memref::DimOp::create(b, loc, op.getB(), 1));

    buildLoopNest(b, loc, bounds, [&](OpBuilder &b, ValueRange iv) {
      Value l = iv.front(), m = iv.back();
      Value n = op.hasVectorDim() ? iv[1] : c0;
      auto kbLoop = scf::ForOp::create(
          b, loc, c0, blocks, c1, ValueRange{zero},
          [&](OpBuilder &b, Location loc, Value kb, ValueRange acc) {
            Value sa = buildLoadScale(b, loc, op.getSfa(), layout, format,
                                      /*isVector=*/false, l, m, kb);
            Value sum;
            if (op.hasPackedB())
              sum = arith::AddFOp::create(
                  b, loc, acc[0],
                  buildPackedBlockTerm(b, loc, op, cst, l, n, m, kb, sa));
            else
              sum = buildWideBlock(b, loc, op, cst, l, n, m, kb, sa, acc[0]);
            scf::YieldOp::create(b, loc, sum);
          });
      Value result = kbLoop.getResult(0);
      if (op.getAlpha())
        result = arith::MulFOp::create(b, loc, result, op.getAlpha());
      memref::StoreOp::create(b, loc, buildTruncF32(b, loc, result, outType),
                              op.getC(), vectorIndex(op, l, n, m));
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Zero-fills a blocked destination (its padding), then copies every scale
/// of the linear side.
struct ConvertScaleLayoutLowering
    : public OpRewritePattern<ConvertScaleLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertScaleLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value src = op.getSource(), dst = op.getDest();
    if (op.getTo() == ScaleLayout::Blocked128x4) {
      SmallVector<Value> sizes = buildDims(b, loc, dst);
      Value zero = arith::ConstantIntOp::create(b, loc, 0, 8);
      buildLoopNest(b, loc, sizes, [&](OpBuilder &b, ValueRange iv) {
        buildStoreScaleBits(b, loc, zero, dst, iv);
      });
    }
    // The linear side gives rows and columns (both sides when the layouts
    // agree, so a same-layout conversion is a plain copy).
    Value linear = op.getFrom() == ScaleLayout::Linear ? src : dst;
    if (op.getFrom() == op.getTo() &&
        op.getFrom() == ScaleLayout::Blocked128x4) {
      buildLoopNest(b, loc, buildDims(b, loc, src),
                    [&](OpBuilder &b, ValueRange iv) {
                      Value v = memref::LoadOp::create(b, loc, src, iv);
                      memref::StoreOp::create(b, loc, v, dst, iv);
                    });
      rewriter.eraseOp(op);
      return success();
    }
    buildLoopNest(
        b, loc, buildDims(b, loc, linear), [&](OpBuilder &b, ValueRange iv) {
          SmallVector<Value> from = buildScaleIndices(
              b, loc, op.getFrom(), false, iv[0], iv[1], iv[2]);
          SmallVector<Value> to =
              buildScaleIndices(b, loc, op.getTo(), false, iv[0], iv[1], iv[2]);
          Value v = memref::LoadOp::create(b, loc, src, from);
          memref::StoreOp::create(b, loc, v, dst, to);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateGemvToLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<GemvLowering, ConvertScaleLayoutLowering>(patterns.getContext());
}
