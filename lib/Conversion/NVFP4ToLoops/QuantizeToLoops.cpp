//===- QuantizeToLoops.cpp - nvfp4.quantize / dequantize to loops ---------===//
//
// The f32 operation order here is the definition of docs/numerics.md and is
// mirrored by the float reference (nvfp4/Support/Reference.h).
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/QuantizeCodec.h"
#include "nvfp4/Conversion/Common/ScalarOps.h"
#include "nvfp4/Conversion/NVFP4ToLoops/LoopsCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

Value f32Const(OpBuilder &b, Location loc, float v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

Value loadAsF32(OpBuilder &b, Location loc, Value memref, ValueRange iv) {
  Value v = memref::LoadOp::create(b, loc, memref, iv);
  if (v.getType().isF32())
    return v;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
}

/// max |x| over x[l, r, first .. first + count) (maxNum: a NaN is never the
/// maximum).
Value buildBlockAmax(OpBuilder &b, Location loc, Value input, Value l, Value r,
                     Value first, Value count) {
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, c0, count, c1, ValueRange{f32Const(b, loc, 0.0f)},
      [&](OpBuilder &b, Location loc, Value i, ValueRange acc) {
        Value k = arith::AddIOp::create(b, loc, first, i);
        Value x = ScalarOps{b, loc}.absf(loadAsF32(b, loc, input, {l, r, k}));
        scf::YieldOp::create(b, loc, buildMaxNum(b, loc, acc[0], x));
      });
  return loop.getResult(0);
}

struct QuantizeLowering : public OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    ScaleFormat format = op.getFormat();
    int64_t block = getBlockSize(format);
    Value input = op.getInput();
    SmallVector<Value> dims = buildDims(b, loc, input);
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value blockSize = arith::ConstantIndexOp::create(b, loc, block);
    Value halfBlock = arith::ConstantIndexOp::create(b, loc, block / 2);
    Value blocks = arith::DivUIOp::create(b, loc, dims[2], blockSize);

    // Two-level NVFP4: gs = 448 * 6 / amax(x), or 1 for an all-zero tensor.
    Value gs = f32Const(b, loc, 1.0f);
    if (Value gsMem = op.getGlobalScale()) {
      Value amax = f32Const(b, loc, 0.0f);
      auto outer = scf::ForOp::create(
          b, loc, c0, dims[0], arith::ConstantIndexOp::create(b, loc, 1),
          ValueRange{amax},
          [&](OpBuilder &b, Location loc, Value l, ValueRange acc) {
            auto inner = scf::ForOp::create(
                b, loc, c0, dims[1], arith::ConstantIndexOp::create(b, loc, 1),
                ValueRange{acc[0]},
                [&](OpBuilder &b, Location loc, Value r, ValueRange acc2) {
                  Value m = buildBlockAmax(b, loc, input, l, r, c0, dims[2]);
                  scf::YieldOp::create(b, loc, buildMaxNum(b, loc, acc2[0], m));
                });
            scf::YieldOp::create(b, loc, inner.getResult(0));
          });
      gs = buildGlobalScale(b, loc, outer.getResult(0));
      memref::StoreOp::create(b, loc, gs, gsMem, ValueRange{});
    }

    // Blocked scales: padding bytes are zero (docs/numerics.md section 4).
    if (op.getLayout() == ScaleLayout::Blocked128x4) {
      Value zeroBits = arith::ConstantIntOp::create(b, loc, 0, 8);
      buildLoopNest(b, loc, buildDims(b, loc, op.getScales()),
                    [&](OpBuilder &b, ValueRange iv) {
                      buildStoreScaleBits(b, loc, zeroBits, op.getScales(), iv);
                    });
    }

    buildLoopNest(
        b, loc, {dims[0], dims[1], blocks}, [&](OpBuilder &b, ValueRange iv) {
          Value l = iv[0], r = iv[1], kb = iv[2];
          Value first = arith::MulIOp::create(b, loc, kb, blockSize);
          Value amax = buildBlockAmax(b, loc, input, l, r, first, blockSize);
          BlockQuantizer q = buildBlockQuantizer(b, loc, format, amax, gs);
          buildStoreScaleBits(
              b, loc, q.scaleBits, op.getScales(),
              buildScaleIndices(b, loc, op.getLayout(), false, l, r, kb));
          Value keep = buildKeepMask(b, loc, q);
          Value firstByte = arith::MulIOp::create(b, loc, kb, halfBlock);
          buildLoopNest(b, loc, {halfBlock}, [&](OpBuilder &b, ValueRange jv) {
            Value byteIdx = arith::AddIOp::create(b, loc, firstByte, jv[0]);
            Value k = arith::MulIOp::create(
                b, loc, byteIdx, arith::ConstantIndexOp::create(b, loc, 2));
            Value k1 = arith::AddIOp::create(
                b, loc, k, arith::ConstantIndexOp::create(b, loc, 1));
            Value pair[] = {loadAsF32(b, loc, input, {l, r, k}),
                            loadAsF32(b, loc, input, {l, r, k1})};
            // The kernels' word of codes, two codes wide.
            Value codes = arith::OrIOp::create(
                b, loc, buildQuantizeMagnitudes(b, loc, q, pair),
                buildSignNibbles(b, loc, pair));
            Value packed = arith::TruncIOp::create(
                b, loc, b.getI8Type(),
                arith::AndIOp::create(b, loc, codes, keep));
            memref::StoreOp::create(b, loc, packed, op.getData(),
                                    ValueRange{l, r, byteIdx});
          });
        });
    rewriter.eraseOp(op);
    return success();
  }
};

struct DequantizeLowering : public OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    ScaleFormat format = op.getFormat();
    SmallVector<Value> dims = buildDims(b, loc, op.getData());
    Value two = arith::ConstantIndexOp::create(b, loc, 2);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value block = arith::ConstantIndexOp::create(b, loc, getBlockSize(format));
    Value gs;
    if (op.getGlobalScale())
      gs = memref::LoadOp::create(b, loc, op.getGlobalScale(), ValueRange{});
    Type outType = op.getOutput().getType().getElementType();
    buildLoopNest(b, loc, dims, [&](OpBuilder &b, ValueRange iv) {
      Value l = iv[0], r = iv[1], j = iv[2];
      Value k = arith::MulIOp::create(b, loc, j, two);
      Value kb = arith::DivUIOp::create(b, loc, k, block);
      Value scale = buildLoadScale(b, loc, op.getScales(), op.getLayout(),
                                   format, /*isVector=*/false, l, r, kb);
      Value byte = memref::LoadOp::create(b, loc, op.getData(), iv);
      auto [lo, hi] = buildDecodeE2M1Pair(b, loc, byte);
      auto store = [&](Value value, Value kIdx) {
        memref::StoreOp::create(
            b, loc, buildDequantizeValue(b, loc, value, scale, gs, outType),
            op.getOutput(), ValueRange{l, r, kIdx});
      };
      store(lo, k);
      store(hi, arith::AddIOp::create(b, loc, k, one));
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateQuantizeToLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<QuantizeLowering, DequantizeLowering>(patterns.getContext());
}
