//===- QuantizeCodec.cpp - IR for the quantizers' arithmetic --------------===//

#include "nvfp4/Conversion/Common/QuantizeCodec.h"
#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/ScalarOps.h"
#include "nvfp4/Support/Formats.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::nvfp4;

Value mlir::nvfp4::buildGlobalScale(OpBuilder &b, Location loc, Value amax) {
  ScalarOps o{b, loc};
  Value isZero = o.cmpf(arith::CmpFPredicate::OEQ, amax, o.f32(0.0f));
  Value ratio = arith::DivFOp::create(b, loc, o.f32(448.0f * 6.0f), amax);
  return o.select(isZero, o.f32(1.0f), ratio);
}

namespace {

/// x / 6 rounded to nearest even for x >= 0 from 2^-125 to the largest
/// f32: q = x * RN(1/6) corrected once by its exact residual x - 6 q
/// (checked against the division for every such f32). Below 2^-125 the
/// quotient may be a subnormal ulp off, which only a value under 2^-10 can
/// be, and e4m3 encodes every such value as 0, as it does the exact one.
/// Three f32 operations where a division takes about ten.
Value buildDivideBySix(OpBuilder &b, Location loc, Value x) {
  ScalarOps o{b, loc};
  Value sixth = o.f32(1.0f / 6.0f);
  Value q = arith::MulFOp::create(b, loc, x, sixth);
  Value residual = LLVM::FMAOp::create(b, loc, arith::NegFOp::create(b, loc, q),
                                       o.f32(6.0f), x);
  return LLVM::FMAOp::create(b, loc, residual, sixth, q);
}

} // namespace

BlockQuantizer mlir::nvfp4::buildBlockQuantizer(OpBuilder &b, Location loc,
                                                ScaleFormat format, Value amax,
                                                Value gs) {
  ScalarOps o{b, loc};
  BlockQuantizer q;
  if (format == ScaleFormat::NVFP4) {
    Value target =
        buildDivideBySix(b, loc, arith::MulFOp::create(b, loc, amax, gs));
    q.scaleBits = buildEncodeE4M3FN(b, loc, target);
    // The byte is 0 to 0x7E (no sign, no NaN): its 7 bits at f32 bit 20
    // are the value times 2^-120, subnormals included.
    Value scale = arith::MulFOp::create(
        b, loc, o.asF32(o.shl(o.zext32(q.scaleBits), 20)), o.f32(0x1p120f));
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

Value mlir::nvfp4::buildQuantizeMagnitudes(OpBuilder &b, Location loc,
                                           const BlockQuantizer &q,
                                           ArrayRef<Value> xs) {
  // Round v = min(|x * multiplier|, 6) to the e2m1 grid of its binade by
  // adding M = 1.5 * 2^23 * step, whose ulp is the grid step (0.5 below 2,
  // 1 in [2, 4), 2 from 4): the f32 addition rounds to nearest even, and the
  // low bits of the sum count steps. With the clamped exponent field
  // e = max(E(v), 127), M's bits are (e << 23) + 0x0B400000 and the code is
  // steps + 2 (e - 127): bits(sum) + e (2 - 2^23) - 0x0B400000 - 254.
  // Code i is wanted times 16^i; summing those products in wrapping i32
  // arithmetic is exact modulo 2^32, and the word of codes is below 2^32,
  // so the constants of all codes are added once and each code costs two
  // multiply-adds (nibble i of the sum is then code i). nvfp4-cpu-check
  // checks the codes against formats::encodeE2M1 near every midpoint and
  // grid value.
  assert(xs.size() <= 8 && "eight codes a word");
  ScalarOps o{b, loc};
  auto wrap = [&](int64_t v) {
    return o.i32(static_cast<int32_t>(static_cast<uint32_t>(v)));
  };
  int64_t constant = 0;
  Value word;
  for (auto [i, x] : llvm::enumerate(xs)) {
    int64_t nibble = int64_t(1) << (4 * i);
    Value product = arith::MulFOp::create(b, loc, x, q.multiplier);
    Value v = buildMinNum(b, loc, o.absf(product), o.f32(6.0f));
    Value field =
        arith::MaxSIOp::create(b, loc, o.shr(o.asI32(v), 23), o.i32(127));
    Value magic = o.add(o.shl(field, 23), o.i32(0x0B400000));
    Value sum = arith::AddFOp::create(b, loc, v, o.asF32(magic));
    Value term =
        o.add(arith::MulIOp::create(b, loc, o.asI32(sum), wrap(nibble)),
              arith::MulIOp::create(b, loc, field,
                                    wrap((2 - (int64_t(1) << 23)) * nibble)));
    word = word ? o.add(word, term) : term;
    constant -= (0x0B400000 + 254) * nibble;
  }
  return o.add(word, wrap(constant));
}

Value mlir::nvfp4::buildSignNibbles(OpBuilder &b, Location loc,
                                    ArrayRef<Value> xs) {
  assert(xs.size() <= 8 && "eight codes a word");
  ScalarOps o{b, loc};
  Value word;
  for (auto [i, x] : llvm::enumerate(xs)) {
    // Bit 31 to bit 4 i + 3.
    Value bit = o.andi(o.shr(o.asI32(x), 28 - 4 * int64_t(i)),
                       static_cast<int32_t>(8u << (4 * i)));
    word = word ? o.ori(word, bit) : bit;
  }
  return word;
}

Value mlir::nvfp4::buildSignNibblesOf16Bit(OpBuilder &b, Location loc,
                                           Value vector) {
  ScalarOps o{b, loc};
  Value bytes = vector::BitCastOp::create(
      b, loc, VectorType::get({16}, b.getI8Type()), vector);
  // The high bytes of values 0, 2, 4, 6, then of 1, 3, 5, 7: their signs at
  // bit 8 j + 7 of two words.
  Value high = vector::ShuffleOp::create(
      b, loc, bytes, bytes, ArrayRef<int64_t>{1, 5, 9, 13, 3, 7, 11, 15});
  Value words = vector::BitCastOp::create(
      b, loc, VectorType::get({2}, b.getI32Type()), high);
  Value even = vector::ExtractOp::create(b, loc, words, 0);
  Value odd = vector::ExtractOp::create(b, loc, words, 1);
  // Value 2 j to bit 8 j + 3, value 2 j + 1 stays at bit 8 j + 7.
  return o.ori(o.andi(o.shr(even, 4), 0x08080808),
               o.andi(odd, static_cast<int32_t>(0x80808080u)));
}

Value mlir::nvfp4::buildKeepMask(OpBuilder &b, Location loc,
                                 const BlockQuantizer &q) {
  ScalarOps o{b, loc};
  return o.select(q.isZero, o.i32(0), o.i32(-1));
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
  return o.asF32(buildRoundToOdd(o, o.asI32(nearest),
                                 o.cmpf(arith::CmpFPredicate::ONE, back, q),
                                 o.cmpf(arith::CmpFPredicate::OGT, back, q)));
}

/// x / gs (both f32) by r = RN(1 / gs), without a division: q0 = RN(x r)
/// is within an ulp of x / gs, so its residual x - q0 gs is exact and q =
/// RN(q0 + residual r) is the quotient rounded to nearest (Markstein); the
/// residual of q then says on which side of q the exact quotient lies.
/// `rounded` is q for f32 output and q rounded to odd for f16 and bf16 (an
/// inexact result gets an odd last bit, so the later rounding to 11 or 8
/// bits cannot meet a false tie: f32 has more than p + 2 bits for either).
/// That holds while nothing under- or overflows, which 2^-100 <= |q| <
/// 2^100 ensures for the products of e2m1 values and e4m3 scales
/// (fastQuotientHolds); zero x gives x r = q0, the signed zero or NaN of
/// the division while r is finite.
struct FastQuotient {
  Value r, q0, q, rounded;
};

FastQuotient buildFastQuotient(OpBuilder &b, Location loc, Value x, Value gs,
                               Type outType) {
  ScalarOps o{b, loc};
  auto fma = [&](Value p, Value q, Value c) {
    return LLVM::FMAOp::create(b, loc, p, q, c).getResult();
  };
  auto neg = [&](Value v) { return arith::NegFOp::create(b, loc, v); };
  FastQuotient f;
  f.r = arith::DivFOp::create(b, loc, o.f32(1.0f), gs);
  f.q0 = arith::MulFOp::create(b, loc, x, f.r);
  f.q = fma(fma(neg(f.q0), gs, x), f.r, f.q0);
  f.rounded = f.q;
  if (!outType.isF32()) {
    Value residual = fma(neg(f.q), gs, x);
    // q exceeds x / gs when the residual and gs have opposite signs.
    Value above = arith::XOrIOp::create(
        b, loc, o.cmpf(arith::CmpFPredicate::OLT, residual, o.f32(0.0f)),
        o.cmpf(arith::CmpFPredicate::OLT, gs, o.f32(0.0f)));
    Value inexact = o.cmpf(arith::CmpFPredicate::ONE, residual, o.f32(0.0f));
    f.rounded = o.asF32(buildRoundToOdd(o, o.asI32(f.q), inexact, above));
  }
  return f;
}

/// 2^-100 <= |q| < `limit` (at most 2^100): a fast quotient q is right.
Value fastQuotientHolds(ScalarOps &o, Value q, float limit) {
  Value absQ = o.absf(q);
  return arith::AndIOp::create(
      o.b, o.loc, o.cmpf(arith::CmpFPredicate::OGE, absQ, o.f32(0x1p-100f)),
      o.cmpf(arith::CmpFPredicate::OLT, absQ, o.f32(limit)));
}

/// x / gs (both f32) as an f32 that rounds to `outType` exactly as the
/// exact quotient does: for f32 output the quotient rounded to nearest, for
/// f16 and bf16 rounded to odd. The fast quotient where it holds (or x is
/// zero and 1 / gs finite); other quotients (near under- or overflow, a
/// zero, tiny or non-finite gs) take a division: f32 for f32 output, f64
/// narrowed to odd for 16-bit output, a branch that data within the
/// formats' range never takes.
Value buildDivideOnce(OpBuilder &b, Location loc, Value x, Value gs,
                      Type outType) {
  ScalarOps o{b, loc};
  FastQuotient f = buildFastQuotient(b, loc, x, gs, outType);
  // x r is the signed zero (or NaN) x / gs is unless r overflowed.
  Value zero = arith::AndIOp::create(
      b, loc, o.cmpf(arith::CmpFPredicate::OEQ, x, o.f32(0.0f)),
      o.cmpf(arith::CmpFPredicate::OLT, o.absf(f.r),
             o.f32(std::numeric_limits<float>::infinity())));
  Value fast =
      arith::OrIOp::create(b, loc, fastQuotientHolds(o, f.q, 0x1p100f), zero);
  auto ifFast = scf::IfOp::create(b, loc, TypeRange{b.getF32Type()}, fast,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFast.thenBlock());
  scf::YieldOp::create(b, loc, o.select(zero, f.q0, f.rounded));
  b.setInsertionPointToStart(ifFast.elseBlock());
  scf::YieldOp::create(b, loc,
                       outType.isF32()
                           ? arith::DivFOp::create(b, loc, x, gs).getResult()
                           : buildDivideToOddInF64(b, loc, x, gs));
  b.setInsertionPointAfter(ifFast);
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

SmallVector<Value> mlir::nvfp4::buildDequantizeMagnitudes(OpBuilder &b,
                                                          Location loc,
                                                          Value scale, Value gs,
                                                          Type outType) {
  ScalarOps o{b, loc};
  auto eachByItself = [&] {
    SmallVector<Value> values;
    for (uint8_t code = 0; code < 8; ++code)
      values.push_back(buildDequantizeValue(
          b, loc, o.f32(float(::nvfp4::formats::decodeE2M1(code))), scale, gs,
          outType));
    return values;
  };
  if (!gs)
    return eachByItself();
  // The magnitudes are 0, 2^j (j = -1..2) and 3 2^j (j = -1..1): with q1 =
  // s / gs and q3 = 3 s / gs rounded once (3 s is exact), m s / gs rounds as
  // q1 or q3 times a power of two does, while those products are normal
  // f32s, which |q1| from 2^-100 below 2^97 ensures (0 q1 is then the signed
  // zero 0 s / gs is), and their fast quotients hold. Two quotients instead
  // of seven, one branch; other quotients (a zero or NaN scale among them)
  // take the values' own arithmetic.
  FastQuotient q1 = buildFastQuotient(b, loc, scale, gs, outType);
  FastQuotient q3 = buildFastQuotient(
      b, loc, arith::MulFOp::create(b, loc, scale, o.f32(3.0f)), gs, outType);
  Value normal = fastQuotientHolds(o, q1.q, 0x1p97f);
  SmallVector<Type> types(8, outType);
  auto ifNormal =
      scf::IfOp::create(b, loc, types, normal, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifNormal.thenBlock());
  // Code c is (q1 or q3) times 2^j: {q, 2^j} for c = 0..7.
  const std::pair<int, float> terms[8] = {{1, 0.0f}, {1, 0.5f}, {1, 1.0f},
                                          {3, 0.5f}, {1, 2.0f}, {3, 1.0f},
                                          {1, 4.0f}, {3, 2.0f}};
  SmallVector<Value> scaled;
  for (auto [q, power] : terms)
    scaled.push_back(buildTruncF32(
        b, loc,
        arith::MulFOp::create(b, loc, q == 1 ? q1.rounded : q3.rounded,
                              o.f32(power)),
        outType));
  scf::YieldOp::create(b, loc, scaled);
  b.setInsertionPointToStart(ifNormal.elseBlock());
  scf::YieldOp::create(b, loc, eachByItself());
  return SmallVector<Value>(ifNormal.getResults());
}
