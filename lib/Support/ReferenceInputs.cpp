//===- ReferenceInputs.cpp - Seeded inputs of the nvfp4 ops ---------------===//
//
// The GEMV input distributions of docs/numerics.md section 9 and the inputs
// of the quantizer and the dequantizer. Every draw goes
// through uniformBelow on std::mt19937_64, so a seed gives the same bytes on
// every platform.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Reference.h"

#include "ReferenceChecks.h"

#include "nvfp4/Support/Formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <utility>

using namespace nvfp4;
using namespace nvfp4::ref;

namespace {

using Rng = std::mt19937_64;

/// An integer uniformly distributed in [0, n), by rejection so that the
/// mapping from engine output is fully specified (unlike
/// std::uniform_int_distribution, whose algorithm varies by library).
uint64_t uniformBelow(Rng &rng, uint64_t n) {
  // Largest multiple of n representable in 64 bits is 2^64 - (2^64 mod n).
  const uint64_t rem = (0 - n) % n; // 2^64 mod n
  for (;;) {
    uint64_t v = rng();
    if (v >= rem) // accept the top 2^64 - rem values: a multiple of n
      return (v - rem) % n;
  }
}

/// The e4m3 (NVFP4) or ue8m0 (MXFP4) byte of the power of two 2^e.
uint8_t powerOfTwoScale(ScaleFormat format, int e) {
  return static_cast<uint8_t>(format == ScaleFormat::NVFP4 ? (e + 7) << 3
                                                           : e + 127);
}

/// 0 .. n-1 in a random order (Fisher-Yates).
std::vector<int64_t> shuffled(Rng &rng, int64_t n) {
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = i;
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(v[i], v[uniformBelow(rng, i + 1)]);
  return v;
}

void setCode(uint8_t *row, int64_t i, uint8_t code) {
  uint8_t &byte = row[i / 2];
  byte = (i % 2) ? (byte & 0x0F) | (code << 4) : (byte & 0xF0) | code;
}

/// Overflow, MXFP4: the largest E with 18432 * blocks * 2^(2E) < 2^128.
/// 18432 = 1152 * 16 bounds |dot| * sfa * sfb / 2^(2E) (scales up to
/// 2^(E+2)), so the sum of |block terms| of a row stays below 2^127 and no
/// f32 partial sum can overflow.
int overflowExponent(int64_t blocks) {
  int bits = 0;
  while ((int64_t(1) << bits) < 18432 * std::max<int64_t>(blocks, 1))
    ++bits;
  return (127 - bits) / 2;
}

/// Cancel: scale products span 2^spread; the largest spread <= 10 with
/// 36 K 2^spread <= 2^22 keeps every f32 sum of a row exact (section 9).
int cancelSpread(int64_t k) {
  int spread = 0;
  while (spread < 10 && (36 * k << (spread + 1)) <= (int64_t(1) << 22))
    ++spread;
  return spread;
}

GemvInputs fromLinearScales(const GemvProblem &p, std::vector<uint8_t> a,
                            const std::vector<uint8_t> &sfaLinear,
                            std::vector<uint8_t> b,
                            const std::vector<uint8_t> &sfbLinear) {
  const int64_t cols = p.k / blockSize(p.format);
  GemvInputs in;
  in.a = std::move(a);
  in.b = std::move(b);
  in.sfa = convertScaleLayout(ScaleLayout::Linear, p.layout, sfaLinear.data(),
                              p.m, cols, p.l);
  if (p.vector == VectorElement::E2M1)
    in.sfb = convertScaleLayout(ScaleLayout::Linear, p.layout, sfbLinear.data(),
                                p.n, cols, p.l);
  return in;
}

/// One f16 or bf16 value of b (little-endian bytes): under Full any finite
/// value below 2^4 in magnitude (subnormals and zeros included, so that a
/// GEMV stays inside the f16 range); under Extreme any finite value, and now
/// and then a NaN.
void drawWideValue(const GemvProblem &p, Distribution dist, Rng &rng,
                   uint8_t *at) {
  const bool f16 = p.vector == VectorElement::F16;
  uint16_t bits;
  if (dist == Distribution::Extreme && uniformBelow(rng, 16 * p.k) == 0) {
    bits = f16 ? 0x7E00 : 0x7FC0;
  } else {
    // The magnitude bits of the first value excluded: 2^4 or infinity.
    uint16_t limit = f16 ? 0x7C00 : 0x7F80;
    if (dist == Distribution::Full)
      limit = f16 ? (15 + 4) << 10 : (127 + 4) << 7;
    do
      bits = static_cast<uint16_t>(uniformBelow(rng, 1 << 16));
    while ((bits & 0x7FFF) >= limit);
  }
  at[0] = static_cast<uint8_t>(bits);
  at[1] = static_cast<uint8_t>(bits >> 8);
}

GemvInputs drawIndependently(const GemvProblem &p, Distribution dist,
                             Rng &rng) {
  const int64_t cols = p.k / blockSize(p.format);

  // Weak follows the GPU MODE "nvfp4_gemv" generator: there every packed
  // byte is an integer drawn from [0, 4), so the even element of each pair
  // is one of the codes 0..3 (0, 0.5, 1, 1.5) and the odd element is +0;
  // scales are the integers 0, 1 or 2 converted to e4m3 (0x00, 0x38, 0x40).
  // For MXFP4 the same three choices become the ue8m0 bytes 0 (2^-127, the
  // closest to zero), 127 (1) and 128 (2).
  auto dataByte = [&]() -> uint8_t {
    if (dist == Distribution::Overflow) { // +-6 twice, two random signs
      uint64_t signs = uniformBelow(rng, 4);
      return static_cast<uint8_t>(0x77 | ((signs & 1) << 3) |
                                  ((signs & 2) << 6));
    }
    return static_cast<uint8_t>(
        uniformBelow(rng, dist == Distribution::Weak ? 4 : 256));
  };
  // Overflow: +-256, +-320, +-384, +-448 (e4m3 0x78..0x7E, even mantissas);
  // ue8m0 2^E..2^(E+2) with E from K (overflowExponent).
  const int mxExponent = overflowExponent(cols);
  auto overflowScale = [&]() -> uint8_t {
    if (p.format == ScaleFormat::MXFP4)
      return static_cast<uint8_t>(127 + mxExponent + uniformBelow(rng, 3));
    uint64_t pick = uniformBelow(rng, 8);
    return static_cast<uint8_t>((0x78 + 2 * (pick & 3)) | ((pick & 4) << 5));
  };
  // Extreme: NaN scales are rare enough that most rows stay finite (about
  // one row in four has a NaN sfa, one batch in sixteen a NaN sfb).
  auto extremeScale = [&](uint64_t nanOdds) -> uint8_t {
    bool nv = p.format == ScaleFormat::NVFP4;
    if (uniformBelow(rng, nanOdds) == 0)
      return nv ? (uniformBelow(rng, 2) ? 0xFF : 0x7F) : 0xFF;
    uint64_t kind = uniformBelow(rng, 16);
    if (kind < 8) // realistic, as Full
      return nv ? static_cast<uint8_t>(0x08 +
                                       uniformBelow(rng, 0x48 - 0x08 + 1))
                : static_cast<uint8_t>(123 + uniformBelow(rng, 129 - 123 + 1));
    if (kind < 14) { // any finite scale
      if (!nv)
        return static_cast<uint8_t>(uniformBelow(rng, 255));
      uint8_t byte = static_cast<uint8_t>(uniformBelow(rng, 0x7F));
      return uniformBelow(rng, 2) ? byte | 0x80 : byte;
    }
    // The edges: e4m3 subnormals (2^-9..7 * 2^-9) and +-448; ue8m0 2^-127
    // to 2^-125 and 2^125 to 2^127.
    uint64_t pick = uniformBelow(rng, 8);
    if (!nv)
      return static_cast<uint8_t>(pick < 4 ? pick % 3 : 252 + pick % 3);
    uint8_t byte = static_cast<uint8_t>(pick < 7 ? 1 + pick : 0x7E);
    return uniformBelow(rng, 2) ? byte | 0x80 : byte;
  };
  auto scaleByte = [&]() -> uint8_t {
    if (dist == Distribution::Weak) {
      static const uint8_t nv[3] = {0x00, 0x38, 0x40};
      static const uint8_t mx[3] = {0, 127, 128};
      uint64_t i = uniformBelow(rng, 3);
      return p.format == ScaleFormat::NVFP4 ? nv[i] : mx[i];
    }
    // e4m3 0x08 (2^-6) ... 0x48 (2^2): every positive code in between.
    // ue8m0 123 (2^-4) ... 129 (2^2). Two such scales and all 16 codes keep
    // a GEMV with K = 16384 inside the f16 range, so overflow to inf cannot
    // hide a wrong element.
    if (p.format == ScaleFormat::NVFP4)
      return static_cast<uint8_t>(0x08 + uniformBelow(rng, 0x48 - 0x08 + 1));
    return static_cast<uint8_t>(123 + uniformBelow(rng, 129 - 123 + 1));
  };
  auto fill = [&](std::vector<uint8_t> &v, int64_t n, auto draw) {
    v.resize(n);
    for (auto &byte : v)
      byte = draw();
  };

  // Draw order (a, sfa, b, sfb; scales in linear order) is fixed so that
  // both layouts get the same logical values for a seed.
  std::vector<uint8_t> a, sfaLinear, b, sfbLinear;
  auto sfaByte = [&]() {
    if (dist == Distribution::Overflow)
      return overflowScale();
    return dist == Distribution::Extreme ? extremeScale(4 * cols) : scaleByte();
  };
  auto sfbByte = [&]() {
    if (dist == Distribution::Overflow)
      return overflowScale();
    return dist == Distribution::Extreme ? extremeScale(16 * cols)
                                         : scaleByte();
  };
  fill(a, p.l * p.m * (p.k / 2), dataByte);
  fill(sfaLinear, p.l * p.m * cols, sfaByte);
  if (p.vector == VectorElement::E2M1) {
    fill(b, p.l * p.n * (p.k / 2), dataByte);
    fill(sfbLinear, p.l * p.n * cols, sfbByte);
  } else {
    b.resize(p.l * vectorBatchBytes(p));
    for (size_t i = 0; i < b.size(); i += 2)
      drawWideValue(p, dist, rng, b.data() + i);
  }
  return fromLinearScales(p, std::move(a), sfaLinear, std::move(b), sfbLinear);
}

/// Cancel (section 9): per batch the blocks are paired at random; the
/// second block of a pair repeats the first one's b values in a shuffled
/// order and, in every row, the first one's a values in the same order
/// negated (NVFP4: or unchanged with the sfa sign flipped), so the two block
/// terms are equal and opposite. Scales are powers of two.
GemvInputs drawCancelling(const GemvProblem &p, Rng &rng) {
  const int64_t bs = blockSize(p.format), cols = p.k / bs;
  const int64_t rowBytes = p.k / 2, pairs = cols / 2;
  const bool nv = p.format == ScaleFormat::NVFP4;
  const int spread = cancelSpread(p.k);
  const int sfbSpread = spread / 2, sfaSpread = spread - sfbSpread;
  constexpr int kSfaLow = -1, kSfbLow = 0; // smallest exponents
  std::vector<uint8_t> a(p.l * p.m * rowBytes), b(p.l * p.n * rowBytes);
  std::vector<uint8_t> sfa(p.l * p.m * cols), sfb(p.l * p.n * cols);
  auto code = [&] { return static_cast<uint8_t>(uniformBelow(rng, 16)); };
  auto scale = [&](int low, int spreadHere) {
    return powerOfTwoScale(
        p.format, low + static_cast<int>(uniformBelow(
                            rng, static_cast<uint64_t>(spreadHere) + 1)));
  };
  for (int64_t l = 0; l < p.l; ++l) {
    std::vector<int64_t> blocks = shuffled(rng, cols);
    std::vector<std::vector<int64_t>> order(pairs);
    for (auto &o : order)
      o = shuffled(rng, bs);
    // Every vector pairs the same blocks in the same orders.
    for (int64_t n = 0; n < p.n; ++n) {
      uint8_t *bRow = b.data() + (l * p.n + n) * rowBytes;
      uint8_t *sfbRow = sfb.data() + (l * p.n + n) * cols;
      for (int64_t i = 0; i < cols; ++i) {
        int64_t blk = blocks[i];
        if (i % 2 == 0) { // first of a pair, or the odd block out
          sfbRow[blk] = scale(kSfbLow, sfbSpread);
          for (int64_t e = 0; e < bs; ++e)
            setCode(bRow, blk * bs + e, code());
          continue;
        }
        int64_t first = blocks[i - 1];
        sfbRow[blk] = sfbRow[first];
        for (int64_t e = 0; e < bs; ++e)
          setCode(bRow, blk * bs + e,
                  e2m1Code(bRow, first * bs + order[i / 2][e]));
      }
    }
    for (int64_t m = 0; m < p.m; ++m) {
      uint8_t *aRow = a.data() + (l * p.m + m) * rowBytes;
      uint8_t *sfaRow = sfa.data() + (l * p.m + m) * cols;
      for (int64_t i = 0; i < cols; ++i) {
        int64_t blk = blocks[i];
        if (i % 2 == 0) {
          sfaRow[blk] = scale(kSfaLow, sfaSpread);
          for (int64_t e = 0; e < bs; ++e)
            setCode(aRow, blk * bs + e, code());
          continue;
        }
        int64_t first = blocks[i - 1];
        bool negateScale = nv && uniformBelow(rng, 2);
        sfaRow[blk] = negateScale ? sfaRow[first] | 0x80 : sfaRow[first];
        for (int64_t e = 0; e < bs; ++e) {
          uint8_t c = e2m1Code(aRow, first * bs + order[i / 2][e]);
          setCode(aRow, blk * bs + e, negateScale ? c : c ^ 8);
        }
      }
      // Every other row (at random) keeps a residue: one value of a second
      // block changed, so the exact sum is one product instead of 0.
      if (pairs > 0 && uniformBelow(rng, 2)) {
        int64_t blk = blocks[2 * uniformBelow(rng, pairs) + 1];
        int64_t at = blk * bs + uniformBelow(rng, bs);
        setCode(aRow, at,
                (e2m1Code(aRow, at) + 1 + uniformBelow(rng, 15)) % 16);
      }
    }
  }
  return fromLinearScales(p, std::move(a), sfa, std::move(b), sfb);
}

/// A float uniformly distributed in [1, 2), on the 2^-23 grid.
float unitFloat(Rng &rng) {
  return 1.0f + std::ldexp(static_cast<float>(uniformBelow(rng, 1 << 23)), -23);
}

/// `x` rounded to `type` (f32 values stay).
float roundToElement(ElementType type, float x) {
  if (type == ElementType::F16)
    return formats::decodeF16(formats::encodeF16(x));
  if (type == ElementType::BF16)
    return formats::decodeBF16(formats::encodeBF16(x));
  return x;
}

/// One value of a quantizer block of `kind` (drawn per block, 0..15) in the
/// binade 2^e; `first` marks the block's first element.
float drawQuantizerValue(Rng &rng, uint64_t kind, int e, bool first) {
  float sign = uniformBelow(rng, 2) ? -1.0f : 1.0f;
  float v = 0.0f;
  if (kind == 0) { // an all-zero block, signs mixed
    v = 0.0f;
  } else if (kind == 1) { // a tiny block: subnormal e4m3 scales
    v = std::ldexp(unitFloat(rng),
                   -10 - static_cast<int>(uniformBelow(rng, 8)));
  } else if (kind < 8) {
    // Quarter steps of 2^e up to 7: grid values, midpoints (ties for
    // power-of-two scales) and saturation; the first element of most
    // blocks at 6 so that the scale is 2^e exactly.
    v = std::ldexp(static_cast<float>(uniformBelow(rng, 29)) / 4.0f, e);
    if (first && kind < 6)
      v = std::ldexp(6.0f, e);
  } else if (uniformBelow(rng, 8) != 0) {
    v = std::ldexp(unitFloat(rng), e - static_cast<int>(uniformBelow(rng, 6)));
  }
  return sign * v;
}

/// The bytes a kernel reads for `values`: f32, or f16 / bf16 bits.
std::vector<uint8_t> elementStorage(ElementType type,
                                    const std::vector<float> &values) {
  std::vector<uint8_t> out(values.size() * elementBytes(type));
  if (type == ElementType::F32) {
    std::memcpy(out.data(), values.data(), out.size());
    return out;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    uint16_t h = type == ElementType::F16 ? formats::encodeF16(values[i])
                                          : formats::encodeBF16(values[i]);
    std::memcpy(out.data() + 2 * i, &h, 2);
  }
  return out;
}

} // namespace

const char *ref::name(Distribution dist) {
  switch (dist) {
  case Distribution::Full:
    return "full";
  case Distribution::Weak:
    return "weak";
  case Distribution::Extreme:
    return "extreme";
  case Distribution::Overflow:
    return "overflow";
  case Distribution::Cancel:
    return "cancel";
  }
  return "?";
}

GemvInputs ref::generateGemvInputs(const GemvProblem &p, Distribution dist,
                                   uint64_t seed) {
  detail::checkGemvShape(p);
  if (p.k % 2 != 0)
    detail::fatal("k must be even");
  if (p.vector != VectorElement::E2M1 && dist != Distribution::Full &&
      dist != Distribution::Extreme)
    detail::fatal("16-bit vectors are drawn from Full or Extreme only");
  Rng rng(seed);
  if (dist == Distribution::Cancel)
    return drawCancelling(p, rng);
  return drawIndependently(p, dist, rng);
}

QuantizeInputs ref::generateQuantizeInputs(ElementType input,
                                           ScaleFormat format, int64_t rows,
                                           int64_t k, int64_t l,
                                           uint64_t seed) {
  detail::checkShape(format, rows, k, l);
  const int64_t block = blockSize(format), count = l * rows * k;
  // f16 inputs keep to f16's normal binades.
  const int lo = input == ElementType::F16 ? -12 : -40;
  const int hi = -lo;
  Rng rng(seed);
  QuantizeInputs in;
  in.values.resize(count);
  for (int64_t first = 0; first < count; first += block) {
    uint64_t kind = uniformBelow(rng, 16);
    int e = lo + static_cast<int>(uniformBelow(rng, hi - lo + 1));
    for (int64_t i = first; i < first + block; ++i)
      in.values[i] =
          roundToElement(input, drawQuantizerValue(rng, kind, e, i == first));
  }
  in.stored = elementStorage(input, in.values);
  return in;
}

DequantizeInputs ref::generateDequantizeInputs(ScaleFormat format,
                                               ScaleLayout layout,
                                               bool twoLevel, int64_t rows,
                                               int64_t k, int64_t l,
                                               uint64_t seed) {
  detail::checkShape(format, rows, k, l);
  if (k % 2 != 0)
    detail::fatal("k must be even");
  if (format == ScaleFormat::MXFP4 && twoLevel)
    detail::fatal("MXFP4 has no two-level quantization");
  const int64_t cols = k / blockSize(format);
  Rng rng(seed);
  DequantizeInputs in;
  in.data.resize(l * rows * (k / 2));
  for (uint8_t &byte : in.data)
    byte = static_cast<uint8_t>(uniformBelow(rng, 256));
  std::vector<uint8_t> linear(l * rows * cols);
  for (uint8_t &byte : linear) {
    // Mostly realistic scales (e4m3 2^-6..2^4 and ue8m0 2^-10..2^10),
    // sometimes any byte.
    if (uniformBelow(rng, 4) == 0)
      byte = static_cast<uint8_t>(uniformBelow(rng, 256));
    else if (format == ScaleFormat::NVFP4)
      byte = static_cast<uint8_t>(0x08 + uniformBelow(rng, 0x58 - 0x08 + 1));
    else
      byte = static_cast<uint8_t>(117 + uniformBelow(rng, 21));
  }
  in.scales = convertScaleLayout(ScaleLayout::Linear, layout, linear.data(),
                                 rows, cols, l);
  // Mostly a realistic global scale, 2688 / amax with amax in [2^-12,
  // 2^12); one in four anywhere in f32's range, either sign, subnormals
  // included, where the quotients by it under- and overflow.
  if (twoLevel && uniformBelow(rng, 4) == 0)
    in.globalScale = (uniformBelow(rng, 2) ? -1.0f : 1.0f) *
                     std::ldexp(unitFloat(rng),
                                static_cast<int>(uniformBelow(rng, 277)) - 149);
  else if (twoLevel)
    in.globalScale =
        2688.0f / std::ldexp(unitFloat(rng),
                             static_cast<int>(uniformBelow(rng, 24)) - 12);
  return in;
}
