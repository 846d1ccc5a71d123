//===- QuantizeCodec.cpp - IR for the quantizers' arithmetic --------------===//

#include "nvfp4/Conversion/Common/QuantizeCodec.h"
#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/ScalarOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::nvfp4;

Value mlir::nvfp4::buildGlobalScale(OpBuilder &b, Location loc, Value amax) {
  ScalarOps o{b, loc};
  Value isZero = o.cmpf(arith::CmpFPredicate::OEQ, amax, o.f32(0.0f));
  Value ratio = arith::DivFOp::create(b, loc, o.f32(448.0f * 6.0f), amax);
  return o.select(isZero, o.f32(1.0f), ratio);
}

BlockQuantizer mlir::nvfp4::buildBlockQuantizer(OpBuilder &b, Location loc,
                                                ScaleFormat format, Value amax,
                                                Value gs) {
  ScalarOps o{b, loc};
  BlockQuantizer q;
  if (format == ScaleFormat::NVFP4) {
    Value target = arith::DivFOp::create(
        b, loc, arith::MulFOp::create(b, loc, amax, gs), o.f32(6.0f));
    q.scaleBits = buildEncodeE4M3FN(b, loc, target);
    Value scale = buildDecodeScale(b, loc, q.scaleBits, format);
    q.multiplier = arith::DivFOp::create(b, loc, gs, scale);
    // A zero scale quantizes the block to nothing.
    q.isZero = o.cmpf(arith::CmpFPredicate::OEQ, scale, o.f32(0.0f));
    return q;
  }
  // MXFP4: byte 0 of an all-zero block is 2^-127, not 0, so the test is on
  // amax. The scale is a power of two whose reciprocal is an f32 (2^-127
  // included), so multiplying by it rounds exactly as dividing would.
  q.isZero = o.cmpf(arith::CmpFPredicate::OEQ, amax, o.f32(0.0f));
  q.scaleBits = o.select(q.isZero, arith::ConstantIntOp::create(b, loc, 0, 8),
                         buildEncodeUE8M0ForE2M1(b, loc, amax));
  Value scale = buildDecodeScale(b, loc, q.scaleBits, format);
  q.multiplier = arith::DivFOp::create(b, loc, o.f32(1.0f), scale);
  return q;
}

Value mlir::nvfp4::buildQuantizeValue(OpBuilder &b, Location loc,
                                      const BlockQuantizer &q, Value x) {
  Value scaled = arith::MulFOp::create(b, loc, x, q.multiplier);
  // +0 codes whatever the signs.
  return arith::SelectOp::create(b, loc, q.isZero,
                                 arith::ConstantIntOp::create(b, loc, 0, 8),
                                 buildEncodeE2M1(b, loc, scaled));
}

namespace {

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
  ScalarOps o{b, loc};
  Type f64 = b.getF64Type();
  Value q = arith::DivFOp::create(b, loc, arith::ExtFOp::create(b, loc, f64, x),
                                  arith::ExtFOp::create(b, loc, f64, gs));
  Value nearest = arith::TruncFOp::create(b, loc, b.getF32Type(), q);
  Value back = arith::ExtFOp::create(b, loc, f64, nearest);
  Value bits = o.asI32(nearest);
  // Inexact with an even last bit: step one ulp towards q (the neighbour
  // on the other side of q is odd). The bits hold sign and magnitude, so
  // the magnitude steps down when |nearest| > |q|.
  Value inexact = o.cmpf(arith::CmpFPredicate::ONE, back, q);
  Value even = o.cmp(arith::CmpIPredicate::eq, o.andi(bits, 1), o.i32(0));
  Value above = o.cmpf(arith::CmpFPredicate::OGT, back, q);
  Value negative = o.cmp(arith::CmpIPredicate::slt, bits, o.i32(0));
  Value magnitudeDown = arith::XOrIOp::create(b, loc, above, negative);
  Value step = o.select(magnitudeDown, o.i32(-1), o.i32(1));
  Value odd = o.add(bits, step);
  Value fix = arith::AndIOp::create(b, loc, inexact, even);
  return o.asF32(o.select(fix, odd, bits));
}

} // namespace

Value mlir::nvfp4::buildDequantizeValue(OpBuilder &b, Location loc, Value value,
                                        Value scale, Value gs, Type outType) {
  // The product is exact in f32; only the division (if any) rounds.
  Value x = arith::MulFOp::create(b, loc, value, scale);
  if (gs)
    x = buildDivideOnce(b, loc, x, gs, outType);
  return buildTruncF32(b, loc, x, outType);
}
