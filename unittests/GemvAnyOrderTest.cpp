//===- GemvAnyOrderTest.cpp - What a GPU kernel's f32 GEMV may return -----===//
//
// Hand-built rows for the cases of docs/numerics.md section 11, where the
// kernels' f32 evaluation (unit products dot * sfa, fma with sfb) leaves
// the f32 range although the float64 reference does not.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/GemvBound.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace nvfp4::ref;
using Kind = GemvExpectation::Kind;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// One MXFP4 row of K = 32 (two units of 16) against a vector of ones.
struct Row {
  GemvProblem p;
  std::vector<uint8_t> a, sfa, b, sfb;

  Row(std::vector<uint8_t> codes, int sfaExp, int sfbExp, float alpha = 1) {
    p.m = 1;
    p.k = 32;
    p.format = ScaleFormat::MXFP4;
    p.output = ElementType::F32;
    p.alpha = alpha;
    codes.resize(32, 0);
    for (size_t i = 0; i < 32; i += 2)
      a.push_back(static_cast<uint8_t>(codes[i] | codes[i + 1] << 4));
    b.assign(16, 0x22); // e2m1 code 2: 1.0
    sfa = {static_cast<uint8_t>(127 + sfaExp)};
    sfb = {static_cast<uint8_t>(127 + sfbExp)};
  }
  std::vector<double> ref() const {
    return gemvExact(p, a.data(), sfa.data(), b.data(), sfb.data());
  }
  GemvExpectation expect() const {
    return expectAnyOrderGemv(p, a.data(), sfa.data(), b.data(), sfb.data(),
                              ref())[0];
  }
  bool accepts(double o) const {
    std::vector<double> r = ref();
    std::vector<uint8_t> rounded = roundOutput(p.output, r);
    return meetsExpectation(expect(), p.output, o, r[0],
                            readOutput(p.output, rounded.data(), 0));
  }
  Comparison compareWith(double o, bool everyElement = false) const {
    std::vector<uint8_t> out = roundOutput(p.output, {o});
    return compareAnyOrderGemv(p, a.data(), sfa.data(), b.data(), sfb.data(),
                               out.data(), ref(), 1e-3, 1e-3, everyElement);
  }
};

// e2m1 codes: 7 is 6, 6 is 4, 5 is 3, 2 is 1; 8 + c is -c's value.
const std::vector<uint8_t> kSix = {7, 7, 7, 7, 7, 7}; // unit dot 36

TEST(GemvAnyOrderTest, UnitProductsOfBothSignsOverflowToNaN) {
  // Units 36 and -33 times 2^123: +inf and -inf in f32, NaN in the row,
  // where the block's dot is 3 and the float64 result 3 * 2^2 = 12.
  std::vector<uint8_t> codes = kSix;
  codes.resize(16, 0);
  for (uint8_t c : {15, 15, 15, 15, 15, 13}) // -6 * 5 - 3
    codes.push_back(c);
  Row row(codes, 123, -121);
  EXPECT_EQ(row.ref()[0], 12.0);
  EXPECT_EQ(row.expect().kind, Kind::NaN);
  EXPECT_TRUE(row.accepts(kNaN));
  EXPECT_FALSE(row.accepts(12.0));
  EXPECT_FALSE(row.accepts(kInf));
  // compare() alone would want 12; the expectation decides instead.
  std::vector<uint8_t> nan = roundOutput(ElementType::F32, {kNaN});
  EXPECT_FALSE(compare(ElementType::F32, nan.data(), row.ref(), 1, 1).ok());
  EXPECT_TRUE(row.compareWith(kNaN).ok());
  EXPECT_FALSE(row.compareWith(12.0).ok());
}

TEST(GemvAnyOrderTest, OneSignGivesThatInfinity) {
  Row row(kSix, 123, -121); // unit 36 * 2^123 > f32 max, the other unit 0
  EXPECT_EQ(row.ref()[0], 36.0 * 4);
  GemvExpectation e = row.expect();
  EXPECT_EQ(e.kind, Kind::Inf);
  EXPECT_EQ(e.infSign, 1);
  EXPECT_TRUE(row.accepts(kInf));
  EXPECT_FALSE(row.accepts(-kInf));
  EXPECT_FALSE(row.accepts(144.0));
  EXPECT_FALSE(row.accepts(kNaN));
  EXPECT_EQ(Row(kSix, 123, -121, -2).expect().infSign, -1);    // alpha < 0
  EXPECT_EQ(Row(kSix, 123, -121, 0).expect().kind, Kind::NaN); // inf * 0
  // Below the f32 range the product is finite and the row exact.
  EXPECT_EQ(Row(kSix, 120, -121).expect().kind, Kind::Exact);
}

TEST(GemvAnyOrderTest, UnitProductsUpToTheF32RangeAreExact) {
  // Unit dot 17 times 2^123 is an f32 (every decode gives the dot itself,
  // dp4a included): the row is exactly 68, and +inf is wrong.
  Row row({7, 7, 6, 2}, 123, -121);
  EXPECT_EQ(row.ref()[0], 68.0);
  EXPECT_EQ(row.expect().kind, Kind::Exact);
  EXPECT_TRUE(row.accepts(68.0));
  EXPECT_FALSE(row.accepts(kInf));
  EXPECT_FALSE(row.accepts(68.5));
}

TEST(GemvAnyOrderTest, PartialSumsThatMayOverflow) {
  // Two units of dot 36, sfa 2^120 and sfb 2^6: each term 36 * 2^126 is
  // beyond f32, so the fma overflows: inf, NaN or a value within the bound.
  std::vector<uint8_t> codes = kSix;
  codes.resize(16, 0);
  codes.insert(codes.end(), kSix.begin(), kSix.end());
  Row row(codes, 120, 6);
  EXPECT_EQ(row.expect().kind, Kind::NonFinite);
  EXPECT_TRUE(row.accepts(kInf));
  EXPECT_TRUE(row.accepts(kNaN));
  EXPECT_FALSE(row.accepts(1.0));
}

TEST(GemvAnyOrderTest, EveryElementUsesTheF32Bound) {
  // Unit terms 6 * 2^100 and -5 * 2^100: exact in f32 in any order, so
  // with everyElement the row must be 2^100 bit for bit, where rtol = 1e-3
  // would accept more.
  std::vector<uint8_t> codes(16, 0);
  codes[0] = 7;
  codes.resize(32, 0);
  codes[16] = 15;
  codes[17] = 2; // -6 + 1: unit dot -5
  Row row(codes, 100, 0);
  EXPECT_EQ(row.ref()[0], std::ldexp(1.0, 100));
  EXPECT_EQ(row.expect().kind, Kind::Exact);
  double off = std::ldexp(1.0, 100) * (1 + 1e-4);
  EXPECT_TRUE(row.compareWith(off).ok());        // within rtol
  EXPECT_FALSE(row.compareWith(off, true).ok()); // not bit-exact
  EXPECT_TRUE(row.compareWith(std::ldexp(1.0, 100), true).ok());
}

TEST(GemvAnyOrderTest, BoundedRowsAcceptTheirF32Error) {
  // NVFP4, 16 blocks of 448 * 448 * 6 * 6 alternating in sign plus one of
  // 2^-9 * 2^-9 * 0.5 * 0.5: an f32 sum in some orders loses the small
  // term, so 0 is a correct result; with everyElement the f32 bound, not
  // the tolerances (here 0), decides.
  GemvProblem p;
  p.m = 1;
  p.k = 17 * 16;
  p.format = ScaleFormat::NVFP4;
  p.output = ElementType::F32;
  std::vector<uint8_t> a(p.k / 2, 0), b(p.k / 2, 0), sfa(17), sfb(17);
  for (int kb = 0; kb < 16; ++kb) {
    a[kb * 8] = kb % 2 ? 0x0F : 0x07; // +-6 in the first value
    b[kb * 8] = 0x07;                 // 6
    sfa[kb] = sfb[kb] = 0x7E;         // 448
  }
  a[16 * 8] = b[16 * 8] = 0x01; // 0.5
  sfa[16] = sfb[16] = 0x01;     // 2^-9
  std::vector<double> ref =
      gemvExact(p, a.data(), sfa.data(), b.data(), sfb.data());
  EXPECT_EQ(ref[0], std::ldexp(1.0, -20));
  GemvExpectation e =
      expectAnyOrderGemv(p, a.data(), sfa.data(), b.data(), sfb.data(), ref)[0];
  ASSERT_EQ(e.kind, Kind::Bounded);
  EXPECT_GT(e.bound, ref[0]); // 0 is a possible f32 result
  std::vector<uint8_t> zero = roundOutput(ElementType::F32, {0.0});
  EXPECT_TRUE(compareAnyOrderGemv(p, a.data(), sfa.data(), b.data(), sfb.data(),
                                  zero.data(), ref, 0, 0, true)
                  .ok());
  std::vector<uint8_t> far = roundOutput(ElementType::F32, {e.bound * 2});
  EXPECT_FALSE(compareAnyOrderGemv(p, a.data(), sfa.data(), b.data(),
                                   sfb.data(), far.data(), ref, 1, 1, true)
                   .ok());
}

/// The any-order expectations of N packed vectors are those of each vector
/// alone (what nvfp4-run verifies the outputs of N vectors by).
TEST(GemvAnyOrderTest, EveryVectorIsItsOwnOneVectorProblem) {
  for (ScaleLayout layout : {ScaleLayout::Linear, ScaleLayout::Blocked128x4}) {
    GemvProblem p;
    p.m = 5;
    p.k = 64;
    p.l = 2;
    p.n = 3;
    p.layout = layout;
    p.alpha = 0.75f;
    GemvInputs in = generateGemvInputs(p, Distribution::Extreme, 7);
    std::vector<double> exact =
        gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
    std::vector<GemvExpectation> all = expectAnyOrderGemv(
        p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data(), exact);
    ASSERT_EQ(int64_t(all.size()), p.l * p.n * p.m);
    // Vector v alone: its b and its sfb (re-laid as one row).
    const int64_t cols = p.k / 16;
    std::vector<uint8_t> sfbLinear = convertScaleLayout(
        layout, ScaleLayout::Linear, in.sfb.data(), p.n, cols, p.l);
    for (int64_t v = 0; v < p.n; ++v) {
      GemvProblem one = p;
      one.n = 1;
      std::vector<uint8_t> b, sfb;
      for (int64_t l = 0; l < p.l; ++l) {
        const uint8_t *bRow = in.b.data() + (l * p.n + v) * (p.k / 2);
        b.insert(b.end(), bRow, bRow + p.k / 2);
        const uint8_t *sRow = sfbLinear.data() + (l * p.n + v) * cols;
        sfb.insert(sfb.end(), sRow, sRow + cols);
      }
      sfb = convertScaleLayout(ScaleLayout::Linear, layout, sfb.data(), 1, cols,
                               p.l);
      std::vector<double> oneExact =
          gemvExact(one, in.a.data(), in.sfa.data(), b.data(), sfb.data());
      std::vector<GemvExpectation> alone = expectAnyOrderGemv(
          one, in.a.data(), in.sfa.data(), b.data(), sfb.data(), oneExact);
      for (int64_t l = 0; l < p.l; ++l)
        for (int64_t m = 0; m < p.m; ++m) {
          const GemvExpectation &e = all[(l * p.n + v) * p.m + m];
          const GemvExpectation &o = alone[l * p.m + m];
          EXPECT_EQ(e.kind, o.kind) << l << " " << v << " " << m;
          EXPECT_TRUE(e.bound == o.bound ||
                      (std::isnan(e.bound) && std::isnan(o.bound)));
          EXPECT_EQ(e.infSign, o.infSign);
        }
    }
  }
}

} // namespace
