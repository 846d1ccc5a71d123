//===- GemvAnyOrderVectorsTest.cpp - Any-order GEMV of every form ---------===//
//
// expectAnyOrderGemv for N packed vectors and for 16-bit b
// (docs/numerics.md sections 11 and 12): seeded problems evaluated as the
// kernels do, in f32 with the unit terms in a random order, must be
// accepted element by element, and an element moved beyond its bound must
// not; hand-built 16-bit rows pin the overflow, NaN, exact and rounding
// cases.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/GemvBound.h"

#include "ReferenceTestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace nvfp4::ref;
using namespace nvfp4::reftest;
using Kind = GemvExpectation::Kind;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Value of an f16 or bf16 bit pattern, from the format definitions.
double wideValue(VectorElement type, uint16_t bits) {
  if (type == VectorElement::BF16) {
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &wide, sizeof f);
    return f;
  }
  int e = (bits >> 10) & 31, m = bits & 0x3FF;
  double v = e == 31  ? (m ? kNaN : kInf)
             : e == 0 ? std::ldexp(m, -24)
                      : std::ldexp(1024 + m, e - 25);
  return (bits & 0x8000) ? -v : v;
}

uint16_t bf16Bits(double v) { // v a bf16 value
  float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<uint16_t>(bits >> 16);
}

struct Problem {
  GemvProblem p;
  GemvInputs in;

  int codeA(int64_t l, int64_t m, int64_t i) const {
    uint8_t byte = in.a[(l * p.m + m) * (p.k / 2) + i / 2];
    return i % 2 ? byte >> 4 : byte & 0xF;
  }
  double b(int64_t l, int64_t n, int64_t i) const {
    if (p.vector == VectorElement::E2M1) {
      uint8_t byte = in.b[((l * p.n + n) * p.k + i) / 2];
      return e2m1Value(i % 2 ? byte >> 4 : byte & 0xF);
    }
    const uint8_t *at = in.b.data() + ((l * p.n + n) * p.k + i) * 2;
    return wideValue(p.vector, static_cast<uint16_t>(at[0] | at[1] << 8));
  }
  double sfa(int64_t l, int64_t m, int64_t kb) const {
    const int64_t cols = p.k / bs(p.format);
    return scaleValue(p.format,
                      in.sfa[l * scaleBatchBytes(p.layout, p.m, cols) +
                             scaleOffset(p.layout, m, kb, cols)]);
  }
  double sfb(int64_t l, int64_t n, int64_t kb) const {
    const int64_t cols = p.k / bs(p.format);
    return scaleValue(p.format,
                      in.sfb[l * scaleBatchBytes(p.layout, p.n, cols) +
                             scaleOffset(p.layout, n, kb, cols)]);
  }

  std::vector<double> ref() const {
    return gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
  }
  std::vector<GemvExpectation> expect() const {
    return expectAnyOrderGemv(p, in.a.data(), in.sfa.data(), in.b.data(),
                              in.sfb.data(), ref());
  }
  Comparison compareWith(const std::vector<uint8_t> &out, bool everyElement,
                         double tol = 1e-3) const {
    return compareAnyOrderGemv(p, in.a.data(), in.sfa.data(), in.b.data(),
                               in.sfb.data(), out.data(), ref(), tol, tol,
                               everyElement);
  }

  /// The f32 term a unit adds with its fma: packed b fma(dot * sfa, sfb,
  /// acc) with the exact dot, 16-bit b fma(dot, sfa, acc) with the f32 fma
  /// chain dot.
  float unitFma(int64_t l, int64_t n, int64_t m, int64_t unit,
                float acc) const {
    const int64_t kb = unit * 16 / bs(p.format);
    const float sa = static_cast<float>(sfa(l, m, kb));
    float dot = 0;
    for (int64_t i = unit * 16; i < unit * 16 + 16; ++i) {
      float av = static_cast<float>(e2m1Value(codeA(l, m, i)));
      float bv = static_cast<float>(b(l, n, i));
      dot = std::fma(av, bv, dot); // exact for packed b
    }
    if (p.vector != VectorElement::E2M1)
      return std::fma(dot, sa, acc);
    float partial = dot * sa;
    return std::fma(partial, static_cast<float>(sfb(l, n, kb)), acc);
  }

  /// One element as a kernel evaluates it: the units in a random order
  /// over 1 to 8 accumulators, which are then added in random pairs, and
  /// the product with alpha, all in f32.
  float kernelElement(int64_t l, int64_t n, int64_t m,
                      std::mt19937_64 &rng) const {
    std::vector<int64_t> units(p.k / 16);
    for (size_t u = 0; u < units.size(); ++u)
      units[u] = static_cast<int64_t>(u);
    std::shuffle(units.begin(), units.end(), rng);
    std::vector<float> acc(1 + rng() % 8, 0.0f);
    for (int64_t u : units) {
      float &into = acc[rng() % acc.size()];
      into = unitFma(l, n, m, u, into);
    }
    while (acc.size() > 1) {
      size_t i = rng() % acc.size(), j = rng() % (acc.size() - 1);
      j += j >= i;
      float sum = acc[i] + acc[j];
      acc[std::min(i, j)] = sum;
      acc.erase(acc.begin() + std::max(i, j));
    }
    return p.alpha * acc[0];
  }

  /// One element as the tensor-core kernel may evaluate it (GemvSums::
  /// Products): the exact products a * sfa * b (* sfb), times the
  /// operands' 2^kMmaOperandExp each and flushed to zero below f32's
  /// normal range, in a random order over 1 to 16 K slices, each slice's
  /// MMAs adding 16 of them to its accumulator with one rounding toward
  /// zero (the adder the bound allows for), the slices added in f32, the
  /// operands' scaling undone, then alpha.
  float tensorCoreElement(int64_t l, int64_t n, int64_t m,
                          std::mt19937_64 &rng) const {
    std::vector<int64_t> order(p.k);
    for (int64_t i = 0; i < p.k; ++i)
      order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    const bool packed = p.vector == VectorElement::E2M1;
    const int scaleExp = kMmaOperandExp * (packed ? 2 : 1);
    std::vector<float> acc(1 + rng() % 16, 0.0f);
    const int64_t perSlice = (p.k + acc.size() - 1) / acc.size();
    for (size_t q = 0; q < acc.size(); ++q) {
      const int64_t end = std::min<int64_t>((q + 1) * perSlice, p.k);
      for (int64_t g = q * perSlice; g < end; g += 16) {
        long double sum = acc[q];
        for (int64_t j = g; j < std::min<int64_t>(g + 16, end); ++j) {
          int64_t i = order[j], kb = i / bs(p.format);
          double sb = packed ? sfb(l, n, kb) : 1.0;
          long double t = std::ldexp(e2m1Value(codeA(l, m, i)) * sfa(l, m, kb) *
                                         b(l, n, i) * sb,
                                     scaleExp);
          sum += std::fabs(t) < std::numeric_limits<float>::min() ? 0 : t;
        }
        float f = static_cast<float>(sum);
        if (std::isfinite(f) &&
            std::fabs(static_cast<long double>(f)) > std::fabs(sum))
          f = std::nextafter(f, 0.0f); // truncate
        acc[q] = f;
      }
    }
    float total = 0;
    for (float a : acc)
      total += a;
    return p.alpha * std::ldexp(total, -scaleExp);
  }

  std::vector<uint8_t> kernelOutput(std::mt19937_64 &rng,
                                    bool tensorCores = false) const {
    std::vector<double> c(p.l * p.n * p.m);
    for (int64_t l = 0; l < p.l; ++l)
      for (int64_t n = 0; n < p.n; ++n)
        for (int64_t m = 0; m < p.m; ++m)
          c[(l * p.n + n) * p.m + m] = tensorCores
                                           ? tensorCoreElement(l, n, m, rng)
                                           : kernelElement(l, n, m, rng);
    return roundOutput(p.output, c);
  }
};

void writeElement(ElementType type, std::vector<uint8_t> &out, int64_t i,
                  double v) {
  const int64_t bytes = elementBytes(type);
  std::vector<uint8_t> one = roundOutput(type, {v});
  std::memcpy(out.data() + i * bytes, one.data(), bytes);
}

/// A value of `type` that `e` rejects: one beyond the bound on either
/// side, 0, NaN or an infinity, the first that fails; NaN when `e` accepts
/// them all (an open element with a large bound).
double rejected(const GemvExpectation &e, ElementType type, double r,
                double rounded) {
  const double step = std::isnan(r) || e.bound < 0
                          ? 1.0
                          : std::max(e.bound, std::fabs(r) * 1e-2) + 1e-30;
  for (double v : {r + 2 * step, r - 2 * step, 0.0, kNaN, kInf, -kInf}) {
    double o = readOutput(type, roundOutput(type, {v}).data(), 0);
    if (!meetsExpectation(e, type, o, r, rounded))
      return o;
  }
  return kNaN;
}

struct Form {
  VectorElement vector;
  int64_t n;
};

std::string describe(const GemvProblem &p, Distribution dist, uint64_t seed) {
  return std::string(name(p.format)) + " " + name(p.layout) + " " +
         name(p.vector) + " N=" + std::to_string(p.n) + " " + name(p.output) +
         " " + name(dist) + " seed " + std::to_string(seed);
}

/// Every form, both formats and layouts, Full and Extreme inputs.
template <typename Check> void forEachProblem(Check check) {
  const Form forms[] = {{VectorElement::E2M1, 1}, {VectorElement::E2M1, 2},
                        {VectorElement::E2M1, 5}, {VectorElement::E2M1, 16},
                        {VectorElement::F16, 1},  {VectorElement::F16, 3},
                        {VectorElement::BF16, 1}, {VectorElement::BF16, 3}};
  const ElementType outputs[] = {ElementType::F32, ElementType::F16,
                                 ElementType::BF16};
  uint64_t seed = 20261201;
  for (ScaleFormat format : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
    for (ScaleLayout layout : {ScaleLayout::Linear, ScaleLayout::Blocked128x4})
      for (const Form &form : forms)
        for (Distribution dist : {Distribution::Full, Distribution::Extreme}) {
          Problem pr;
          pr.p.m = 6;
          pr.p.k = 512;
          pr.p.l = 2;
          pr.p.n = form.n;
          pr.p.format = format;
          pr.p.layout = layout;
          pr.p.vector = form.vector;
          pr.p.output = outputs[seed % 3];
          pr.p.alpha = seed % 2 ? 0.75f : 1.0f;
          ++seed;
          pr.in = generateGemvInputs(pr.p, dist, seed);
          SCOPED_TRACE(describe(pr.p, dist, seed));
          check(pr, seed);
        }
}

TEST(GemvAnyOrderVectorsTest, KernelEvaluationsMeetTheirExpectations) {
  int64_t kinds[5] = {};
  forEachProblem([&](const Problem &pr, uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (GemvExpectation e : pr.expect())
      ++kinds[static_cast<int>(e.kind)];
    for (int order = 0; order < 3; ++order) {
      std::vector<uint8_t> out = pr.kernelOutput(rng);
      Comparison all = pr.compareWith(out, /*everyElement=*/true);
      EXPECT_TRUE(all.ok())
          << "order " << order << ": element " << all.firstMismatch << ", "
          << all.nanCount << " NaN";
      if (!all.ok())
        return;
      // Without everyElement: compare's tolerances outside the special
      // elements.
      Comparison some = pr.compareWith(out, /*everyElement=*/false);
      EXPECT_TRUE(some.ok())
          << "order " << order << ": element " << some.firstMismatch
          << " max error " << some.maxAbsError;
    }
  });
  // Every kind occurs: the random inputs reach the cases the hand-built
  // rows below pin.
  for (int kind = 0; kind < 5; ++kind)
    EXPECT_GT(kinds[kind], 0) << "kind " << kind;
}

TEST(GemvAnyOrderVectorsTest, TensorCoreEvaluationsMeetTheirExpectations) {
  // The forms decode=mma takes: NVFP4, packed or 16-bit b.
  const Form forms[] = {{VectorElement::E2M1, 1},
                        {VectorElement::E2M1, 8},
                        {VectorElement::E2M1, 16},
                        {VectorElement::F16, 3},
                        {VectorElement::BF16, 3}};
  uint64_t seed = 20261202;
  for (ScaleLayout layout : {ScaleLayout::Linear, ScaleLayout::Blocked128x4})
    for (const Form &form : forms)
      for (Distribution dist : {Distribution::Full, Distribution::Extreme}) {
        Problem pr;
        pr.p.m = 6;
        pr.p.k = 1024;
        pr.p.n = form.n;
        pr.p.layout = layout;
        pr.p.vector = form.vector;
        pr.p.output = ElementType::F32;
        pr.p.alpha = 0.75f;
        pr.p.sums = GemvSums::Products;
        pr.in = generateGemvInputs(pr.p, dist, ++seed);
        SCOPED_TRACE(describe(pr.p, dist, seed));
        std::mt19937_64 rng(seed);
        std::vector<uint8_t> out = pr.kernelOutput(rng, /*tensorCores=*/true);
        Comparison all = pr.compareWith(out, /*everyElement=*/true);
        EXPECT_TRUE(all.ok()) << "element " << all.firstMismatch;
        // An element moved well beyond its bound is rejected.
        std::vector<double> ref = pr.ref();
        std::vector<GemvExpectation> expect = pr.expect();
        std::vector<uint8_t> rounded = roundOutput(pr.p.output, ref);
        double rr = readOutput(pr.p.output, rounded.data(), 0);
        double v = rejected(expect[0], pr.p.output, ref[0], rr);
        if (std::isnan(v))
          continue;
        writeElement(pr.p.output, out, 0, v);
        EXPECT_FALSE(pr.compareWith(out, /*everyElement=*/true).ok());
      }
}

TEST(GemvAnyOrderVectorsTest, ProductSumsAreExactOnlyWhenTheProductsAre) {
  // K = 32: block 0 of 1.5 x 1.5 with scales 448 x 448, block 1 of 1.5
  // against +-1.5 with scales 2^-9 x 2^-9. Block 1's dot is 0, so the unit
  // terms (36 x 448^2 and 0) sum exactly; its products (+-2.25 x 2^-18)
  // are far below what 24 bits next to block 0's products keep.
  GemvProblem p;
  p.m = 1;
  p.k = 32;
  p.output = ElementType::F32;
  GemvInputs in;
  in.a.assign(16, 0x33);          // e2m1 1.5, 1.5
  in.b.assign(8, 0x33);           // block 0: 1.5, 1.5
  in.b.resize(16, 0xB3);          // block 1: 1.5, -1.5
  in.sfa = in.sfb = {0x7E, 0x01}; // 448, 2^-9
  auto kind = [&](GemvSums sums) {
    p.sums = sums;
    std::vector<double> ref =
        gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
    return expectAnyOrderGemv(p, in.a.data(), in.sfa.data(), in.b.data(),
                              in.sfb.data(), ref)[0]
        .kind;
  };
  EXPECT_EQ(kind(GemvSums::Units), Kind::Exact);
  EXPECT_EQ(kind(GemvSums::Products), Kind::Bounded);
}

TEST(GemvAnyOrderVectorsTest, TinyProductsOfBF16ValuesMayBeFlushed) {
  // K = 16: codes 1.0, scale 1, b = 2^-125 (bf16). The sum, 2^-121, is an
  // f32, but each product is 2^-132 in the MMA (times 2^kMmaOperandExp),
  // under f32's normal range: a flushing MMA returns 0, which the products'
  // expectation accepts and the units' (the CUDA-core kernel) does not.
  GemvProblem p;
  p.m = 1;
  p.k = 16;
  p.output = ElementType::F32;
  p.vector = VectorElement::BF16;
  GemvInputs in;
  in.a.assign(8, 0x22); // e2m1 1.0, 1.0
  in.sfa = {0x38};      // e4m3 1.0
  for (int i = 0; i < 16; ++i) {
    in.b.push_back(0x00); // bf16 2^-125: exponent field 2, little-endian
    in.b.push_back(0x01);
  }
  auto acceptsZero = [&](GemvSums sums) {
    p.sums = sums;
    std::vector<double> ref =
        gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), nullptr);
    EXPECT_EQ(ref[0], std::ldexp(1.0, -121));
    GemvExpectation e = expectAnyOrderGemv(p, in.a.data(), in.sfa.data(),
                                           in.b.data(), nullptr, ref)[0];
    float rounded = static_cast<float>(ref[0]);
    return meetsExpectation(e, p.output, 0.0, ref[0], rounded);
  };
  EXPECT_TRUE(acceptsZero(GemvSums::Products));
  EXPECT_FALSE(acceptsZero(GemvSums::Units));
}

TEST(GemvAnyOrderVectorsTest, AnElementBeyondItsBoundIsRejected) {
  forEachProblem([&](const Problem &pr, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<uint8_t> out = pr.kernelOutput(rng);
    std::vector<double> ref = pr.ref();
    std::vector<uint8_t> rounded = roundOutput(pr.p.output, ref);
    std::vector<GemvExpectation> expect = pr.expect();
    // The last vector's elements, the others as the kernel gives them:
    // each vector's outputs are at their own index.
    int64_t tried = 0;
    for (int64_t l = 0; l < pr.p.l; ++l)
      for (int64_t m = 0; m < pr.p.m; ++m) {
        int64_t i = (l * pr.p.n + pr.p.n - 1) * pr.p.m + m;
        double rr = readOutput(pr.p.output, rounded.data(), i);
        double v = rejected(expect[i], pr.p.output, ref[i], rr);
        if (meetsExpectation(expect[i], pr.p.output, v, ref[i], rr))
          continue; // an open element that accepts every value tried
        std::vector<uint8_t> bad = out;
        writeElement(pr.p.output, bad, i, v);
        Comparison c = pr.compareWith(bad, /*everyElement=*/true);
        EXPECT_FALSE(c.ok()) << "element " << i << " set to " << v;
        EXPECT_EQ(c.firstMismatch, i);
        ++tried;
      }
    EXPECT_GT(tried, 0);
  });
}

/// One row of K = 16 (one unit), NVFP4, f32 output, against a bf16 vector.
struct WideRow {
  Problem pr;

  WideRow(const std::vector<double> &aValues, const std::vector<double> &b,
          uint8_t sfa = 0x38, int64_t k = 16) { // e4m3 0x38: 1
    GemvProblem &p = pr.p;
    p.m = 1;
    p.k = k;
    p.output = ElementType::F32;
    p.vector = VectorElement::BF16;
    pr.in.a.assign(k / 2, 0);
    for (size_t i = 0; i < aValues.size(); ++i) {
      int code = 0;
      while (e2m1Value(code) != aValues[i])
        ++code;
      pr.in.a[i / 2] |= static_cast<uint8_t>(i % 2 ? code << 4 : code);
    }
    pr.in.sfa.assign(k / 16, sfa);
    pr.in.b.assign(2 * k, 0);
    for (size_t i = 0; i < b.size(); ++i) {
      uint16_t bits = bf16Bits(b[i]);
      pr.in.b[2 * i] = static_cast<uint8_t>(bits);
      pr.in.b[2 * i + 1] = static_cast<uint8_t>(bits >> 8);
    }
  }
  GemvExpectation expect() const { return pr.expect()[0]; }
  bool accepts(double o) const {
    return pr.compareWith(roundOutput(ElementType::F32, {o}), true, 0).ok();
  }
  /// The kernel's result with the units in k order.
  double kernel() const {
    float acc = 0;
    for (int64_t u = 0; u < pr.p.k / 16; ++u)
      acc = pr.unitFma(0, 0, 0, u, acc);
    return acc;
  }
};

const double kBF16Max = std::ldexp(255.0, 120); // 0x7F7F

TEST(GemvAnyOrderVectorsTest, OverflowingProductsOfOneSignGiveInf) {
  // 6 * bf16 max is beyond f32, although sfa = 2^-9 brings the term back:
  // the f32 unit dot is +inf, the float64 reference finite.
  WideRow row({6, 6}, {kBF16Max, kBF16Max}, 0x01);
  EXPECT_TRUE(std::isfinite(row.pr.ref()[0]));
  EXPECT_EQ(row.kernel(), kInf);
  GemvExpectation e = row.expect();
  EXPECT_EQ(e.kind, Kind::Inf);
  EXPECT_EQ(e.infSign, 1);
  EXPECT_TRUE(row.accepts(kInf));
  EXPECT_FALSE(row.accepts(-kInf));
  EXPECT_FALSE(row.accepts(row.pr.ref()[0]));
  EXPECT_FALSE(row.accepts(kNaN));
  // Also without everyElement: the values of b, not only the scales, rule
  // out plain compare().
  EXPECT_TRUE(
      row.pr.compareWith(roundOutput(ElementType::F32, {kInf}), false).ok());
  // A negative scale turns the sign.
  EXPECT_EQ(WideRow({6, 6}, {kBF16Max, kBF16Max}, 0x81).expect().infSign, -1);
}

TEST(GemvAnyOrderVectorsTest, OverflowingProductsOfBothSignsAreOpen) {
  // -+6 * bf16 max: the chain gives -inf, another order NaN (or, for
  // a dot formed otherwise, 0); the reference is 0.
  WideRow row({-6, 6}, {kBF16Max, kBF16Max}, 0x01);
  EXPECT_EQ(row.pr.ref()[0], 0.0);
  EXPECT_EQ(row.kernel(), -kInf);
  EXPECT_EQ(row.expect().kind, Kind::NonFinite);
  EXPECT_TRUE(row.accepts(kNaN));
  EXPECT_TRUE(row.accepts(kInf));
  EXPECT_TRUE(row.accepts(0.0));
  // Products of both signs whose unit sum may overflow: open, although
  // this chain gives +inf.
  WideRow near({1, 1, -0.5}, {kBF16Max, kBF16Max, 1.0}, 0x01);
  EXPECT_EQ(near.expect().kind, Kind::NonFinite);
  EXPECT_TRUE(near.accepts(near.kernel()));
}

TEST(GemvAnyOrderVectorsTest, NaNAndInfiniteValues) {
  const double nan = kNaN;
  WideRow row({1, 1}, {1.0, nan});
  EXPECT_EQ(row.expect().kind, Kind::NaN);
  EXPECT_TRUE(row.accepts(kNaN));
  EXPECT_FALSE(row.accepts(1.0));
  // NaN even where a is 0: fma(0, NaN, acc).
  EXPECT_EQ(WideRow({1, 0}, {1.0, nan}).expect().kind, Kind::NaN);
  // An infinite value times a nonzero a is that infinity, times 0 NaN.
  EXPECT_EQ(WideRow({1, -2}, {1.0, kInf}).expect().kind, Kind::Inf);
  EXPECT_EQ(WideRow({1, -2}, {1.0, kInf}).expect().infSign, -1);
  EXPECT_EQ(WideRow({1, 0}, {1.0, kInf}).expect().kind, Kind::NaN);
  EXPECT_EQ(WideRow({1, 1}, {kInf, -kInf}).expect().kind, Kind::NaN);
  // ... and a zero scale makes NaN of an infinite dot.
  EXPECT_EQ(WideRow({6, 6}, {kBF16Max, kBF16Max}, 0x00).expect().kind,
            Kind::NaN);
}

TEST(GemvAnyOrderVectorsTest, SmallIntegersAreExact) {
  WideRow row({1, 2, -3, 4, 6}, {3, 5, 7, 9, 11}, 0x40, 32); // sfa 2
  EXPECT_EQ(row.pr.ref()[0], 2.0 * (3 + 10 - 21 + 36 + 66));
  EXPECT_EQ(row.expect().kind, Kind::Exact);
  EXPECT_TRUE(row.accepts(row.kernel()));
  EXPECT_FALSE(row.accepts(row.pr.ref()[0] + 1));
}

TEST(GemvAnyOrderVectorsTest, RoundingUnitSumsAreBounded) {
  // 6 * 2^20 twice reaches 2^23, where f32 steps by 1: the fourteen
  // products 0.5 after them are lost one by one (ties to even), while in
  // another order they add up exactly.
  std::vector<double> a = {6, 6}, b = {0x1p20, 0x1p20};
  a.resize(16, 0.5);
  b.resize(16, 1.0);
  WideRow row(a, b);
  const double exact = 12 * 0x1p20 + 7;
  EXPECT_EQ(row.pr.ref()[0], exact);
  EXPECT_EQ(row.kernel(), 12 * 0x1p20);
  GemvExpectation e = row.expect();
  ASSERT_EQ(e.kind, Kind::Bounded);
  EXPECT_GE(e.bound, 7.0);
  EXPECT_TRUE(row.accepts(row.kernel()));
  EXPECT_TRUE(row.accepts(exact));
  EXPECT_FALSE(row.accepts(exact + 2 * e.bound));
}

TEST(GemvAnyOrderVectorsTest, TheReferenceRoundsToo) {
  // The reference adds 1 + 2^100 - 2^100 in k order and gets 0; the
  // kernel's units give 1 and 0, exactly: the row is not Exact (round(r)
  // bit for bit would reject the kernel), and both are within the bound.
  std::vector<double> b(32, 0.0);
  b[0] = 1;
  b[16] = 0x1p100;
  b[17] = -0x1p100;
  WideRow row({1}, b, 0x38, 32);
  row.pr.in.a[8] = 0x22; // a = 1 for values 16 and 17
  EXPECT_EQ(row.pr.ref()[0], 0.0);
  EXPECT_EQ(row.kernel(), 1.0);
  GemvExpectation e = row.expect();
  ASSERT_EQ(e.kind, Kind::Bounded);
  EXPECT_TRUE(row.accepts(1.0));
  EXPECT_TRUE(row.accepts(0.0));
  EXPECT_FALSE(row.accepts(2 * e.bound));
}

} // namespace
