//===- QuantizeCodec.cpp - IR for the quantizers' arithmetic --------------===//

#include "nvfp4/Conversion/Common/QuantizeCodec.h"
#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/ScalarOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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

Value mlir::nvfp4::buildQuantizeBits(OpBuilder &b, Location loc,
                                     const BlockQuantizer &q, Value x) {
  return buildEncodeE2M1Bits(b, loc,
                             arith::MulFOp::create(b, loc, x, q.multiplier));
}

Value mlir::nvfp4::buildQuantizeValue(OpBuilder &b, Location loc,
                                      const BlockQuantizer &q, Value x) {
  // +0 codes whatever the signs.
  ScalarOps o{b, loc};
  return arith::SelectOp::create(b, loc, q.isZero,
                                 arith::ConstantIntOp::create(b, loc, 0, 8),
                                 o.trunc8(buildQuantizeBits(b, loc, q, x)));
}

namespace {

/// `bits` (an f32's) moved one ulp towards the exact value when the f32
/// they hold is inexact with an even last bit (the neighbour on the other
/// side is odd): round to odd. `above` says the f32 exceeds the exact
/// value; the bits hold sign and magnitude, so the magnitude steps down
/// when the value is above a positive or below a negative exact value.
Value buildRoundToOdd(ScalarOps &o, Value bits, Value inexact, Value above) {
  Value even = o.cmp(arith::CmpIPredicate::eq, o.andi(bits, 1), o.i32(0));
  Value negative = o.cmp(arith::CmpIPredicate::slt, bits, o.i32(0));
  Value magnitudeDown = arith::XOrIOp::create(o.b, o.loc, above, negative);
  Value odd = o.add(bits, o.select(magnitudeDown, o.i32(-1), o.i32(1)));
  Value fix = arith::AndIOp::create(o.b, o.loc, inexact, even);
  return o.select(fix, odd, bits);
}

/// x / gs narrowed to f32 rounding to odd, through f64: x is exact there, so
/// the only other error is the f64 rounding, far below half an f32 ulp.
Value buildDivideToOddInF64(OpBuilder &b, Location loc, Value x, Value gs) {
  ScalarOps o{b, loc};
  Type f64 = b.getF64Type();
  Value q = arith::DivFOp::create(b, loc, arith::ExtFOp::create(b, loc, f64, x),
                                  arith::ExtFOp::create(b, loc, f64, gs));
  Value nearest = arith::TruncFOp::create(b, loc, b.getF32Type(), q);
  Value back = arith::ExtFOp::create(b, loc, f64, nearest);
  return o.asF32(buildRoundToOdd(
      o, o.asI32(nearest), o.cmpf(arith::CmpFPredicate::ONE, back, q),
      o.cmpf(arith::CmpFPredicate::OGT, back, q)));
}

/// x / gs (both f32) as an f32 that rounds to `outType` exactly as the
/// exact quotient does. For f32 output that is the f32 division. For f16
/// and bf16 it is the quotient rounded to odd (an inexact result gets an
/// odd last bit, so the later rounding to 11 or 8 bits cannot meet a false
/// tie: f32 has more than p + 2 bits for either). The f32 division's
/// residual x - q * gs is exact (one fma) while q is normal and far from
/// overflow, and its sign says on which side of q the exact quotient lies;
/// zero x is exact too. Other quotients (under- or overflowing ones, a zero
/// or non-finite gs) take the f64 route, a branch that data within the
/// formats' range never takes: f64 division is several times slower than
/// the memory rate on GPUs with few f64 units.
Value buildDivideOnce(OpBuilder &b, Location loc, Value x, Value gs,
                      Type outType) {
  Value q = arith::DivFOp::create(b, loc, x, gs);
  if (outType.isF32())
    return q;
  ScalarOps o{b, loc};
  Value absQ = o.asF32(o.andi(o.asI32(q), 0x7FFFFFFF));
  Value inRange = arith::AndIOp::create(
      b, loc, o.cmpf(arith::CmpFPredicate::OGE, absQ, o.f32(0x1p-100f)),
      o.cmpf(arith::CmpFPredicate::OLT, absQ, o.f32(0x1p100f)));
  Value fast = arith::OrIOp::create(
      b, loc, inRange, o.cmpf(arith::CmpFPredicate::OEQ, x, o.f32(0.0f)));
  auto ifFast = scf::IfOp::create(b, loc, TypeRange{b.getF32Type()}, fast,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFast.thenBlock());
    Value negQ = arith::NegFOp::create(b, loc, q);
    Value residual = LLVM::FMAOp::create(b, loc, negQ, gs, x);
    // q exceeds x / gs when the residual and gs have opposite signs.
    Value above = arith::XOrIOp::create(
        b, loc, o.cmpf(arith::CmpFPredicate::OLT, residual, o.f32(0.0f)),
        o.cmpf(arith::CmpFPredicate::OLT, gs, o.f32(0.0f)));
    Value inexact = o.cmpf(arith::CmpFPredicate::ONE, residual, o.f32(0.0f));
    scf::YieldOp::create(
        b, loc, o.asF32(buildRoundToOdd(o, o.asI32(q), inexact, above)));
    b.setInsertionPointToStart(ifFast.elseBlock());
    scf::YieldOp::create(b, loc, buildDivideToOddInF64(b, loc, x, gs));
  }
  return ifFast.getResult(0);
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
