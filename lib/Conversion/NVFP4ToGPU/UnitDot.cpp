//===- UnitDot.cpp - dot products of 16 e2m1 pairs on CUDA cores ----------===//

#include "UnitDot.h"

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/ScalarOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

//===----------------------------------------------------------------------===//
// dp4a: twice an e2m1 value is an integer in {0, 1, 2, 3, 4, 6, 8, 12}.
// prmt looks four of them up at once (selector nibble = code). A selector
// nibble with bit 3 set replicates the sign of the chosen byte instead, which
// is 0 for the table, so one lookup yields |a| for the positive codes only and
// a lookup of code ^ 8 yields |a| for the negative ones.
//===----------------------------------------------------------------------===//

constexpr int64_t kTableLo = 0x03020100, kTableHi = 0x0C080604;
// prmt selector of bytes 4-7 (the second source word, in order).
constexpr int64_t kSecondSourceBytes = 0x7654;
constexpr int64_t kSignBits = 0x88888888, kByteMsbs = 0x80808080;
// 1.5 * 2^21, whose unit in the last place is 1/4: adding the integer sum
// of products of twice the e2m1 values (4 * dot) to its bits adds dot.
constexpr int64_t kMagicBits = 0x4A400000;
constexpr float kMagicValue = 3145728.0f;

Value lookup(OpBuilder &b, Location loc, const DecodeTables &tables,
             Value selector) {
  return buildPermute(b, loc, tables.words[0], tables.words[1], selector);
}

/// Bytewise x - y for bytes in [0, 127] whose differences stay in int8: the
/// or'ed-in top bits absorb every borrow, the xor removes them again.
Value byteSub(OpBuilder &b, Location loc, Value x, Value y) {
  ScalarOps o{b, loc};
  return o.xori(o.sub(o.ori(x, kByteMsbs), y), kByteMsbs);
}

/// For each 16-bit half of `words`: (selector of the codes, selector of the
/// codes with flipped signs), low half first.
SmallVector<std::pair<Value, Value>> halfSelectors(OpBuilder &b, Location loc,
                                                   ArrayRef<Value> words) {
  ScalarOps o{b, loc};
  SmallVector<std::pair<Value, Value>> halves;
  for (Value w : words) {
    Value flipped = o.xori(w, kSignBits);
    halves.push_back({w, flipped});
    halves.push_back({o.shr(w, 16), o.shr(flipped, 16)});
  }
  return halves;
}

Value asBytes(OpBuilder &b, Location loc, Value word) {
  return LLVM::BitcastOp::create(b, loc, VectorType::get({4}, b.getI8Type()),
                                 word);
}

SmallVector<Value> prepareDp4a(OpBuilder &b, Location loc,
                               const DecodeTables &tables,
                               ArrayRef<Value> words) {
  // Signed bytes 2b for every half word, as i32 words (2 per word).
  SmallVector<Value> prepared;
  for (auto [sel, flipped] : halfSelectors(b, loc, words))
    prepared.push_back(byteSub(b, loc, lookup(b, loc, tables, sel),
                               lookup(b, loc, tables, flipped)));
  return prepared;
}

/// The dot of a unit from the integer sum of its doubled products (4 dot)
/// accumulated on the bits of 1.5 * 2^21: while |sum| < 2^22 they are the
/// bit pattern of the f32 1.5 * 2^21 + dot, so one f32 subtraction gives
/// the dot itself (no I2F, which issues at a quarter rate, and no factor to
/// fold into a scale).
Value unbias(OpBuilder &b, Location loc, Value bits) {
  Value biased = arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
  return arith::SubFOp::create(
      b, loc, biased,
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(kMagicValue)));
}

Value dp4a(OpBuilder &b, Location loc, Value x, Value y, Value acc) {
  auto sType = NVVM::DotAccumulateTypeAttr::get(
      b.getContext(), NVVM::DotAccumulateType::SIGNED);
  return NVVM::DotAccumulate4WayOp::create(b, loc, b.getI32Type(), x, sType, y,
                                           sType, acc);
}

/// One vector: a's codes are looked up, never prepared. The products of
/// its positive and negative codes go to two sums (two independent
/// chains), so b needs no negated copy.
Value dotDp4a(OpBuilder &b, Location loc, const DecodeTables &tables,
              ArrayRef<Value> words, ArrayRef<Value> prepared) {
  ScalarOps o{b, loc};
  Value accPos = o.i32(kMagicBits), accNeg = o.i32(0);
  for (auto [i, half] : llvm::enumerate(halfSelectors(b, loc, words))) {
    Value pos = asBytes(b, loc, lookup(b, loc, tables, half.first));
    Value neg = asBytes(b, loc, lookup(b, loc, tables, half.second));
    Value signedB = asBytes(b, loc, prepared[i]);
    accPos = dp4a(b, loc, pos, signedB, accPos);
    accNeg = dp4a(b, loc, neg, signedB, accNeg);
  }
  // |sum| <= 16 * 144, far below 2^22.
  return unbias(b, loc, o.sub(accPos, accNeg));
}

/// Several vectors: a's unit is prepared once like b's (signed bytes 2a),
/// so each vector's dot is one chain of four signed x signed products.
Value preparedDotDp4a(OpBuilder &b, Location loc, ArrayRef<Value> preparedA,
                      ArrayRef<Value> preparedB) {
  ScalarOps o{b, loc};
  Value acc = o.i32(kMagicBits);
  for (auto [x, y] : llvm::zip_equal(preparedA, preparedB))
    acc = dp4a(b, loc, asBytes(b, loc, x), asBytes(b, loc, y), acc);
  return unbias(b, loc, acc);
}

//===----------------------------------------------------------------------===//
// cvt (sm_100a): cvt.rn.f16x2.e2m1x2 gives both values of a byte as f16x2;
// products and the 8 sums a lane of f16x2 collects are exact in f16
// (|sum| <= 8 * 36, multiples of 1/4).
//===----------------------------------------------------------------------===//

SmallVector<Value> unitBytes(OpBuilder &b, Location loc,
                             ArrayRef<Value> words) {
  ScalarOps o{b, loc};
  SmallVector<Value> bytes;
  for (Value w : words)
    for (int64_t i = 0; i < 4; ++i)
      bytes.push_back(
          arith::TruncIOp::create(b, loc, b.getI8Type(), o.shr(w, 8 * i)));
  return bytes;
}

Value cvtPair(OpBuilder &b, Location loc, Value byte) {
  return NVVM::ConvertF4x2ToF16x2Op::create(
      b, loc, VectorType::get({2}, b.getF16Type()), byte, /*relu=*/false,
      b.getType<Float4E2M1FNType>());
}

SmallVector<Value> prepareCvt(OpBuilder &b, Location loc,
                              ArrayRef<Value> words) {
  SmallVector<Value> prepared;
  for (Value byte : unitBytes(b, loc, words))
    prepared.push_back(cvtPair(b, loc, byte));
  return prepared;
}

/// The dot of a unit from a's f16x2 pairs, produced by `pair(i)` for byte i.
Value cvtDot(OpBuilder &b, Location loc, function_ref<Value(int64_t)> pair,
             ArrayRef<Value> prepared) {
  auto vecType = VectorType::get({2}, b.getF16Type());
  Value acc = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(vecType, b.getF16FloatAttr(0.0).getValue()));
  for (auto [i, bPair] : llvm::enumerate(prepared))
    acc = math::FmaOp::create(b, loc, pair(i), bPair, acc);
  Value wide =
      arith::ExtFOp::create(b, loc, VectorType::get({2}, b.getF32Type()), acc);
  Value lo = vector::ExtractOp::create(b, loc, wide, 0);
  Value hi = vector::ExtractOp::create(b, loc, wide, 1);
  return arith::AddFOp::create(b, loc, lo, hi);
}

Value dotCvt(OpBuilder &b, Location loc, ArrayRef<Value> words,
             ArrayRef<Value> prepared) {
  SmallVector<Value> bytes = unitBytes(b, loc, words);
  return cvtDot(
      b, loc, [&](int64_t i) { return cvtPair(b, loc, bytes[i]); }, prepared);
}

//===----------------------------------------------------------------------===//
// f32: every code decoded to f32 with byte permutes. The f32 of an e2m1
// value has two nonzero bytes, both looked up by prmt from the code's
// magnitude (four codes a lookup); the sign bits are moved onto the top
// bytes, the byte pairs of two values are one bf16x2 word, and a bf16 is
// the top half of its f32. About 3 operations a value.
//===----------------------------------------------------------------------===//

// Byte 3 and byte 2 of the f32 of magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6.
constexpr int64_t kTopLo = 0x3F3F3F00, kTopHi = 0x40404040;
constexpr int64_t kNextLo = 0xC0800000, kNextHi = 0xC0804000;
constexpr int64_t kMagnitudeBits = 0x77777777;

/// The f32 values of a bf16x2 word, the lower half first.
void appendBF16Pair(OpBuilder &b, Location loc, Value pair,
                    SmallVectorImpl<Value> &values) {
  ScalarOps o{b, loc};
  values.push_back(o.asF32(o.shl(pair, 16)));
  values.push_back(o.asF32(o.andi(pair, 0xFFFF0000)));
}

SmallVector<Value> decodeCodes(OpBuilder &b, Location loc,
                               const DecodeTables &tables,
                               ArrayRef<Value> words) {
  ScalarOps o{b, loc};
  SmallVector<Value> values;
  for (Value w : words) {
    Value magnitudes = o.andi(w, kMagnitudeBits);
    Value shifted = o.shl(w, 4);
    // Codes 0-3 sit in bytes 0-1 of the word, codes 4-7 in bytes 2-3.
    for (int64_t half = 0; half < 2; ++half) {
      Value selector = half ? o.shr(magnitudes, 16) : magnitudes;
      Value top =
          buildPermute(b, loc, tables.words[0], tables.words[1], selector);
      Value next =
          buildPermute(b, loc, tables.words[2], tables.words[3], selector);
      // Byte i of `signs` has code i's sign bit as its top bit: the even
      // codes' from the word shifted by 4, the odd codes' in place.
      int64_t at = 2 * half;
      Value signs = buildPermute(
          b, loc, w, shifted,
          o.i32((4 + at) | at << 4 | (5 + at) << 8 | (at + 1) << 12));
      top = o.ori(top, o.andi(signs, 0x80808080));
      // (next, top) of codes 0 and 1, then of codes 2 and 3: bf16x2.
      appendBF16Pair(b, loc, buildPermute(b, loc, next, top, o.i32(0x5140)),
                     values);
      appendBF16Pair(b, loc, buildPermute(b, loc, next, top, o.i32(0x7362)),
                     values);
    }
  }
  return values;
}

Value preparedDotF32(OpBuilder &b, Location loc, ArrayRef<Value> values,
                     ArrayRef<Value> prepared) {
  Value acc = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  for (auto [a, v] : llvm::zip_equal(values, prepared))
    acc = math::FmaOp::create(b, loc, a, v, acc);
  return acc;
}

} // namespace

DecodeTables mlir::nvfp4::buildDecodeTables(OpBuilder &b, Location loc,
                                            DecodeMethod method,
                                            Value threadId) {
  ArrayRef<int64_t> constants;
  static constexpr int64_t dp4aTables[] = {kTableLo, kTableHi};
  static constexpr int64_t f32Tables[] = {kTopLo, kTopHi, kNextLo, kNextHi};
  if (method == DecodeMethod::Dp4a)
    constants = dp4aTables;
  else if (method == DecodeMethod::F32)
    constants = f32Tables;
  ScalarOps o{b, loc};
  Value thread = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), threadId);
  DecodeTables tables;
  for (int64_t word : constants)
    tables.words.push_back(
        buildPermute(b, loc, thread, o.i32(word), o.i32(kSecondSourceBytes)));
  return tables;
}

SmallVector<Value> mlir::nvfp4::buildPrepareUnit(OpBuilder &b, Location loc,
                                                 DecodeMethod method,
                                                 const DecodeTables &tables,
                                                 ArrayRef<Value> words) {
  switch (method) {
  case DecodeMethod::Dp4a:
    return prepareDp4a(b, loc, tables, words);
  case DecodeMethod::Cvt:
    return prepareCvt(b, loc, words);
  case DecodeMethod::F32:
    return decodeCodes(b, loc, tables, words);
  case DecodeMethod::Mma: // MmaOperands.cpp has its own decode
    break;
  }
  llvm_unreachable("not a CUDA-core decode");
}

Value mlir::nvfp4::buildUnitDot(OpBuilder &b, Location loc, DecodeMethod method,
                                const DecodeTables &tables,
                                ArrayRef<Value> words,
                                ArrayRef<Value> prepared) {
  switch (method) {
  case DecodeMethod::Dp4a:
    return dotDp4a(b, loc, tables, words, prepared);
  case DecodeMethod::Cvt:
    return dotCvt(b, loc, words, prepared);
  case DecodeMethod::F32:
    return preparedDotF32(b, loc, decodeCodes(b, loc, tables, words), prepared);
  case DecodeMethod::Mma:
    break;
  }
  llvm_unreachable("not a CUDA-core decode");
}

Value mlir::nvfp4::buildPreparedUnitDot(OpBuilder &b, Location loc,
                                        DecodeMethod method,
                                        ArrayRef<Value> preparedA,
                                        ArrayRef<Value> preparedB) {
  switch (method) {
  case DecodeMethod::Dp4a:
    return preparedDotDp4a(b, loc, preparedA, preparedB);
  case DecodeMethod::Cvt:
    return cvtDot(
        b, loc, [&](int64_t i) { return preparedA[i]; }, preparedB);
  case DecodeMethod::F32:
    return preparedDotF32(b, loc, preparedA, preparedB);
  case DecodeMethod::Mma:
    break;
  }
  llvm_unreachable("not a CUDA-core decode");
}

SmallVector<Value> mlir::nvfp4::buildWideVectorUnit(OpBuilder &b, Location loc,
                                                    Type element,
                                                    ArrayRef<Value> words) {
  SmallVector<Value> values;
  for (Value w : words) {
    if (element.isBF16()) {
      appendBF16Pair(b, loc, w, values);
      continue;
    }
    Value halves = LLVM::BitcastOp::create(
        b, loc, VectorType::get({2}, b.getF16Type()), w);
    Value wide = arith::ExtFOp::create(
        b, loc, VectorType::get({2}, b.getF32Type()), halves);
    values.push_back(vector::ExtractOp::create(b, loc, wide, 0));
    values.push_back(vector::ExtractOp::create(b, loc, wide, 1));
  }
  return values;
}
