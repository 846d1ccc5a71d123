//===- ReferenceEdgeTest.cpp - Edge-value inputs and their comparison -----===//
//
// The Overflow and Cancel distributions promise rows whose f32 sum is exact
// in any order (docs/numerics.md section 9); the tests recompute every block
// term with their own decoders, check that promise and show that the data
// exposes the faults it is meant for. compare() must be exact about
// infinities and NaNs (section 8).
//
//===----------------------------------------------------------------------===//

#include "ReferenceTestUtil.h"

#include "nvfp4/Support/Reference.h"

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

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<uint8_t> outputOf(ElementType type, std::vector<double> values) {
  return roundOutput(type, values);
}

TEST(ReferenceEdgeTest, CompareNeedsTheSameInfinity) {
  // 1e5 overflows f16 when rounded: only +inf matches it, however loose the
  // tolerance (an infinite rounded reference used to accept anything).
  std::vector<double> ref = {1e5, -1e5, 2.0};
  std::vector<uint8_t> good = outputOf(ElementType::F16, {kInf, -kInf, 2.0});
  Comparison ok = compare(ElementType::F16, good.data(), ref, 1e-3, 1e-3);
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.maxAbsError, 0.0);
  EXPECT_EQ(ok.relError, 0.0);

  for (std::vector<double> wrong : {std::vector<double>{65504.0, -kInf, 2.0},
                                    std::vector<double>{-kInf, -kInf, 2.0},
                                    std::vector<double>{kInf, 1.0, 2.0}}) {
    std::vector<uint8_t> out = outputOf(ElementType::F16, wrong);
    Comparison c = compare(ElementType::F16, out.data(), ref, 1e9, 1e9);
    EXPECT_FALSE(c.ok()) << wrong[0] << " " << wrong[1];
    EXPECT_EQ(c.firstMismatch, wrong[0] == kInf ? 1 : 0);
    EXPECT_EQ(c.nanCount, 0);
    EXPECT_TRUE(std::isinf(c.maxAbsError));
  }
  // A NaN output where the rounded reference is infinite is a NaN mismatch.
  std::vector<uint8_t> nan = outputOf(ElementType::F16, {kNaN, -kInf, 2.0});
  Comparison c = compare(ElementType::F16, nan.data(), ref, 1e-3, 1e-3);
  EXPECT_EQ(c.nanCount, 1);
  EXPECT_EQ(c.firstMismatch, 0);
  // An infinite double reference (not only a rounded one) needs it as well.
  std::vector<double> infRef = {kInf};
  std::vector<uint8_t> big = outputOf(ElementType::F32, {3e38});
  EXPECT_FALSE(compare(ElementType::F32, big.data(), infRef, 1, 1).ok());
  std::vector<uint8_t> inf = outputOf(ElementType::F32, {kInf});
  EXPECT_TRUE(compare(ElementType::F32, inf.data(), infRef, 0, 0).ok());
}

TEST(ReferenceEdgeTest, CompareNeedsFiniteOutputsForFiniteReferences) {
  // 65519 rounds to the largest f16 (65504); an output of +inf is rejected
  // at any tolerance, NaN is counted, and the bf16 and f32 versions agree.
  for (ElementType t :
       {ElementType::F16, ElementType::BF16, ElementType::F32}) {
    std::vector<double> ref = {65519.0, 3.0};
    std::vector<uint8_t> inf = outputOf(t, {kInf, 3.0});
    Comparison c = compare(t, inf.data(), ref, kInf, kInf);
    EXPECT_FALSE(c.ok());
    EXPECT_EQ(c.firstMismatch, 0);
    EXPECT_TRUE(std::isinf(c.maxAbsError));
    std::vector<uint8_t> nan = outputOf(t, {65519.0, kNaN});
    Comparison n = compare(t, nan.data(), ref, kInf, kInf);
    EXPECT_EQ(n.nanCount, 1);
    EXPECT_FALSE(n.ok());
    std::vector<uint8_t> same = outputOf(t, ref);
    EXPECT_TRUE(compare(t, same.data(), ref, 0, 0).ok());
  }
  // A NaN reference accepts NaN only.
  std::vector<double> nanRef = {kNaN};
  std::vector<uint8_t> inf = outputOf(ElementType::F32, {kInf});
  EXPECT_FALSE(compare(ElementType::F32, inf.data(), nanRef, 1, 1).ok());
  std::vector<uint8_t> nan = outputOf(ElementType::F32, {kNaN});
  EXPECT_TRUE(compare(ElementType::F32, nan.data(), nanRef, 0, 0).ok());
}

/// The exact block terms of every row, decoded here.
struct Terms {
  std::vector<std::vector<double>> rows; // [l * m][k / B]
};

Terms blockTerms(const GemvProblem &p, const GemvInputs &in) {
  const int64_t B = bs(p.format), cols = p.k / B;
  std::vector<uint8_t> sfa = convertScaleLayout(p.layout, ScaleLayout::Linear,
                                                in.sfa.data(), p.m, cols, p.l);
  std::vector<uint8_t> sfb = convertScaleLayout(p.layout, ScaleLayout::Linear,
                                                in.sfb.data(), 1, cols, p.l);
  auto code = [](const std::vector<uint8_t> &v, int64_t i) {
    return (i % 2) ? v[i / 2] >> 4 : v[i / 2] & 0xF;
  };
  Terms t;
  for (int64_t l = 0; l < p.l; ++l)
    for (int64_t m = 0; m < p.m; ++m) {
      std::vector<double> row;
      for (int64_t j = 0; j < cols; ++j) {
        double dot = 0;
        for (int64_t i = j * B; i < (j + 1) * B; ++i)
          dot += e2m1Value(code(in.a, (l * p.m + m) * p.k + i)) *
                 e2m1Value(code(in.b, l * p.k + i));
        row.push_back(scaleValue(p.format, sfa[(l * p.m + m) * cols + j]) *
                      scaleValue(p.format, sfb[l * cols + j]) * dot);
      }
      t.rows.push_back(row);
    }
  return t;
}

/// Exponent of the lowest set bit of a nonzero double.
int lowestBit(double x) {
  int e = std::ilogb(x);
  while (std::ldexp(x, -e) != std::floor(std::ldexp(x, -e)))
    --e;
  return e;
}

/// The sufficient condition of section 9 for an exact f32 sum in any
/// order: every term a multiple of 2^e and sum |t| <= min(2^(24+e), f32 max).
bool sumExactInAnyOrder(const std::vector<double> &terms) {
  double sumAbs = 0;
  int lowest = 1 << 30;
  for (double t : terms) {
    sumAbs += std::fabs(t);
    if (t != 0)
      lowest = std::min(lowest, lowestBit(t));
  }
  return sumAbs == 0 || (sumAbs <= std::ldexp(1.0, 24 + lowest) &&
                         sumAbs <= std::numeric_limits<float>::max());
}

/// The terms summed in f32 in a random order.
float shuffledF32Sum(std::vector<double> terms, std::mt19937_64 &rng) {
  std::shuffle(terms.begin(), terms.end(), rng);
  float s = 0;
  for (double t : terms)
    s += static_cast<float>(t);
  return s;
}

GemvProblem problem(ScaleFormat f, int64_t m, int64_t k, int64_t l,
                    ElementType out) {
  GemvProblem p;
  p.m = m;
  p.k = k;
  p.l = l;
  p.format = f;
  p.layout = ScaleLayout::Blocked128x4;
  p.output = out;
  return p;
}

TEST(ReferenceEdgeTest, OverflowCodesAndScales) {
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
    GemvProblem p = problem(f, 70, 2048, 2, ElementType::F16);
    GemvInputs in = generateGemvInputs(p, Distribution::Overflow, 3);
    std::set<int> codes;
    for (const auto *v : {&in.a, &in.b})
      for (uint8_t byte : *v) {
        codes.insert(byte & 0xF);
        codes.insert(byte >> 4);
      }
    EXPECT_EQ(codes, (std::set<int>{7, 15})); // +6 and -6 only
    const int64_t cols = p.k / bs(f);
    std::vector<uint8_t> sfa = convertScaleLayout(
        p.layout, ScaleLayout::Linear, in.sfa.data(), p.m, cols, p.l);
    std::set<double> values;
    for (uint8_t s : sfa)
      values.insert(scaleValue(f, s));
    if (f == ScaleFormat::NVFP4) {
      EXPECT_EQ(values,
                (std::set<double>{-448, -384, -320, -256, 256, 320, 384, 448}));
      continue;
    }
    // 2^E .. 2^(E+2) with the largest E for which 1152 * 16 * blocks *
    // 2^(2E) < 2^128 (64 blocks: 2^20.17 * 2^(2E), E = 53).
    EXPECT_EQ(values,
              (std::set<double>{std::ldexp(1.0, 53), std::ldexp(1.0, 54),
                                std::ldexp(1.0, 55)}));
  }
}

TEST(ReferenceEdgeTest, OverflowRowsAreExactAndOverflowF16) {
  std::mt19937_64 rng(11);
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
    for (int64_t k : {int64_t(32), int64_t(1024), int64_t(32768)}) {
      GemvProblem p = problem(f, k > 1024 ? 40 : 300, k, 2, ElementType::F16);
      GemvInputs in = generateGemvInputs(p, Distribution::Overflow, k);
      std::vector<double> ref =
          gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
      Terms t = blockTerms(p, in);
      int64_t posInf = 0, negInf = 0, zero = 0;
      double largest = 0;
      std::vector<uint8_t> f16 = roundOutput(ElementType::F16, ref);
      for (size_t r = 0; r < ref.size(); ++r) {
        ASSERT_TRUE(sumExactInAnyOrder(t.rows[r]))
            << name(f) << " k=" << k << " row " << r;
        ASSERT_EQ(shuffledF32Sum(t.rows[r], rng), ref[r]) << r;
        largest = std::max(largest, std::fabs(ref[r]));
        double h = readOutput(ElementType::F16, f16.data(), r);
        if (ref[r] == 0)
          ++zero;
        else
          ASSERT_TRUE(std::isinf(h)) << ref[r]; // no finite f16 result
        posInf += h == kInf;
        negInf += h == -kInf;
      }
      EXPECT_GT(posInf, 0);
      EXPECT_GT(negInf, 0);
      EXPECT_LT(zero, posInf + negInf);
      // f32 sums get large: NVFP4 beyond 2^24, MXFP4 beyond 2^100.
      EXPECT_GT(largest, std::ldexp(1.0, f == ScaleFormat::NVFP4 ? 24 : 100));
    }
}

TEST(ReferenceEdgeTest, CancelRowsSumToZeroOrOneProduct) {
  std::mt19937_64 rng(5);
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
    for (int64_t blocks : {1, 2, 7, 64, 1024}) {
      GemvProblem p = problem(f, 130, blocks * bs(f), 2, ElementType::BF16);
      GemvInputs in = generateGemvInputs(p, Distribution::Cancel, blocks);
      std::vector<double> ref =
          gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
      Terms t = blockTerms(p, in);
      int64_t zeros = 0, residues = 0, cancelling = 0;
      for (size_t r = 0; r < ref.size(); ++r) {
        const std::vector<double> &row = t.rows[r];
        ASSERT_TRUE(sumExactInAnyOrder(row)) << blocks << " " << r;
        ASSERT_EQ(shuffledF32Sum(row, rng), ref[r]) << r;
        double largest = 0, sumAbs = 0;
        for (double x : row) {
          largest = std::max(largest, std::fabs(x));
          sumAbs += std::fabs(x);
        }
        // With an odd block out the row keeps one whole block term.
        if (blocks % 2)
          continue;
        zeros += ref[r] == 0;
        // A residue is one changed product: at most 6 * 6 * 2 times the
        // largest scale product (below largest, which a whole block reaches).
        residues += ref[r] != 0;
        EXPECT_LE(std::fabs(ref[r]), sumAbs);
        cancelling += sumAbs > 16 * std::fabs(ref[r]);
      }
      if (blocks % 2 || blocks < 2)
        continue;
      EXPECT_GT(zeros, 0) << blocks;
      EXPECT_GT(residues, 0) << blocks;
      if (blocks >= 64) // the residue is small against the row's terms
        EXPECT_GT(cancelling, static_cast<int64_t>(ref.size()) * 9 / 10)
            << blocks;
    }
}

TEST(ReferenceEdgeTest, CancelExposesLowPrecisionAndMispairedSums) {
  for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
    GemvProblem p = problem(f, 200, 256 * bs(f), 1, ElementType::F32);
    GemvInputs in = generateGemvInputs(p, Distribution::Cancel, 9);
    std::vector<double> ref =
        gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
    Terms t = blockTerms(p, in);
    // A sum kept in bf16 (8 significant bits), in block order.
    std::vector<double> bf16Sums;
    for (const std::vector<double> &row : t.rows) {
      double s = 0;
      for (double x : row) {
        std::vector<uint8_t> bits = roundOutput(ElementType::BF16, {s + x});
        s = readOutput(ElementType::BF16, bits.data(), 0);
      }
      bf16Sums.push_back(s);
    }
    std::vector<uint8_t> low = roundOutput(ElementType::F32, bf16Sums);
    Comparison c = compare(ElementType::F32, low.data(), ref, 1e-3, 1e-3);
    EXPECT_FALSE(c.ok());
    // A kernel that pairs a[2j] with b[2j+1] (nibbles of b swapped).
    GemvInputs swapped = in;
    for (uint8_t &byte : swapped.b)
      byte = static_cast<uint8_t>(byte << 4 | byte >> 4);
    std::vector<double> wrong = gemvExact(p, in.a.data(), in.sfa.data(),
                                          swapped.b.data(), in.sfb.data());
    std::vector<uint8_t> out = roundOutput(ElementType::F32, wrong);
    int64_t caught = 0;
    for (size_t r = 0; r < ref.size(); ++r)
      caught += std::fabs(wrong[r] - ref[r]) > 1e-3 + 1e-3 * std::fabs(ref[r]);
    EXPECT_GT(caught, static_cast<int64_t>(ref.size()) * 9 / 10);
    EXPECT_FALSE(compare(ElementType::F32, out.data(), ref, 1e-3, 1e-3).ok());
  }
}

TEST(ReferenceEdgeTest, CancelPairsAcrossTheRow) {
  // The partner of a block is anywhere in the row, not only its neighbour,
  // so cancellation spans threads and K slices of a kernel.
  GemvProblem p = problem(ScaleFormat::NVFP4, 1, 64 * 16, 1, ElementType::F32);
  GemvInputs in = generateGemvInputs(p, Distribution::Cancel, 2);
  Terms t = blockTerms(p, in);
  int64_t far = 0;
  const std::vector<double> &row = t.rows[0];
  for (size_t i = 0; i < row.size(); ++i)
    for (size_t j = i + 2; j < row.size(); ++j)
      far += row[i] != 0 && row[i] == -row[j];
  EXPECT_GT(far, 16);
}

} // namespace
