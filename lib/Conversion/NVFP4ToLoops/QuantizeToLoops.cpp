//===- QuantizeToLoops.cpp - nvfp4.quantize / dequantize to loops ---------===//
//
// The f32 operation order here is the definition of docs/numerics.md and is
// mirrored by the float reference (nvfp4/Support/Reference.h).
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Conversion/Common/Codec.h"
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

Value absF(OpBuilder &b, Location loc, Value x) {
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), x);
  Value mask = arith::ConstantIntOp::create(b, loc, 0x7FFFFFFF, 32);
  return arith::BitcastOp::create(b, loc, b.getF32Type(),
                                  arith::AndIOp::create(b, loc, bits, mask));
}

/// max |x| over x[l, r, first .. first + count) (maxnumf: NaN-free inputs).
Value buildBlockAmax(OpBuilder &b, Location loc, Value input, Value l, Value r,
                     Value first, Value count) {
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, c0, count, c1, ValueRange{f32Const(b, loc, 0.0f)},
      [&](OpBuilder &b, Location loc, Value i, ValueRange acc) {
        Value k = arith::AddIOp::create(b, loc, first, i);
        Value x = absF(b, loc, loadAsF32(b, loc, input, {l, r, k}));
        scf::YieldOp::create(
            b, loc, arith::MaxNumFOp::create(b, loc, acc[0], x).getResult());
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
                  scf::YieldOp::create(
                      b, loc,
                      arith::MaxNumFOp::create(b, loc, acc2[0], m).getResult());
                });
            scf::YieldOp::create(b, loc, inner.getResult(0));
          });
      amax = outer.getResult(0);
      Value isZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                           amax, f32Const(b, loc, 0.0f));
      Value ratio =
          arith::DivFOp::create(b, loc, f32Const(b, loc, 448.0f * 6.0f), amax);
      gs = arith::SelectOp::create(b, loc, isZero, f32Const(b, loc, 1.0f),
                                   ratio);
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
          Value scaleBits;
          if (format == ScaleFormat::NVFP4) {
            Value target = arith::DivFOp::create(
                b, loc, arith::MulFOp::create(b, loc, amax, gs),
                f32Const(b, loc, 6.0f));
            scaleBits = buildEncodeE4M3FN(b, loc, target);
          } else {
            Value isZero =
                arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, amax,
                                      f32Const(b, loc, 0.0f));
            scaleBits = arith::SelectOp::create(
                b, loc, isZero, arith::ConstantIntOp::create(b, loc, 0, 8),
                buildEncodeUE8M0ForE2M1(b, loc, amax));
          }
          buildStoreScaleBits(
              b, loc, scaleBits, op.getScales(),
              buildScaleIndices(b, loc, op.getLayout(), false, l, r, kb));
          Value scale = buildDecodeScale(b, loc, scaleBits, format);
          // NVFP4 multiplies by gs / s; MXFP4 divides by the power of two. A
          // block that quantizes to nothing (NVFP4: zero scale; MXFP4: bmax ==
          // 0, whose scale byte 0 is 2^-127, not 0) gets +0 codes whatever the
          // signs.
          Value inv = arith::DivFOp::create(b, loc, gs, scale);
          Value zeroBlock =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                    format == ScaleFormat::MXFP4 ? amax : scale,
                                    f32Const(b, loc, 0.0f));
          auto encode = [&](Value x) -> Value {
            Value scaled =
                format == ScaleFormat::MXFP4
                    ? arith::DivFOp::create(b, loc, x, scale).getResult()
                    : arith::MulFOp::create(b, loc, x, inv).getResult();
            return arith::SelectOp::create(
                b, loc, zeroBlock, arith::ConstantIntOp::create(b, loc, 0, 8),
                buildEncodeE2M1(b, loc, scaled));
          };
          Value firstByte = arith::MulIOp::create(b, loc, kb, halfBlock);
          buildLoopNest(b, loc, {halfBlock}, [&](OpBuilder &b, ValueRange jv) {
            Value byteIdx = arith::AddIOp::create(b, loc, firstByte, jv[0]);
            Value k = arith::MulIOp::create(
                b, loc, byteIdx, arith::ConstantIndexOp::create(b, loc, 2));
            Value k1 = arith::AddIOp::create(
                b, loc, k, arith::ConstantIndexOp::create(b, loc, 1));
            Value lo = encode(loadAsF32(b, loc, input, {l, r, k}));
            Value hi = encode(loadAsF32(b, loc, input, {l, r, k1}));
            Value packed = arith::OrIOp::create(
                b, loc,
                arith::AndIOp::create(
                    b, loc, lo, arith::ConstantIntOp::create(b, loc, 15, 8)),
                arith::ShLIOp::create(
                    b, loc, hi, arith::ConstantIntOp::create(b, loc, 4, 8)));
            memref::StoreOp::create(b, loc, packed, op.getData(),
                                    ValueRange{l, r, byteIdx});
          });
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// x / gs (both f32) as an f32 that rounds to `outType` exactly as the
/// exact quotient does. For f32 output that is the f32 division. For f16
/// and bf16 the quotient is formed in f64 (x is exact there, so the only
/// error is the f64 rounding, far below half an f32 ulp) and narrowed to
/// f32 rounding to odd: an inexact result gets an odd last bit, so the
/// later rounding to 11 or 8 bits cannot meet a false tie (f32 has more
/// than p + 2 bits for either).
Value buildDivideOnce(OpBuilder &b, Location loc, Value x, Value gs,
                      Type outType) {
  if (outType.isF32())
    return arith::DivFOp::create(b, loc, x, gs);
  Type f64 = b.getF64Type(), i32 = b.getI32Type();
  Value q = arith::DivFOp::create(b, loc, arith::ExtFOp::create(b, loc, f64, x),
                                  arith::ExtFOp::create(b, loc, f64, gs));
  Value nearest = arith::TruncFOp::create(b, loc, b.getF32Type(), q);
  Value back = arith::ExtFOp::create(b, loc, f64, nearest);
  Value bits = arith::BitcastOp::create(b, loc, i32, nearest);
  auto i32c = [&](int32_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32).getResult();
  };
  // Inexact with an even last bit: step one ulp towards q (the neighbour
  // on the other side of q is odd). The bits hold sign and magnitude, so
  // the magnitude steps down when |nearest| > |q|.
  Value inexact =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, back, q);
  Value even = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, bits, i32c(1)), i32c(0));
  Value above =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, back, q);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bits, i32c(0));
  Value magnitudeDown = arith::XOrIOp::create(b, loc, above, negative);
  Value step =
      arith::SelectOp::create(b, loc, magnitudeDown, i32c(-1), i32c(1));
  Value odd = arith::AddIOp::create(b, loc, bits, step);
  Value fix = arith::AndIOp::create(b, loc, inexact, even);
  return arith::BitcastOp::create(
      b, loc, b.getF32Type(), arith::SelectOp::create(b, loc, fix, odd, bits));
}

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
        Value x = arith::MulFOp::create(b, loc, value, scale);
        if (gs)
          x = buildDivideOnce(b, loc, x, gs, outType);
        memref::StoreOp::create(b, loc, buildTruncF32(b, loc, x, outType),
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
