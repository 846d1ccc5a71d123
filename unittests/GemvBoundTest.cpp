//===- GemvBoundTest.cpp - What an f32 GEMV may return --------------------===//
//
// The lowering's f32 evaluation order is simulated here (docs/numerics.md
// section 10) to produce outputs the bound must accept, and the same outputs
// rounded by truncation, which it must reject.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/GemvBound.h"
#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace nvfp4;
using namespace nvfp4::ref;

namespace {

/// c[i] as the CPU lowering computes it, before the output rounding.
std::vector<float> simulateF32(const GemvProblem &p, const GemvInputs &in) {
  const int64_t bs = blockSize(p.format), cols = p.k / bs;
  std::vector<float> c(p.l * p.m);
  for (int64_t l = 0; l < p.l; ++l)
    for (int64_t m = 0; m < p.m; ++m) {
      const uint8_t *aRow = in.a.data() + (l * p.m + m) * (p.k / 2);
      const uint8_t *bRow = in.b.data() + l * (p.k / 2);
      float acc = 0.0f;
      for (int64_t kb = 0; kb < cols; ++kb) {
        float sa = static_cast<float>(decodeScale(
            p.format, in.sfa[l * scaleBatchBytes(p.layout, p.m, cols) +
                             scaleOffset(p.layout, m, kb, cols)]));
        float sb = static_cast<float>(decodeScale(
            p.format, in.sfb[l * scaleBatchBytes(p.layout, 1, cols) +
                             scaleOffset(p.layout, 0, kb, cols)]));
        float dot = 0.0f;
        for (int64_t j = kb * bs / 2; j < (kb + 1) * bs / 2; ++j)
          dot += static_cast<float>(formats::decodeE2M1(aRow[j] & 0xF) *
                                        formats::decodeE2M1(bRow[j] & 0xF) +
                                    formats::decodeE2M1(aRow[j] >> 4) *
                                        formats::decodeE2M1(bRow[j] >> 4));
        float scale = sa * sb;
        volatile float term = dot * scale; // no contraction into the sum
        if (dot == 0.0f && !std::isnan(scale))
          term = 0.0f;
        acc += term;
      }
      volatile float scaled = p.alpha * acc;
      c[l * p.m + m] = scaled;
    }
  return c;
}

/// f32 values stored as `type`, rounded to nearest even or truncated.
std::vector<uint8_t> store(ElementType type, const std::vector<float> &x,
                           bool truncate) {
  std::vector<uint8_t> out(x.size() * elementBytes(type));
  for (size_t i = 0; i < x.size(); ++i) {
    if (type == ElementType::F32) {
      std::memcpy(out.data() + 4 * i, &x[i], 4);
      continue;
    }
    bool f16 = type == ElementType::F16;
    uint16_t h = f16 ? formats::encodeF16(x[i]) : formats::encodeBF16(x[i]);
    double back = f16 ? formats::decodeF16(h) : formats::decodeBF16(h);
    // Rounded away from zero: step back one code towards zero.
    if (truncate && std::isfinite(x[i]) &&
        std::fabs(back) > std::fabs(double(x[i])))
      --h;
    std::memcpy(out.data() + 2 * i, &h, 2);
  }
  return out;
}

GemvBoundCheck check(const GemvProblem &p, const GemvInputs &in,
                     bool truncate) {
  std::vector<double> ref =
      gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
  std::vector<GemvRowSum> sums = analyzeGemvSums(p, in.a.data(), in.sfa.data(),
                                                 in.b.data(), in.sfb.data());
  std::vector<uint8_t> out = store(p.output, simulateF32(p, in), truncate);
  return checkGemvBound(p, sums, out.data(), ref);
}

TEST(GemvBound, HalfUlps) {
  EXPECT_EQ(roundingHalfUlp(ElementType::F16, 1.0), 0x1p-11);
  EXPECT_EQ(roundingHalfUlp(ElementType::F16, 1.5), 0x1p-11);
  EXPECT_EQ(roundingHalfUlp(ElementType::F16, 0.0), 0x1p-25);
  EXPECT_EQ(roundingHalfUlp(ElementType::F16, 1e6), 0x1p4);
  EXPECT_EQ(roundingHalfUlp(ElementType::BF16, -3.0), 0x1p-7);
  EXPECT_EQ(roundingHalfUlp(ElementType::F32, 1.0), 0x1p-24);
  EXPECT_EQ(roundingHalfUlp(ElementType::F32, 1e-45), 0x1p-150);
}

TEST(GemvBound, AcceptsTheF32OrderAndRejectsTruncation) {
  for (Distribution dist :
       {Distribution::Full, Distribution::Weak, Distribution::Extreme})
    for (ScaleFormat format : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
      for (ElementType type :
           {ElementType::F16, ElementType::BF16, ElementType::F32}) {
        GemvProblem p;
        p.m = 96;
        p.k = 512;
        p.l = 2;
        p.format = format;
        p.layout = ScaleLayout::Blocked128x4;
        p.output = type;
        p.alpha = 0.6875f;
        GemvInputs in = generateGemvInputs(p, dist, 7);
        GemvBoundCheck ok = check(p, in, /*truncate=*/false);
        SCOPED_TRACE(std::string(name(format)) + " " + name(type) + " dist " +
                     std::to_string(int(dist)));
        EXPECT_TRUE(ok.ok()) << ok.failures << " failures, first " << ok.first;
        EXPECT_LE(ok.worst, 1.0);
        EXPECT_EQ(ok.exact + ok.bounded + ok.special, p.m * p.l);
        // Truncating f16 or bf16 results is caught: most elements are
        // compared exactly, and half of those round up.
        if (type != ElementType::F32) {
          GemvBoundCheck bad = check(p, in, /*truncate=*/true);
          EXPECT_GT(bad.failures, ok.exact / 8) << ok.exact << " exact";
        }
      }
}

TEST(GemvBound, WeakSumsAreExact) {
  GemvProblem p;
  p.m = 64;
  p.k = 4096;
  GemvInputs in = generateGemvInputs(p, Distribution::Weak, 3);
  GemvBoundCheck c = check(p, in, false);
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.exact, p.m);
}

/// One row of K = 64 NVFP4 (four blocks) or MXFP4 (two), every code 1.0
/// (0x22 bytes) unless changed, every scale `scale`.
GemvInputs oneRow(const GemvProblem &p, uint8_t scale) {
  GemvInputs in;
  in.a.assign(p.k / 2, 0x22);
  in.b.assign(p.k / 2, 0x22);
  in.sfa.assign(p.k / blockSize(p.format), scale);
  in.sfb.assign(p.k / blockSize(p.format), scale);
  return in;
}

GemvExpectation expectOne(const GemvProblem &p, const GemvInputs &in) {
  std::vector<double> ref =
      gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
  std::vector<GemvRowSum> sums = analyzeGemvSums(p, in.a.data(), in.sfa.data(),
                                                 in.b.data(), in.sfb.data());
  return expectGemvElement(sums[0], p.alpha, p.output, ref[0]);
}

TEST(GemvBound, NaNAndInfinityAreExact) {
  GemvProblem p;
  p.m = 1;
  p.k = 64;
  using Kind = GemvExpectation::Kind;
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();

  // A NaN scale: NaN, and nothing else.
  GemvInputs in = oneRow(p, 0x38);
  in.sfa[2] = 0x7F;
  GemvExpectation e = expectOne(p, in);
  EXPECT_EQ(e.kind, Kind::NaN);
  EXPECT_TRUE(meetsExpectation(e, p.output, nan, nan, nan));
  EXPECT_FALSE(meetsExpectation(e, p.output, 64.0, nan, nan));
  EXPECT_FALSE(meetsExpectation(e, p.output, inf, nan, nan));

  // MXFP4 scales 2^127: each block term overflows f32 (32 * 2^254).
  p.format = ScaleFormat::MXFP4;
  in = oneRow(p, 254);
  e = expectOne(p, in);
  EXPECT_EQ(e.kind, Kind::Inf);
  EXPECT_TRUE(meetsExpectation(e, p.output, inf, 0, inf));
  EXPECT_FALSE(meetsExpectation(e, p.output, -inf, 0, inf));
  EXPECT_FALSE(meetsExpectation(e, p.output, nan, 0, inf));
  EXPECT_FALSE(meetsExpectation(e, p.output, 65504, 0, inf));
  // One block negative (codes -1.0 = 0xAA): +inf + -inf = NaN, though the
  // float64 sum is 0.
  std::fill(in.a.begin(), in.a.begin() + 16, 0xAA);
  e = expectOne(p, in);
  EXPECT_EQ(e.kind, Kind::NaN);
  // A zero block adds 0 even with an infinite scale product.
  std::fill(in.a.begin(), in.a.begin() + 16, 0x00);
  e = expectOne(p, in);
  EXPECT_EQ(e.kind, Kind::Inf);

  // 2^-127 * 2^-127 underflows to 0 in f32; the reference is 64 * 2^-254.
  in = oneRow(p, 0);
  p.output = ElementType::F32;
  e = expectOne(p, in);
  EXPECT_EQ(e.kind, Kind::Bounded);
  EXPECT_TRUE(meetsExpectation(e, p.output, 0.0, 0x1p-248, 0.0));
  EXPECT_FALSE(meetsExpectation(e, p.output, 1e-30, 0x1p-248, 0.0));
}

TEST(GemvBound, OutputOverflowMustMatch) {
  // f16: 4 blocks of 16 * 448 * 448 = 3211264 each: r rounds to +inf.
  GemvProblem p;
  p.m = 1;
  p.k = 64;
  GemvInputs in = oneRow(p, 0x7E);
  GemvExpectation e = expectOne(p, in);
  const double inf = std::numeric_limits<double>::infinity();
  const double r = 4 * 16 * 448.0 * 448.0;
  EXPECT_EQ(e.kind, GemvExpectation::Kind::Exact);
  EXPECT_TRUE(meetsExpectation(e, p.output, inf, r, inf));
  EXPECT_FALSE(meetsExpectation(e, p.output, 65504, r, inf));
  EXPECT_FALSE(meetsExpectation(e, p.output, -inf, r, inf));
}

} // namespace
