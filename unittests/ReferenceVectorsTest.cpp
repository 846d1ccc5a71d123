//===- ReferenceVectorsTest.cpp - The reference for N and 16-bit vectors --===//
//
// gemvExact and analyzeGemvSums for b [L][N][...]: each vector of N agrees
// with the one-vector problem of its own row of b and sfb, and 16-bit b is
// checked against values decoded here from first principles.
//
//===----------------------------------------------------------------------===//

#include "ReferenceTestUtil.h"

#include "nvfp4/Support/GemvBound.h"
#include "nvfp4/Support/Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace nvfp4;
using namespace nvfp4::ref;
using namespace nvfp4::reftest;

namespace {

/// f16 and bf16 bits as values, without the library's decoders.
double halfValue(VectorElement type, uint16_t bits) {
  bool f16 = type == VectorElement::F16;
  int mantBits = f16 ? 10 : 7, bias = f16 ? 15 : 127;
  int exp = (bits & 0x7FFF) >> mantBits;
  double mant = bits & ((1 << mantBits) - 1);
  if (exp == (0x7FFF >> mantBits))
    return mant ? kNaN : (bits & 0x8000) ? -HUGE_VAL : HUGE_VAL;
  double mag = exp ? std::ldexp(1 + mant / (1 << mantBits), exp - bias)
                   : std::ldexp(mant / (1 << mantBits), 1 - bias);
  return (bits & 0x8000) ? -mag : mag;
}

/// `x` rounded to the nearest bf16 (ties to even), as an f32.
float roundToBF16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof(u));
  u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000u;
  std::memcpy(&x, &u, sizeof(u));
  return x;
}

/// The one-vector problem of vector `n`: b and sfb of that vector alone.
GemvInputs vectorAlone(const GemvProblem &p, const GemvInputs &in, int64_t n) {
  GemvInputs one;
  one.a = in.a;
  one.sfa = in.sfa;
  const int64_t cols = p.k / blockSize(p.format);
  const int64_t bRow = p.k / 2, sfbBatch = vectorScaleBatchBytes(p);
  const int64_t oneSfb = scaleBatchBytes(p.layout, 1, cols);
  for (int64_t l = 0; l < p.l; ++l) {
    const uint8_t *b = in.b.data() + (l * p.n + n) * bRow;
    one.b.insert(one.b.end(), b, b + bRow);
    std::vector<uint8_t> sfb(oneSfb, 0);
    for (int64_t kb = 0; kb < cols; ++kb)
      sfb[scaleOffset(p.layout, 0, kb, cols)] =
          in.sfb[l * sfbBatch + scaleOffset(p.layout, n, kb, cols)];
    one.sfb.insert(one.sfb.end(), sfb.begin(), sfb.end());
  }
  return one;
}

TEST(ReferenceVectors, EachVectorIsItsOwnGemv) {
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
    for (ScaleLayout lay : {ScaleLayout::Linear, ScaleLayout::Blocked128x4})
      for (int64_t n : {1, 3, 16}) {
        GemvProblem p;
        p.m = 130;
        p.k = 128;
        p.l = 2;
        p.n = n;
        p.format = f;
        p.layout = lay;
        p.alpha = 0.75f;
        GemvInputs in = generateGemvInputs(p, Distribution::Full, 7 * n);
        std::vector<double> c = gemvExact(p, in.a.data(), in.sfa.data(),
                                          in.b.data(), in.sfb.data());
        std::vector<GemvRowSum> sums = analyzeGemvSums(
            p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
        ASSERT_EQ(c.size(), size_t(p.l * n * p.m));
        GemvProblem q = p;
        q.n = 1;
        for (int64_t v = 0; v < n; ++v) {
          GemvInputs one = vectorAlone(p, in, v);
          std::vector<double> want = gemvExact(q, one.a.data(), one.sfa.data(),
                                               one.b.data(), one.sfb.data());
          std::vector<GemvRowSum> wantSums = analyzeGemvSums(
              q, one.a.data(), one.sfa.data(), one.b.data(), one.sfb.data());
          for (int64_t l = 0; l < p.l; ++l)
            for (int64_t m = 0; m < p.m; ++m) {
              size_t i = (l * n + v) * p.m + m;
              EXPECT_EQ(c[i], want[l * p.m + m]) << "n=" << v << " m=" << m;
              EXPECT_EQ(sums[i].sum, wantSums[l * p.m + m].sum);
              EXPECT_EQ(sums[i].f32Error, wantSums[l * p.m + m].f32Error);
            }
        }
      }
}

TEST(ReferenceVectors, OneVectorOfNIsTheOneVectorForm) {
  // N = 1 draws the bytes of the one-vector form for a seed.
  GemvProblem p;
  p.m = 33;
  p.k = 96;
  p.l = 3;
  for (Distribution d : kDistributions) {
    GemvInputs one = generateGemvInputs(p, d, 5);
    GemvProblem q = p;
    q.n = 1;
    GemvInputs also = generateGemvInputs(q, d, 5);
    EXPECT_EQ(one.a, also.a);
    EXPECT_EQ(one.b, also.b);
    EXPECT_EQ(one.sfb, also.sfb);
  }
}

TEST(ReferenceVectors, WideVectorsMatchBruteForce) {
  for (VectorElement t : {VectorElement::F16, VectorElement::BF16})
    for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
      for (Distribution d : {Distribution::Full, Distribution::Extreme}) {
        GemvProblem p;
        p.m = 5;
        p.k = 64;
        p.l = 2;
        p.n = 3;
        p.format = f;
        p.vector = t;
        p.alpha = 2.0f;
        GemvInputs in = generateGemvInputs(p, d, 11);
        ASSERT_EQ(in.b.size(), size_t(p.l * p.n * p.k * 2));
        EXPECT_TRUE(in.sfb.empty());
        std::vector<double> c =
            gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), nullptr);
        const int64_t cols = p.k / bs(f);
        for (int64_t l = 0; l < p.l; ++l)
          for (int64_t n = 0; n < p.n; ++n)
            for (int64_t m = 0; m < p.m; ++m) {
              double acc = 0;
              for (int64_t k = 0; k < p.k; ++k) {
                uint8_t byte = in.a[((l * p.m + m) * p.k + k) / 2];
                double a = e2m1Value(k % 2 ? byte >> 4 : byte & 0xF);
                const uint8_t *at = &in.b[((l * p.n + n) * p.k + k) * 2];
                double b = halfValue(t, uint16_t(at[0] | at[1] << 8));
                double s =
                    scaleValue(f, in.sfa[(l * p.m + m) * cols + k / bs(f)]);
                acc += s * a * b;
              }
              double got = c[(l * p.n + n) * p.m + m];
              if (std::isnan(acc))
                EXPECT_TRUE(std::isnan(got));
              else
                EXPECT_EQ(got, 2.0 * acc);
            }
      }
}

TEST(ReferenceVectors, WideFullValuesStayBelowSixteen) {
  for (VectorElement t : {VectorElement::F16, VectorElement::BF16}) {
    GemvProblem p;
    p.m = 1;
    p.k = 4096;
    p.n = 4;
    p.vector = t;
    GemvInputs in = generateGemvInputs(p, Distribution::Full, 3);
    bool subnormal = false;
    double largest = 0;
    for (size_t i = 0; i < in.b.size(); i += 2) {
      double v = halfValue(t, uint16_t(in.b[i] | in.b[i + 1] << 8));
      ASSERT_TRUE(std::isfinite(v));
      largest = std::max(largest, std::fabs(v));
      subnormal |= v != 0 && std::fabs(v) <
                                 (t == VectorElement::F16 ? 0x1p-14 : 0x1p-126);
    }
    EXPECT_LT(largest, 16.0);
    EXPECT_GE(largest, 8.0);
    EXPECT_TRUE(subnormal);
  }
}

TEST(ReferenceVectors, WideBoundRejectsATruncatedSum) {
  // The check of 16-bit b accepts the lowering's f32 order and rejects a
  // result computed with bf16 partial sums.
  GemvProblem p;
  p.m = 64;
  p.k = 256;
  p.n = 2;
  p.vector = VectorElement::F16;
  p.output = ElementType::F32;
  GemvInputs in = generateGemvInputs(p, Distribution::Full, 21);
  std::vector<double> ref =
      gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), nullptr);
  std::vector<GemvRowSum> sums =
      analyzeGemvSums(p, in.a.data(), in.sfa.data(), in.b.data(), nullptr);
  std::vector<float> f32(ref.size()), coarse(ref.size());
  const int64_t cols = p.k / 16;
  for (int64_t n = 0; n < p.n; ++n)
    for (int64_t m = 0; m < p.m; ++m) {
      float acc = 0, bad = 0;
      for (int64_t k = 0; k < p.k; ++k) {
        uint8_t byte = in.a[(m * p.k + k) / 2];
        float a = float(e2m1Value(k % 2 ? byte >> 4 : byte & 0xF));
        const uint8_t *at = &in.b[(n * p.k + k) * 2];
        float b = float(halfValue(p.vector, uint16_t(at[0] | at[1] << 8)));
        float s = float(scaleValue(p.format, in.sfa[m * cols + k / 16]));
        acc += (a * b) * s;
        bad = roundToBF16(bad + (a * b) * s);
      }
      f32[n * p.m + m] = acc;
      coarse[n * p.m + m] = bad;
    }
  std::vector<uint8_t> good(ref.size() * 4), wrong(ref.size() * 4);
  std::memcpy(good.data(), f32.data(), good.size());
  std::memcpy(wrong.data(), coarse.data(), wrong.size());
  EXPECT_TRUE(checkGemvBound(p, sums, good.data(), ref).ok());
  EXPECT_GT(checkGemvBound(p, sums, wrong.data(), ref).failures, p.m / 2);
}

} // namespace
