//===- MmaOperands.cpp - the tensor-core kernel's operands and MMAs -------===//
//
// decode=mma: a's (and packed b's) codes decoded into f16 or bf16 pairs,
// each value times its block scale, 16-bit b's values paired alike, and
// the m16n8k16 MMAs of one step.
//
//===----------------------------------------------------------------------===//

#include "MmaKernelBuilder.h"

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/ScalarOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {
// A decoded code is its value times 2^-14 in f16 (2^-126 in bf16, b of bf16
// values): f16's (bf16's) subnormal 2^-15 (2^-127) is e2m1's 0.5, and the
// scale brings the rest (MmaBuilder::kOperandExp).
constexpr int kF16DecodeExp = -14, kBF16DecodeExp = -126;
// prmt selectors: bytes 0 and 1 (2 and 3) of the first word into the high
// bytes of an f16 pair, zero bytes from the second into the low ones.
constexpr int64_t kHighBytes01 = 0x1404, kHighBytes23 = 0x3424;
} // namespace

Type MmaBuilder::operandType() {
  return bf16() ? Type(b.getBF16Type()) : Type(b.getF16Type());
}

Type MmaBuilder::pairType() { return VectorType::get({2}, operandType()); }

Value MmaBuilder::zeroPairs(VectorType type) {
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getFloatAttr(operandType(), 0.0)));
}

Type MmaBuilder::accType() { return VectorType::get({2, 2}, b.getF32Type()); }

/// The operand pair of an i32's bits.
Value MmaBuilder::asPair(Value word) {
  return LLVM::BitcastOp::create(b, loc, pairType(), word);
}

/// The four f16 pairs of the 8 codes of `word`, each value times 2^-14:
/// a code's sign goes to bit 15 and its exponent and mantissa bits to
/// 11..9, so e2m1's subnormal 0.5 lands on f16's subnormal 2^-15. The high
/// bytes are built for the four low nibbles at once, then for the high
/// ones, and spread into pairs over zero low bytes. The pairs hold values
/// (0, 2), (4, 6), (1, 3), (5, 7) of the word; B's are paired alike.
SmallVector<Value> MmaBuilder::decodeWord(Value x) {
  if (bf16())
    return decodeWordBF16(x);
  ScalarOps o{b, loc};
  Value lowNibbles =
      o.ori(o.andi(o.shl(x, 1), 0x0E0E0E0E), o.andi(o.shl(x, 4), 0x80808080));
  Value highNibbles =
      o.ori(o.andi(o.shr(x, 3), 0x0E0E0E0E), o.andi(x, 0x80808080));
  SmallVector<Value> pairs;
  for (Value bytes : {lowNibbles, highNibbles})
    for (int64_t selector : {kHighBytes01, kHighBytes23})
      pairs.push_back(
          asPair(buildPermute(b, loc, bytes, o.i32(0), o.i32(selector))));
  return pairs;
}

/// The four bf16 pairs of the 8 codes of `word`, each value times
/// 2^-126: code i and i + 4 in pair i, a code's sign to bit 15 of its
/// half and its exponent and mantissa bits to 8..6 (across the half's
/// bytes, so no byte permute: shifts and masks).
SmallVector<Value> MmaBuilder::decodeWordBF16(Value x) {
  ScalarOps o{b, loc};
  auto shift = [&](int64_t by) {
    return by > 0 ? o.shl(x, by) : by < 0 ? o.shr(x, -by) : x;
  };
  SmallVector<Value> pairs;
  for (int64_t i = 0; i < 4; ++i)
    pairs.push_back(asPair(o.ori(o.andi(shift(6 - 4 * i), 0x01C001C0),
                                 o.andi(shift(12 - 4 * i), 0x80008000))));
  return pairs;
}

/// 16-bit values of b in the order decodeWord gives a's codes, from 8
/// values in four words of pairs: (0, 2), (4, 6), (1, 3), (5, 7) for
/// f16, (0, 4), (1, 5), (2, 6), (3, 7) for bf16.
SmallVector<Value> MmaBuilder::repairValues(ArrayRef<Value> words) {
  SmallVector<Value> p;
  for (Value w : words)
    p.push_back(asPair(w));
  auto pick = [&](Value x, Value y, int64_t i, int64_t step) {
    return vector::ShuffleOp::create(b, loc, x, y,
                                     ArrayRef<int64_t>{i, i + step});
  };
  if (bf16())
    return {pick(p[0], p[2], 0, 2), pick(p[0], p[2], 1, 2),
            pick(p[1], p[3], 0, 2), pick(p[1], p[3], 1, 2)};
  return {pick(p[0], p[1], 0, 2), pick(p[2], p[3], 0, 2),
          pick(p[0], p[1], 1, 2), pick(p[2], p[3], 1, 2)};
}

/// Both scales of a chunk (vector<2xi8>: its first and second 8 bytes)
/// as splats of the operand type, times 2^(kOperandExp - the decode's
/// exponent). cvt.rn.f16x2.e4m3x2 is exact, NaN included; bf16 scales
/// go through f32 (times 2^119, past f16's range), exact as well.
std::pair<Value, Value> MmaBuilder::decodeScales(Value bytes) {
  Type f8 = b.getType<Float8E4M3FNType>();
  auto f16Pair = VectorType::get({2}, b.getF16Type());
  Value pair = NVVM::ConvertF8x2ToF16x2Op::create(b, loc, f16Pair, bytes,
                                                  /*relu=*/false, f8);
  auto bias = [&](VectorType type, int exponent) {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            type,
            b.getFloatAttr(type.getElementType(), std::ldexp(1.0, exponent))));
  };
  if (bf16()) {
    auto f32Pair = VectorType::get({2}, b.getF32Type());
    pair = arith::ExtFOp::create(b, loc, f32Pair, pair);
    pair = arith::MulFOp::create(b, loc, pair,
                                 bias(f32Pair, kOperandExp - kBF16DecodeExp));
    pair = arith::TruncFOp::create(b, loc, pairType(), pair);
  } else {
    pair = arith::MulFOp::create(b, loc, pair,
                                 bias(f16Pair, kOperandExp - kF16DecodeExp));
  }
  auto splat = [&](int64_t i) {
    return vector::ShuffleOp::create(b, loc, pair, pair,
                                     ArrayRef<int64_t>{i, i});
  };
  return {splat(0), splat(1)};
}

/// The MMA operands of 16 bytes of codes with their two scales: per word,
/// its four pairs times the scale of its half (zero where the half is
/// not in the row).
SmallVector<Value> MmaBuilder::scaledOperands(ArrayRef<Value> words,
                                              Value scaleBytes,
                                              const Chunk &ch) {
  auto [s0, s1] = decodeScales(scaleBytes);
  SmallVector<Value> out;
  for (auto [w, word] : llvm::enumerate(words))
    for (Value pair : decodeWord(word))
      out.push_back(arith::MulFOp::create(b, loc, pair, w < 2 ? s0 : s1));
  return maskHalves(out, ch);
}

SmallVector<Value> MmaBuilder::maskHalves(SmallVector<Value> operands,
                                          const Chunk &ch) {
  if (ch.whole)
    return operands;
  Value zero = zeroPairs(cast<VectorType>(pairType()));
  // Operand i comes from word i / 4, of half i / 8.
  for (size_t i = 0; i < operands.size(); ++i)
    operands[i] =
        arith::SelectOp::create(b, loc, ch.valid[i / 8], operands[i], zero);
  return operands;
}

/// `acc` (vector<2x2xf32>) plus the m16n8k16 MMA of the A and B
/// fragments `aPairs` (4) and `bPairs` (2) of operand pairs: f16 through
/// nvgpu.mma.sync; bf16, which it does not lower, as nvvm.mma.sync with
/// the pairs as i32.
Value MmaBuilder::mma(ArrayRef<Value> aPairs, ArrayRef<Value> bPairs,
                      Value acc) {
  if (!bf16()) {
    auto fragment = [&](ArrayRef<Value> pairs) {
      auto type = VectorType::get({int64_t(pairs.size()), 2}, b.getF16Type());
      Value f = zeroPairs(type);
      for (auto [i, p] : llvm::enumerate(pairs))
        f = vector::InsertOp::create(b, loc, p, f, int64_t(i));
      return f;
    };
    return nvgpu::MmaSyncOp::create(b, loc, fragment(aPairs), fragment(bPairs),
                                    acc, ArrayRef<int64_t>{16, 8, 16});
  }
  auto bits = [&](ArrayRef<Value> pairs) {
    SmallVector<Value> words;
    for (Value p : pairs)
      words.push_back(
          LLVM::BitcastOp::create(b, loc, b.getI32Type(), p).getResult());
    return words;
  };
  SmallVector<Value> c;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j)
      c.push_back(
          vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i, j}));
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  Value d = NVVM::MmaOp::create(
      b, loc, resultType, bits(aPairs), bits(bPairs), c, {16, 8, 16},
      std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> elements;
  for (int64_t e = 0; e < 4; ++e)
    elements.push_back(LLVM::ExtractValueOp::create(b, loc, d, e));
  return vector::FromElementsOp::create(b, loc, accType(), elements);
}

/// acc[r * halves + h] plus one step's MMAs.
SmallVector<Value> MmaBuilder::computeStep(const StepLoads &s,
                                           ArrayRef<Value> acc) {
  SmallVector<SmallVector<Value>> aOps, bOps;
  for (auto [words, scales] : llvm::zip(s.aWords, s.aScales))
    aOps.push_back(scaledOperands(words, scales, s.chunk));
  for (int64_t h = 0; h < halves(); ++h) {
    if (packed()) {
      bOps.push_back(scaledOperands(s.bWords[h], s.bScales[h], s.chunk));
      continue;
    }
    SmallVector<Value> ops;
    for (int64_t w = 0; w < 4; ++w)
      ops.append(repairValues(ArrayRef<Value>(s.bWords[h]).slice(4 * w, 4)));
    bOps.push_back(maskHalves(ops, s.chunk));
  }
  SmallVector<Value> out(acc);
  // Operands 2m and 2m + 1 of a row are one MMA's K positions.
  for (int64_t m = 0; m < 8; ++m)
    for (int64_t r = 0; r < tiles(); ++r) {
      ArrayRef<Value> top = aOps[2 * r], bottom = aOps[2 * r + 1];
      for (int64_t h = 0; h < halves(); ++h) {
        Value &sum = out[r * halves() + h];
        sum =
            mma({top[2 * m], bottom[2 * m], top[2 * m + 1], bottom[2 * m + 1]},
                {bOps[h][2 * m], bOps[h][2 * m + 1]}, sum);
      }
    }
  return out;
}
