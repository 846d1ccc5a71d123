//===- GemvBound.cpp - What an f32 GEMV may return ------------------------===//
//
// The error analysis is the standard one for recursive summation (Higham,
// "Accuracy and Stability of Numerical Algorithms", 4.2) applied step by
// step with the f32 unit roundoff u = 2^-24; docs/numerics.md section 10
// states it.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/GemvBound.h"

#include "nvfp4/Support/Formats.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace nvfp4;
using namespace nvfp4::ref;

namespace {

constexpr double kU = 0x1p-24;    // f32 unit roundoff
constexpr double kEta = 0x1p-150; // f32: half the smallest subnormal
/// Sums at or above this may overflow f32 (2^128 rounds to inf); a margin
/// of one binade keeps the test simple.
constexpr double kF32Large = 0x1p127;

bool isF32(double x) {
  return std::isfinite(x) && static_cast<double>(static_cast<float>(x)) == x;
}

/// a + b and the exact error of that double addition (Knuth's TwoSum).
double twoSum(double a, double b, double &error) {
  double s = a + b;
  double bb = s - a;
  error = (a - (s - bb)) + (b - bb);
  return s;
}

/// `x` rounded to `type` and read back.
double roundTo(ElementType type, double x) {
  return readOutput(type, roundOutput(type, {x}).data(), 0);
}

} // namespace

double ref::roundingHalfUlp(ElementType type, double x) {
  int mantissa = 23, minExp = -126, maxExp = 127;
  if (type == ElementType::F16) {
    mantissa = 10;
    minExp = -14;
    maxExp = 15;
  } else if (type == ElementType::BF16) {
    mantissa = 7;
  }
  if (std::isnan(x))
    return 0;
  int e = (x == 0 || !std::isfinite(x)) ? (x == 0 ? minExp : maxExp)
                                        : std::ilogb(x);
  e = std::clamp(e, minExp, maxExp);
  return std::ldexp(1.0, e - mantissa - 1);
}

namespace {

/// Follows one row's f32 sum term by term against the exact sum.
class RowSumTracker {
public:
  explicit RowSumTracker(GemvRowSum &s) : s(s) {}

  /// Adds the exact term `term` and the f32 term the lowering computes for
  /// it (+-inf where that overflows).
  void add(double term, double f32Term) {
    double error;
    s.sum = twoSum(s.sum, term, error);
    s.sumError += std::fabs(error);
    if (std::isinf(f32Term)) {
      ++(f32Term > 0 ? s.posInf : s.negInf);
      return;
    }
    termError += std::fabs(f32Term - term);
    hat = twoSum(hat, f32Term, error);
    hatError += std::fabs(error);
    // This f32 addition is exact when everything before it was and its
    // exact result is an f32; otherwise it errs by at most u |result|.
    if (exact && hatError == 0 && isF32(hat))
      return;
    exact = false;
    s.f32Error += kU * (std::fabs(hat) + hatError + s.f32Error);
    s.largest = std::max(s.largest, std::fabs(hat) + hatError + s.f32Error);
  }

  void finish() {
    s.largest = std::max(s.largest, std::fabs(hat) + hatError);
    // The f32 sum against the exact sum; the slack covers the rounding of
    // termError's own sum.
    s.f32Error += hatError + termError * (1 + 0x1p-50);
  }

private:
  GemvRowSum &s;
  // `hat`: the double sum of the f32 terms; `termError`: how far those
  // terms are from the exact ones.
  double hat = 0, hatError = 0, termError = 0;
  bool exact = true;
};

/// The f32 block term of packed b: the scale product and dot * product
/// each rounded to f32 (a product of an f32 and dot is exact in double
/// first). A zero dot adds zero even when the scale product overflows.
double packedF32Term(double scale, double dot) {
  if (dot == 0)
    return 0;
  float scale32 = static_cast<float>(scale);
  if (std::isinf(scale32))
    return std::copysign(HUGE_VAL, scale * dot);
  return static_cast<float>(static_cast<double>(scale32) * dot);
}

} // namespace

std::vector<GemvRowSum>
ref::analyzeGemvSums(const GemvProblem &p, const uint8_t *a, const uint8_t *sfa,
                     const uint8_t *b, const uint8_t *sfb) {
  const int64_t bs = blockSize(p.format), cols = p.k / bs;
  const int64_t rowBytes = p.k / 2;
  const int64_t sfaBatch = scaleBatchBytes(p.layout, p.m, cols);
  const int64_t bBatch = vectorBatchBytes(p);
  const int64_t sfbBatch = vectorScaleBatchBytes(p);
  const bool packed = p.vector == VectorElement::E2M1;
  std::vector<GemvRowSum> sums(p.l * p.n * p.m);
  for (int64_t l = 0; l < p.l; ++l) {
    const uint8_t *bData = b + l * bBatch;
    for (int64_t n = 0; n < p.n; ++n) {
      for (int64_t m = 0; m < p.m; ++m) {
        const uint8_t *aRow = a + (l * p.m + m) * rowBytes;
        GemvRowSum &s = sums[(l * p.n + n) * p.m + m];
        RowSumTracker row(s);
        for (int64_t kb = 0; kb < cols && !s.nan; ++kb) {
          double sa = decodeScale(
              p.format, sfa[l * sfaBatch + scaleOffset(p.layout, m, kb, cols)]);
          if (!packed) {
            // Value by value: f32 (a * b) * sfa, a * b exact unless it
            // overflows; the exact term sfa * a * b is exact in double.
            for (int64_t i = kb * bs; i < (kb + 1) * bs && !s.nan; ++i) {
              double av = formats::decodeE2M1(e2m1Code(aRow, i));
              double bv = vectorValue(p, bData, n, i);
              float f32 = static_cast<float>(av) * static_cast<float>(bv) *
                          static_cast<float>(sa);
              if (std::isnan(sa) || std::isnan(bv) || std::isnan(f32)) {
                s.nan = true; // also 0 * inf: NaN in f32, not in the sum
                break;
              }
              row.add(sa * av * bv, f32);
            }
            continue;
          }
          double sb = decodeScale(
              p.format, sfb[l * sfbBatch + scaleOffset(p.layout, n, kb, cols)]);
          const uint8_t *bRow = bData + n * rowBytes;
          double dot = 0;
          for (int64_t j = kb * bs / 2; j < (kb + 1) * bs / 2; ++j)
            dot += formats::decodeE2M1(aRow[j] & 0xF) *
                       formats::decodeE2M1(bRow[j] & 0xF) +
                   formats::decodeE2M1(aRow[j] >> 4) *
                       formats::decodeE2M1(bRow[j] >> 4);
          if (std::isnan(sa) || std::isnan(sb)) {
            s.nan = true;
            break;
          }
          // Exact in double: scales have at most 4 significant bits, dot 11.
          double scale = sa * sb;
          row.add(scale * dot, packedF32Term(scale, dot));
        }
        row.finish();
      }
    }
  }
  return sums;
}

GemvExpectation ref::expectGemvElement(const GemvRowSum &s, float alpha32,
                                       ElementType type, double r) {
  GemvExpectation e;
  const double alpha = alpha32;
  if (s.nan || std::isnan(r) || (s.posInf && s.negInf)) {
    e.kind = GemvExpectation::Kind::NaN; // NaN scale, or inf - inf
    return e;
  }
  if (s.posInf || s.negInf) {
    if (s.largest >= kF32Large || alpha == 0) {
      e.kind = GemvExpectation::Kind::NonFinite;
      return e;
    }
    e.kind = GemvExpectation::Kind::Inf;
    e.infSign = (s.posInf ? 1 : -1) * (alpha < 0 ? -1 : 1);
    return e;
  }
  // r = fl64(alpha * sum): the rounding of that product.
  const double refError = std::fabs(std::fma(alpha, s.sum, -r));
  const double f32Error = s.f32Error + s.sumError;
  // f32 result of alpha * (f32 sum), against r: the sum's error scaled, the
  // rounding of the product (u relative, or an underflow) and r's own.
  const double magnitude = std::fabs(alpha) * (std::fabs(s.sum) + f32Error);
  const double scaled =
      std::fabs(alpha) * f32Error + kU * magnitude + kEta + refError;
  if (f32Error == 0 && refError == 0 && isF32(r)) {
    e.kind = GemvExpectation::Kind::Exact;
    return e;
  }
  e.bound = scaled + (type == ElementType::F32
                          ? 0.0
                          : roundingHalfUlp(type, std::fabs(r) + scaled));
  e.kind = s.largest >= kF32Large || magnitude + scaled >= kF32Large
               ? GemvExpectation::Kind::NonFinite
               : GemvExpectation::Kind::Bounded;
  return e;
}

bool ref::meetsExpectation(const GemvExpectation &e, ElementType type, double o,
                           double r, double rounded) {
  switch (e.kind) {
  case GemvExpectation::Kind::Exact:
    return o == rounded; // false for NaN
  case GemvExpectation::Kind::NaN:
    return std::isnan(o);
  case GemvExpectation::Kind::Inf:
    return std::isinf(o) && (o > 0) == (e.infSign > 0);
  case GemvExpectation::Kind::NonFinite:
    return !std::isfinite(o) || std::fabs(o - r) <= e.bound;
  case GemvExpectation::Kind::Bounded:
    if (std::isnan(o))
      return false;
    if (std::isinf(o)) // only where r +- bound rounds to that infinity
      return roundTo(type, r + std::copysign(e.bound, o)) == o;
    return std::fabs(o - r) <= e.bound;
  }
  return false;
}

GemvBoundCheck ref::checkGemvBound(const GemvProblem &p,
                                   const std::vector<GemvRowSum> &sums,
                                   const uint8_t *out,
                                   const std::vector<double> &ref) {
  GemvBoundCheck check;
  std::vector<uint8_t> rounded = roundOutput(p.output, ref);
  for (size_t i = 0; i < ref.size(); ++i) {
    double o = readOutput(p.output, out, i);
    double rr = readOutput(p.output, rounded.data(), i);
    GemvExpectation e = expectGemvElement(sums[i], p.alpha, p.output, ref[i]);
    switch (e.kind) {
    case GemvExpectation::Kind::Exact:
      ++check.exact;
      break;
    case GemvExpectation::Kind::Bounded:
      ++check.bounded;
      if (std::isfinite(o) && e.bound > 0)
        check.worst = std::max(check.worst, std::fabs(o - ref[i]) / e.bound);
      break;
    default:
      ++check.special;
    }
    if (meetsExpectation(e, p.output, o, ref[i], rr))
      continue;
    if (check.first < 0)
      check.first = static_cast<int64_t>(i);
    ++check.failures;
  }
  return check;
}
