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

/// c[l, m] = alpha * sum_kb sfa * sfb * (exact f32 block dot product).
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

    buildLoopNest(b, loc, {batches, rows}, [&](OpBuilder &b, ValueRange iv) {
      Value l = iv[0], m = iv[1];
      auto kbLoop = scf::ForOp::create(
          b, loc, c0, blocks, c1, ValueRange{zero},
          [&](OpBuilder &b, Location loc, Value kb, ValueRange acc) {
            Value sa = buildLoadScale(b, loc, op.getSfa(), layout, format,
                                      /*isVector=*/false, l, m, kb);
            Value sb = buildLoadScale(b, loc, op.getSfb(), layout, format,
                                      /*isVector=*/true, l, c0, kb);
            Value first = arith::MulIOp::create(b, loc, kb, bytesPerBlock);
            auto dot = scf::ForOp::create(
                b, loc, c0, bytesPerBlock, c1, ValueRange{zero},
                [&](OpBuilder &b, Location loc, Value j, ValueRange part) {
                  Value k = arith::AddIOp::create(b, loc, first, j);
                  Value byteA = memref::LoadOp::create(b, loc, op.getA(),
                                                       ValueRange{l, m, k});
                  Value byteB = memref::LoadOp::create(b, loc, op.getB(),
                                                       ValueRange{l, k});
                  auto [aLo, aHi] = buildDecodeE2M1Pair(b, loc, byteA);
                  auto [bLo, bHi] = buildDecodeE2M1Pair(b, loc, byteB);
                  Value sum = arith::AddFOp::create(
                      b, loc, part[0], arith::MulFOp::create(b, loc, aLo, bLo));
                  sum = arith::AddFOp::create(
                      b, loc, sum, arith::MulFOp::create(b, loc, aHi, bHi));
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
                      b, loc,
                      b.getF32FloatAttr(
                          std::numeric_limits<float>::infinity())));
              Value zeroDot = arith::CmpFOp::create(
                  b, loc, arith::CmpFPredicate::OEQ, dot.getResult(0), zero);
              term = arith::SelectOp::create(
                  b, loc, arith::AndIOp::create(b, loc, infScale, zeroDot),
                  dot.getResult(0), term);
            }
            scf::YieldOp::create(
                b, loc,
                arith::AddFOp::create(b, loc, acc[0], term).getResult());
          });
      Value result = kbLoop.getResult(0);
      if (op.getAlpha())
        result = arith::MulFOp::create(b, loc, result, op.getAlpha());
      memref::StoreOp::create(b, loc, buildTruncF32(b, loc, result, outType),
                              op.getC(), ValueRange{l, m});
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
