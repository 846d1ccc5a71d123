//===- ReferenceTest.cpp - Float64 reference, quantizer and generator -----===//
//
// The expected values here are recomputed from first principles (own decode
// tables, own packing and scale placement), not taken from the library.
//
//===----------------------------------------------------------------------===//

#include "ReferenceTestUtil.h"

#include "nvfp4/Support/Reference.h"
#include "nvfp4/Support/ScaleLayout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <vector>

using namespace nvfp4;
using namespace nvfp4::ref;
using namespace nvfp4::reftest;

namespace {

/// A GEMV problem held as logical arrays, with the storage built here.
struct Logical {
  int64_t l, m, k;
  ScaleFormat format;
  std::vector<uint8_t> codesA, codesB; // [l][m][k], [l][k]
  std::vector<uint8_t> scA, scB;       // [l][m][k/B], [l][k/B]

  int64_t cols() const { return k / bs(format); }

  std::vector<uint8_t> pack(const std::vector<uint8_t> &codes) const {
    std::vector<uint8_t> out(codes.size() / 2);
    for (size_t i = 0; i < codes.size(); i += 2)
      out[i / 2] = static_cast<uint8_t>(codes[i] | (codes[i + 1] << 4));
    return out;
  }
  /// Scale storage of a [l][rows][cols] logical array; blocked padding 0.
  std::vector<uint8_t> scales(const std::vector<uint8_t> &sc, int64_t rows,
                              ScaleLayout layout) const {
    int64_t c = cols();
    int64_t batch = layout == ScaleLayout::Linear
                        ? rows * c
                        : layout::paddedRows(rows) * layout::paddedCols(c);
    std::vector<uint8_t> out(l * batch, 0);
    for (int64_t b = 0; b < l; ++b)
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < c; ++j) {
          int64_t off = layout == ScaleLayout::Linear
                            ? r * c + j
                            : layout::blockedOffset(r, j, c);
          out[b * batch + off] = sc[(b * rows + r) * c + j];
        }
    return out;
  }

  /// c[l][m], summed block by block in double. For the problems below every
  /// term is a multiple of 2^-20 of magnitude below 2^27 and there are at
  /// most 16 of them, so these sums are exact in any order.
  std::vector<double> expected(double alpha) const {
    std::vector<double> c(l * m);
    int64_t B = bs(format);
    for (int64_t b = 0; b < l; ++b)
      for (int64_t r = 0; r < m; ++r) {
        double acc = 0;
        for (int64_t j = 0; j < cols(); ++j) {
          double dot = 0;
          for (int64_t i = j * B; i < (j + 1) * B; ++i)
            dot += e2m1Value(codesA[(b * m + r) * k + i]) *
                   e2m1Value(codesB[b * k + i]);
          acc += scaleValue(format, scA[(b * m + r) * cols() + j]) *
                 scaleValue(format, scB[b * cols() + j]) * dot;
        }
        c[b * m + r] = alpha * acc;
      }
    return c;
  }
};

Logical randomLogical(ScaleFormat f, int64_t l, int64_t m, int64_t k,
                      uint64_t seed) {
  std::mt19937_64 rng(seed);
  Logical p{l, m, k, f, {}, {}, {}, {}};
  auto scale = [&]() -> uint8_t {
    if (f == ScaleFormat::MXFP4)
      return static_cast<uint8_t>(127 - 8 + rng() % 17); // 2^-8 .. 2^8
    uint8_t b;
    do
      b = static_cast<uint8_t>(rng());
    while ((b & 0x7F) == 0x7F); // any non-NaN e4m3, signs and subnormals
    return b;
  };
  for (int64_t i = 0; i < l * m * k; ++i)
    p.codesA.push_back(rng() % 16);
  for (int64_t i = 0; i < l * k; ++i)
    p.codesB.push_back(rng() % 16);
  for (int64_t i = 0; i < l * m * p.cols(); ++i)
    p.scA.push_back(scale());
  for (int64_t i = 0; i < l * p.cols(); ++i)
    p.scB.push_back(scale());
  return p;
}

void expectSameDoubles(const std::vector<double> &got,
                       const std::vector<double> &want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i]))
      EXPECT_TRUE(std::isnan(got[i])) << i;
    else
      EXPECT_EQ(got[i], want[i]) << i;
  }
}

TEST(ReferenceTest, BasicSizes) {
  EXPECT_EQ(blockSize(ScaleFormat::NVFP4), 16);
  EXPECT_EQ(blockSize(ScaleFormat::MXFP4), 32);
  EXPECT_EQ(elementBytes(ElementType::F16), 2);
  EXPECT_EQ(elementBytes(ElementType::BF16), 2);
  EXPECT_EQ(elementBytes(ElementType::F32), 4);
  EXPECT_EQ(scaleBatchBytes(ScaleLayout::Linear, 130, 9), 130 * 9);
  EXPECT_EQ(scaleBatchBytes(ScaleLayout::Blocked128x4, 130, 9), 256 * 12);
  EXPECT_EQ(scaleBatchBytes(ScaleLayout::Blocked128x4, 1, 9), 128 * 12);
  EXPECT_EQ(scaleOffset(ScaleLayout::Linear, 2, 3, 9), 21);
  EXPECT_EQ(scaleOffset(ScaleLayout::Blocked128x4, 33, 5, 9),
            layout::blockedOffset(33, 5, 9));
  EXPECT_EQ(decodeScale(ScaleFormat::NVFP4, 0x38), 1.0);
  EXPECT_EQ(decodeScale(ScaleFormat::MXFP4, 128), 2.0);
}

TEST(ReferenceTest, GemvExactMatchesBruteForce) {
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
    for (ScaleLayout lay : {ScaleLayout::Linear, ScaleLayout::Blocked128x4})
      for (auto [m, k] : {std::pair<int64_t, int64_t>{1, 64},
                          {5, 160},
                          {130, 96},
                          {129, 256}}) {
        if (k % bs(f))
          continue;
        Logical lg = randomLogical(f, 3, m, k, m * 1000 + k);
        GemvProblem p;
        p.m = m;
        p.k = k;
        p.l = 3;
        p.format = f;
        p.layout = lay;
        p.alpha = 0.375f;
        std::vector<uint8_t> a = lg.pack(lg.codesA), b = lg.pack(lg.codesB);
        std::vector<uint8_t> sfa = lg.scales(lg.scA, m, lay);
        std::vector<uint8_t> sfb = lg.scales(lg.scB, 1, lay);
        SCOPED_TRACE(testing::Message() << "m=" << m << " k=" << k);
        expectSameDoubles(
            gemvExact(p, a.data(), sfa.data(), b.data(), sfb.data()),
            lg.expected(0.375));
      }
}

TEST(ReferenceTest, GemvNaNScalePropagates) {
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
    Logical lg = randomLogical(f, 3, 7, 64, 99);
    uint8_t nan = f == ScaleFormat::NVFP4 ? 0x7F : 0xFF;
    lg.scA[(1 * 7 + 4) * lg.cols() + 1] = nan; // batch 1, row 4
    lg.scB[2 * lg.cols() + 0] = nan;           // all of batch 2
    // Force a zero dot product in the NaN block: NaN * 0 is still NaN.
    for (int i = 0; i < 64; ++i)
      lg.codesA[(1 * 7 + 4) * 64 + i] = 0;
    GemvProblem p;
    p.m = 7;
    p.k = 64;
    p.l = 3;
    p.format = f;
    for (ScaleLayout lay : {ScaleLayout::Linear, ScaleLayout::Blocked128x4}) {
      p.layout = lay;
      std::vector<uint8_t> a = lg.pack(lg.codesA), b = lg.pack(lg.codesB);
      std::vector<uint8_t> sfa = lg.scales(lg.scA, 7, lay);
      std::vector<uint8_t> sfb = lg.scales(lg.scB, 1, lay);
      std::vector<double> c =
          gemvExact(p, a.data(), sfa.data(), b.data(), sfb.data());
      for (int64_t i = 0; i < 21; ++i)
        EXPECT_EQ(std::isnan(c[i]), i == 7 + 4 || i >= 14) << i;
    }
  }
}

TEST(ReferenceTest, GeneratedBlockedAndLinearAgree) {
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
    for (Distribution d :
         {Distribution::Full, Distribution::Weak, Distribution::Extreme,
          Distribution::Overflow, Distribution::Cancel}) {
      GemvProblem p;
      p.m = 200;
      p.k = 384;
      p.l = 3;
      p.format = f;
      p.layout = ScaleLayout::Linear;
      GemvInputs lin = generateGemvInputs(p, d, 5);
      p.layout = ScaleLayout::Blocked128x4;
      GemvInputs blk = generateGemvInputs(p, d, 5);
      EXPECT_EQ(lin.a, blk.a);
      EXPECT_EQ(lin.b, blk.b);
      int64_t cols = p.k / bs(f);
      EXPECT_EQ(convertScaleLayout(ScaleLayout::Blocked128x4,
                                   ScaleLayout::Linear, blk.sfa.data(), p.m,
                                   cols, p.l),
                lin.sfa);
      std::vector<double> cb = gemvExact(p, blk.a.data(), blk.sfa.data(),
                                         blk.b.data(), blk.sfb.data());
      p.layout = ScaleLayout::Linear;
      std::vector<double> cl = gemvExact(p, lin.a.data(), lin.sfa.data(),
                                         lin.b.data(), lin.sfb.data());
      expectSameDoubles(cb, cl);
    }
}

TEST(ReferenceTest, ConvertScaleLayoutRoundTrip) {
  std::mt19937_64 rng(3);
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1, 1},
                            {1, 9},
                            {130, 7},
                            {128, 4},
                            {257, 33}}) {
    const int64_t l = 3;
    std::vector<uint8_t> lin(l * rows * cols);
    for (auto &v : lin)
      v = static_cast<uint8_t>(1 + rng() % 255); // nonzero: padding visible
    std::vector<uint8_t> blk =
        convertScaleLayout(ScaleLayout::Linear, ScaleLayout::Blocked128x4,
                           lin.data(), rows, cols, l);
    int64_t batch = layout::paddedRows(rows) * layout::paddedCols(cols);
    ASSERT_EQ(static_cast<int64_t>(blk.size()), l * batch);
    // Every byte is either a scale at its blocked position or zero padding.
    std::vector<bool> used(blk.size(), false);
    for (int64_t b = 0; b < l; ++b)
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
          int64_t off = b * batch + layout::blockedOffset(r, c, cols);
          EXPECT_EQ(blk[off], lin[(b * rows + r) * cols + c]);
          used[off] = true;
        }
    for (size_t i = 0; i < blk.size(); ++i)
      EXPECT_TRUE(used[i] || blk[i] == 0) << i;
    EXPECT_EQ(convertScaleLayout(ScaleLayout::Blocked128x4, ScaleLayout::Linear,
                                 blk.data(), rows, cols, l),
              lin);
    EXPECT_EQ(convertScaleLayout(ScaleLayout::Blocked128x4,
                                 ScaleLayout::Blocked128x4, blk.data(), rows,
                                 cols, l),
              blk);
    EXPECT_EQ(convertScaleLayout(ScaleLayout::Linear, ScaleLayout::Linear,
                                 lin.data(), rows, cols, l),
              lin);
  }
}

TEST(ReferenceTest, RoundAndReadOutput) {
  std::vector<double> v = {1.0, -2.5,
                           1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),
                           1e6, 1.0 / 3.0};
  std::vector<uint8_t> h = roundOutput(ElementType::F16, v);
  ASSERT_EQ(h.size(), 10u);
  EXPECT_EQ(readOutput(ElementType::F16, h.data(), 0), 1.0);
  EXPECT_EQ(readOutput(ElementType::F16, h.data(), 1), -2.5);
  // Correctly rounded from the double (through float it would be 1.0).
  EXPECT_EQ(readOutput(ElementType::F16, h.data(), 2),
            1.0 + std::ldexp(1.0, -10));
  EXPECT_TRUE(std::isinf(readOutput(ElementType::F16, h.data(), 3)));
  EXPECT_EQ(readOutput(ElementType::F16, h.data(), 4), 1365.0 / 4096.0);
  uint16_t raw;
  std::memcpy(&raw, h.data(), 2);
  EXPECT_EQ(raw, 0x3C00); // host byte order, IEEE half of 1.0

  std::vector<uint8_t> bf = roundOutput(ElementType::BF16, v);
  EXPECT_EQ(readOutput(ElementType::BF16, bf.data(), 1), -2.5);
  EXPECT_EQ(readOutput(ElementType::BF16, bf.data(), 4), 171.0 / 512.0);

  std::vector<uint8_t> f = roundOutput(ElementType::F32, v);
  ASSERT_EQ(f.size(), 20u);
  for (size_t i = 0; i < v.size(); ++i)
    EXPECT_EQ(readOutput(ElementType::F32, f.data(), i),
              static_cast<double>(static_cast<float>(v[i])));
}

TEST(ReferenceTest, Compare) {
  std::vector<double> ref = {1.0, 2.0, -3.0, 1000.0, kNaN};
  for (ElementType t :
       {ElementType::F16, ElementType::BF16, ElementType::F32}) {
    std::vector<uint8_t> out = roundOutput(t, ref);
    Comparison same = compare(t, out.data(), ref, 0.0, 0.0);
    EXPECT_TRUE(same.ok());
    EXPECT_EQ(same.maxAbsError, 0.0);
    EXPECT_EQ(same.relError, 0.0);

    std::vector<double> off = ref;
    off[3] = 1008.0; // representable in all three types
    std::vector<uint8_t> outOff = roundOutput(t, off);
    Comparison loose = compare(t, outOff.data(), ref, 1e-2, 0.0);
    EXPECT_TRUE(loose.ok());
    Comparison tight = compare(t, outOff.data(), ref, 1e-3, 1e-3);
    EXPECT_FALSE(tight.ok());
    EXPECT_EQ(tight.firstMismatch, 3);
    EXPECT_EQ(tight.nanCount, 0);
    EXPECT_EQ(tight.maxAbsError, 8.0);
    EXPECT_NEAR(tight.relError, 8.0 / std::sqrt(1 + 4 + 9 + 1e6), 1e-12);

    off[1] = kNaN;
    off[4] = 5.0; // not NaN where the reference is: a mismatch, no nanCount
    std::vector<uint8_t> outNaN = roundOutput(t, off);
    Comparison bad = compare(t, outNaN.data(), ref, 1.0, 1.0);
    EXPECT_EQ(bad.nanCount, 1);
    EXPECT_EQ(bad.firstMismatch, 1);
    EXPECT_TRUE(std::isinf(bad.maxAbsError));
  }
  // Near the midpoint of two bf16 neighbours (616 and 620), a sum within
  // the tolerance may round to either; one further away fails. (This was
  // an H200 sweep's only kind of mismatch: 616 for 618.0001.)
  {
    std::vector<double> mid = {618.0001};
    for (double got : {616.0, 620.0, 612.0}) {
      std::vector<uint8_t> o = roundOutput(ElementType::BF16, {got});
      EXPECT_EQ(compare(ElementType::BF16, o.data(), mid, 1e-3, 1e-3).ok(),
                got != 612.0)
          << got;
    }
  }
  // Tolerance is taken against the reference rounded to the output type: an
  // f16 output equal to the rounded reference passes with zero tolerance.
  std::vector<double> r = {1.0 / 3.0};
  std::vector<uint8_t> o = roundOutput(ElementType::F16, r);
  EXPECT_TRUE(compare(ElementType::F16, o.data(), r, 0.0, 0.0).ok());
  // One f16 ulp away fails at zero tolerance.
  uint16_t h;
  std::memcpy(&h, o.data(), 2);
  ++h;
  std::memcpy(o.data(), &h, 2);
  EXPECT_FALSE(compare(ElementType::F16, o.data(), r, 0.0, 0.0).ok());
  EXPECT_TRUE(compare(ElementType::F16, o.data(), r, 1e-3, 0.0).ok());
  // The reference 1 + 0.4 ulp rounds to 1; an output of 1 + 1 ulp is 1 ulp
  // from the rounded reference, but it is the rounding of 1 + 0.4 ulp + 7e-4
  // (past the midpoint), a value within atol = 7e-4: it passes. With
  // atol = 5e-5 every value within reach rounds to 1: it fails.
  std::vector<double> near1 = {1.0 + 0.4 * std::ldexp(1.0, -10)};
  std::vector<double> up = {1.0 + std::ldexp(1.0, -10)};
  std::vector<uint8_t> upBits = roundOutput(ElementType::F16, up);
  EXPECT_FALSE(compare(ElementType::F16, upBits.data(), near1, 0.0, 5e-5).ok());
  EXPECT_TRUE(compare(ElementType::F16, upBits.data(), near1, 0.0, 7e-4).ok());
}

struct RoundTripCase {
  ScaleFormat format;
  bool twoLevel;
};

TEST(ReferenceTest, QuantizeOfDequantizeIsIdentity) {
  // With single-level scaling, a block whose largest magnitude code is 6
  // (NVFP4) or 4 or 6 (MXFP4) reproduces its scale exactly, and then every
  // code comes back (the f32 reciprocal's relative error of 2^-24 cannot
  // move a grid point across a midpoint). Two-level: the same, given the
  // global scale is a power of two and some block's scale is 448, so that
  // 448 * 6 / amax gives back that global scale exactly.
  std::mt19937_64 rng(21);
  for (RoundTripCase tc : {RoundTripCase{ScaleFormat::NVFP4, false},
                           RoundTripCase{ScaleFormat::NVFP4, true},
                           RoundTripCase{ScaleFormat::MXFP4, false}})
    for (ScaleLayout lay : {ScaleLayout::Linear, ScaleLayout::Blocked128x4}) {
      const int64_t l = 3, rows = 131, k = 128, B = bs(tc.format);
      const int64_t cols = k / B;
      const float gs0 = tc.twoLevel ? std::ldexp(1.0f, 7) : 1.0f;
      std::vector<uint8_t> codes(l * rows * k), sc(l * rows * cols);
      for (auto &c : codes)
        c = rng() % 16;
      for (int64_t blk = 0; blk < l * rows * cols; ++blk) {
        // One element of the block at the top magnitude.
        bool six = tc.format == ScaleFormat::NVFP4 || rng() % 2;
        codes[blk * B + rng() % B] = (six ? 7 : 6) | (rng() % 2 ? 8 : 0);
        sc[blk] = tc.format == ScaleFormat::NVFP4
                      ? static_cast<uint8_t>(0x08 + rng() % (0x7E - 0x08 + 1))
                      : static_cast<uint8_t>(127 - 20 + rng() % 41);
      }
      if (tc.twoLevel)
        sc[17] = 0x7E; // 448
      std::vector<float> x(codes.size());
      for (size_t i = 0; i < codes.size(); ++i) {
        double v = e2m1Value(codes[i]) * scaleValue(tc.format, sc[i / B]) / gs0;
        x[i] = static_cast<float>(v);
        ASSERT_EQ(static_cast<double>(x[i]), v); // exact in f32
      }
      Quantized q = quantize(tc.format, lay, tc.twoLevel, x.data(), rows, k, l);
      EXPECT_EQ(q.globalScale, gs0);
      Logical lg{l, rows, k, tc.format, codes, {}, sc, {}};
      EXPECT_EQ(q.data, lg.pack(codes));
      EXPECT_EQ(q.scales, lg.scales(sc, rows, lay));

      // And dequantize gives back x exactly, in both layouts.
      std::vector<double> back =
          dequantize(tc.format, lay, q.data.data(), q.scales.data(),
                     q.globalScale, rows, k, l);
      for (size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(back[i], static_cast<double>(x[i])) << i;
    }
}

/// Distance from t >= 0 to the farthest point of its rounding cell: half the
/// e2m1 spacing around t, or the saturation excess beyond 6.
double halfSpacing(double t) {
  if (t <= 2)
    return 0.25;
  if (t <= 4)
    return 0.5;
  if (t <= 6)
    return 1.0;
  return t - 6;
}

/// Brute force: the code in [0, count) whose `value` is nearest to `v`, ties
/// to the even code (for both formats the even code has the even mantissa).
template <typename ValueFn>
uint8_t nearestCode(int count, ValueFn value, double v) {
  uint8_t best = 0;
  for (int c = 1; c < count; ++c) {
    double d = std::fabs(value(c) - v), db = std::fabs(value(best) - v);
    if (d < db || (d == db && c % 2 == 0))
      best = static_cast<uint8_t>(c);
  }
  return best;
}

/// Nearest non-negative finite e4m3 byte.
uint8_t nearestE4M3(double v) { return nearestCode(0x7F, e4m3Value, v); }

TEST(ReferenceTest, DequantizeOfQuantizeErrorBound) {
  std::mt19937_64 rng(23);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (RoundTripCase tc : {RoundTripCase{ScaleFormat::NVFP4, false},
                           RoundTripCase{ScaleFormat::NVFP4, true},
                           RoundTripCase{ScaleFormat::MXFP4, false}}) {
    const int64_t l = 2, rows = 64, k = 256, B = bs(tc.format);
    const int64_t cols = k / B;
    std::vector<float> x(l * rows * k);
    for (int64_t blk = 0; blk < l * rows * cols; ++blk) {
      // Block magnitudes from far below e4m3's subnormals to large; some
      // all-zero blocks and some blocks with one outlier.
      float mag = std::ldexp(1.0f, static_cast<int>(rng() % 40) - 24);
      int kind = rng() % 8;
      for (int64_t i = 0; i < B; ++i) {
        float v = kind == 0 ? 0.0f : normal(rng) * mag;
        if (kind == 1 && i == 3)
          v *= 100.0f;
        x[blk * B + i] = v;
      }
    }
    Quantized q = quantize(tc.format, ScaleLayout::Linear, tc.twoLevel,
                           x.data(), rows, k, l);
    float amax = 0;
    for (float v : x)
      amax = std::max(amax, std::fabs(v));
    const float gs = tc.twoLevel ? 2688.0f / amax : 1.0f;
    EXPECT_EQ(q.globalScale, gs);
    std::vector<double> back =
        dequantize(tc.format, ScaleLayout::Linear, q.data.data(),
                   q.scales.data(), q.globalScale, rows, k, l);

    for (int64_t blk = 0; blk < l * rows * cols; ++blk) {
      float bmax = 0;
      for (int64_t i = 0; i < B; ++i)
        bmax = std::max(bmax, std::fabs(x[blk * B + i]));
      uint8_t sbyte = q.scales[blk];
      double sv = scaleValue(tc.format, sbyte);
      // The scale is the one the definition asks for.
      if (tc.format == ScaleFormat::NVFP4) {
        ASSERT_EQ(sbyte, nearestE4M3((bmax * gs) / 6.0f)) << blk;
        // A normal, unsaturated scale is within 2^-4 of bmax * gs / 6, so
        // saturation of the codes can clip at most bmax / 17.
        if (sv >= std::ldexp(1.0, -6) && (bmax * gs) / 6.0f <= 448.0f) {
          ASSERT_GE(6.0 * sv / gs, bmax / (1 + 1.0 / 16) * (1 - 1e-6));
        }
      } else if (bmax == 0) {
        ASSERT_EQ(sbyte, 0);
      } else {
        double t = bmax / sv;
        ASSERT_TRUE((t >= 4 && t < 8) || sbyte == 0 || sbyte == 254) << blk;
      }
      const double S = sv / gs; // effective scale of the block
      for (int64_t i = 0; i < B; ++i) {
        int64_t e = blk * B + i;
        double xv = x[e], xq = back[e];
        ASSERT_TRUE(xq == 0 || std::signbit(xq) == std::signbit(xv)) << e;
        if (sv == 0) {
          // The scale rounded to zero: bmax * gs / 6 <= 2^-10, and every
          // code is +0 whatever the sign of x.
          ASSERT_EQ((q.data[e / 2] >> (4 * (e % 2))) & 0xF, 0) << e;
          ASSERT_EQ(xq, 0.0);
          ASSERT_LE(std::fabs(xv) * gs, 6 * std::ldexp(1.0, -10) * 1.000001);
          continue;
        }
        double t = std::fabs(xv) / S;
        double bound = S * halfSpacing(t) + std::fabs(xv) * std::ldexp(1, -21);
        ASSERT_LE(std::fabs(xv - xq), bound)
            << "element " << e << " x=" << xv << " S=" << S;
      }
    }
  }
}

/// Nearest e2m1 magnitude code (0..7) of v >= 0, ties to the even code.
uint8_t nearestE2M1(double v) { return nearestCode(8, e2m1Value, v); }

TEST(ReferenceTest, QuantizeFollowsF32OperationOrder) {
  // The definition fixes the f32 operations: s = e4m3((bmax * gs) / 6),
  // inv = gs / sv, q = e2m1(x * inv). Search inputs where these f32
  // roundings decide differently from exact arithmetic and check that
  // quantize follows the f32 recipe.
  std::mt19937_64 rng(29);
  auto ulps = [&](float v, int n) {
    for (; n > 0; --n)
      v = std::nextafter(v, INFINITY);
    for (; n < 0; ++n)
      v = std::nextafter(v, -INFINITY);
    return v;
  };

  // 1. Scale choice under two-level scaling. Look for inputs where the two
  // f32 roundings differ from one rounding of the exact bmax * gs / 6 (gs
  // is the f32 one), both straight to e4m3 and through one f32 rounding.
  bool foundVsExact = false, foundVsOneRounding = false;
  for (int trial = 0; trial < 1000000 && !(foundVsExact && foundVsOneRounding);
       ++trial) {
    float amax = std::uniform_real_distribution<float>(100, 1000)(rng);
    float gs = 2688.0f / amax;
    int i = 8 + rng() % 100; // a normal e4m3 byte below 448
    double mid = 0.5 * (e4m3Value(i) + e4m3Value(i + 1));
    float bmax =
        ulps(static_cast<float>(mid * 6 / gs), static_cast<int>(rng() % 5) - 2);
    if (bmax > amax)
      continue;
    uint8_t f32Byte = nearestE4M3((bmax * gs) / 6.0f);
    double exact = static_cast<double>(bmax) * static_cast<double>(gs) / 6.0;
    bool vsExact = f32Byte != nearestE4M3(exact);
    bool vsOne = f32Byte != nearestE4M3(static_cast<float>(exact));
    if (!(vsExact && !foundVsExact) && !(vsOne && !foundVsOneRounding))
      continue;
    foundVsExact |= vsExact;
    foundVsOneRounding |= vsOne;
    std::vector<float> x(32, 0.0f);
    x[0] = amax; // block 0 sets the global amax
    x[16] = bmax;
    Quantized q = quantize(ScaleFormat::NVFP4, ScaleLayout::Linear, true,
                           x.data(), 1, 32, 1);
    EXPECT_EQ(q.globalScale, gs);
    EXPECT_EQ(q.scales[1], f32Byte) << "amax=" << amax << " bmax=" << bmax;
  }
  EXPECT_TRUE(foundVsExact);
  EXPECT_TRUE(foundVsOneRounding);

  // 2. Codes: x * fl(1 / sv) against the exact x / sv (single level).
  bool foundCode = false;
  for (int trial = 0; trial < 1000000 && !foundCode; ++trial) {
    uint8_t sbyte = static_cast<uint8_t>(0x20 + rng() % 0x30);
    double sv = e4m3Value(sbyte);
    int c = rng() % 7;
    double mid = 0.5 * (e2m1Value(c) + e2m1Value(c + 1));
    float xv =
        ulps(static_cast<float>(mid * sv), static_cast<int>(rng() % 5) - 2);
    float inv = 1.0f / static_cast<float>(sv);
    uint8_t f32Code = nearestE2M1(xv * inv);
    uint8_t exactCode = nearestE2M1(static_cast<double>(xv) / sv);
    if (f32Code == exactCode)
      continue;
    foundCode = true;
    std::vector<float> x(16, 0.0f);
    x[0] = static_cast<float>(6 * sv); // makes the block scale exactly sv
    x[5] = xv;
    Quantized q = quantize(ScaleFormat::NVFP4, ScaleLayout::Linear, false,
                           x.data(), 1, 16, 1);
    ASSERT_EQ(q.scales[0], sbyte);
    EXPECT_EQ(q.data[2] >> 4, f32Code) << "x=" << xv << " sv=" << sv;
  }
  EXPECT_TRUE(foundCode);
}

TEST(ReferenceTest, DequantizeFormula) {
  // x = (e2m1 * scale) / gs in double: the product is exact, so there is one
  // rounding, in the division.
  const float gs = 2688.0f / 7.3f;
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
    for (ScaleLayout lay : {ScaleLayout::Linear, ScaleLayout::Blocked128x4}) {
      Logical lg = randomLogical(f, 2, 33, 128, 77);
      std::vector<uint8_t> data = lg.pack(lg.codesA);
      std::vector<uint8_t> sc = lg.scales(lg.scA, 33, lay);
      std::vector<double> x =
          dequantize(f, lay, data.data(), sc.data(), gs, 33, 128, 2);
      ASSERT_EQ(x.size(), lg.codesA.size());
      for (size_t i = 0; i < x.size(); ++i) {
        double want = e2m1Value(lg.codesA[i]) *
                      scaleValue(f, lg.scA[i / bs(f)]) /
                      static_cast<double>(gs);
        ASSERT_EQ(x[i], want) << i;
      }
    }
}

TEST(ReferenceTest, QuantizeAllZeros) {
  std::vector<float> x(2 * 3 * 64, 0.0f);
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
    Quantized q = quantize(f, ScaleLayout::Blocked128x4,
                           f == ScaleFormat::NVFP4, x.data(), 3, 64, 2);
    EXPECT_EQ(q.globalScale, 1.0f);
    for (uint8_t b : q.data)
      EXPECT_EQ(b, 0);
    for (uint8_t b : q.scales)
      EXPECT_EQ(b, 0);
  }
}

TEST(ReferenceTest, GeneratorIsDeterministic) {
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
    for (Distribution d :
         {Distribution::Full, Distribution::Weak, Distribution::Extreme,
          Distribution::Overflow, Distribution::Cancel}) {
      GemvProblem p;
      p.m = 130;
      p.k = 256;
      p.l = 2;
      p.format = f;
      p.layout = ScaleLayout::Blocked128x4;
      GemvInputs x = generateGemvInputs(p, d, 42);
      GemvInputs y = generateGemvInputs(p, d, 42);
      GemvInputs z = generateGemvInputs(p, d, 43);
      EXPECT_EQ(x.a, y.a);
      EXPECT_EQ(x.b, y.b);
      EXPECT_EQ(x.sfa, y.sfa);
      EXPECT_EQ(x.sfb, y.sfb);
      EXPECT_NE(x.a, z.a);
      EXPECT_NE(x.b, z.b);
      EXPECT_NE(x.sfa, z.sfa);
      EXPECT_NE(x.sfb, z.sfb);
      EXPECT_EQ(x.a.size(), 2u * 130 * 128);
      EXPECT_EQ(x.b.size(), 2u * 128);
      EXPECT_EQ(x.sfa.size(), 2u * layout::blockedBatchBytes(130, 256 / bs(f)));
      EXPECT_EQ(x.sfb.size(), 2u * layout::blockedBatchBytes(1, 256 / bs(f)));
    }
}

TEST(ReferenceTest, GeneratorFullCoversCodesAndScaleRange) {
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
    GemvProblem p;
    p.m = 64;
    p.k = 1024;
    p.l = 2;
    p.format = f;
    p.layout = ScaleLayout::Linear;
    GemvInputs in = generateGemvInputs(p, Distribution::Full, 7);
    for (const auto *buf : {&in.a, &in.b}) {
      std::vector<int64_t> lowCount(16, 0), highCount(16, 0);
      for (uint8_t byte : *buf) {
        ++lowCount[byte & 0xF];
        ++highCount[byte >> 4];
      }
      for (int c = 0; c < 16; ++c) {
        EXPECT_GT(lowCount[c], 0) << c;
        EXPECT_GT(highCount[c], 0) << c;
      }
    }
    // Roughly uniform over the nibbles of a (64 * 512 * 2 bytes).
    std::vector<int64_t> count(16, 0);
    for (uint8_t byte : in.a) {
      ++count[byte & 0xF];
      ++count[byte >> 4];
    }
    double expected = 2.0 * in.a.size() / 16;
    for (int c = 0; c < 16; ++c)
      EXPECT_NEAR(count[c], expected, 0.05 * expected) << c;

    std::set<uint8_t> distinct;
    for (const auto *buf : {&in.sfa, &in.sfb})
      for (uint8_t s : *buf) {
        double v = scaleValue(f, s);
        EXPECT_GE(v, f == ScaleFormat::NVFP4 ? 1.0 / 64 : 1.0 / 16) << int(s);
        EXPECT_LE(v, 4.0) << int(s);
        distinct.insert(s);
      }
    // NVFP4: every e4m3 code from 2^-6 to 2^2 (65 of them); MXFP4: 2^-4..2^2.
    EXPECT_EQ(distinct.size(), f == ScaleFormat::NVFP4 ? 65u : 7u);
  }
}

TEST(ReferenceTest, GeneratorWeakMimicsReferenceProblem) {
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
    GemvProblem p;
    p.m = 300;
    p.k = 512;
    p.l = 2;
    p.format = f;
    p.layout = ScaleLayout::Blocked128x4;
    GemvInputs in = generateGemvInputs(p, Distribution::Weak, 1);
    std::set<uint8_t> bytes;
    for (uint8_t byte : in.a)
      bytes.insert(byte);
    for (uint8_t byte : in.b)
      bytes.insert(byte);
    EXPECT_EQ(bytes, (std::set<uint8_t>{0, 1, 2, 3}));
    std::vector<uint8_t> lin =
        convertScaleLayout(ScaleLayout::Blocked128x4, ScaleLayout::Linear,
                           in.sfa.data(), p.m, p.k / bs(f), p.l);
    std::set<double> values;
    for (uint8_t s : lin)
      values.insert(scaleValue(f, s));
    if (f == ScaleFormat::NVFP4)
      EXPECT_EQ(values, (std::set<double>{0.0, 1.0, 2.0}));
    else
      EXPECT_EQ(values, (std::set<double>{std::ldexp(1.0, -127), 1.0, 2.0}));
    // Blocked padding stays zero.
    int64_t cols = p.k / bs(f);
    int64_t batch = layout::blockedBatchBytes(p.m, cols);
    std::vector<bool> used(in.sfa.size(), false);
    for (int64_t b = 0; b < p.l; ++b)
      for (int64_t r = 0; r < p.m; ++r)
        for (int64_t c = 0; c < cols; ++c)
          used[b * batch + layout::blockedOffset(r, c, cols)] = true;
    for (size_t i = 0; i < in.sfa.size(); ++i)
      ASSERT_TRUE(used[i] || in.sfa[i] == 0) << i;
  }
}

} // namespace
