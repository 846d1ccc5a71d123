//===- GemvAnyOrder.cpp - What a GPU kernel's f32 GEMV may return ---------===//
//
// The CUDA-core kernels form the dot product of each unit of 16 values
// exactly, multiply it by sfa in f32 and add the product times sfb to an
// accumulator with one fma (docs/numerics.md section 11). dot * sfa is
// exact unless it overflows: the dot has at most 12 significant bits and is
// a multiple of 1/4, a scale has at most 4 bits and is at least 2^-127;
// every decode method gives the dot itself. The additions round, in an
// order each kernel chooses (threads, lanes, K slices), so the bound is that
// of summation in an arbitrary order (Higham, "Accuracy and Stability of
// Numerical Algorithms", 4.2): gamma(n-1) times the sum of |t|.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/GemvBound.h"

#include "ReferenceChecks.h"

#include "nvfp4/Support/Formats.h"

#include <algorithm>
#include <cmath>

using namespace nvfp4;
using namespace nvfp4::ref;

namespace {

constexpr double kU = 0x1p-24; // f32 unit roundoff
/// Doubles at or above this magnitude round to an f32 infinity.
constexpr double kF32Overflow = 0x1.ffffffp127;
/// f32 subnormal spacing: what an underflowing addition or product loses.
constexpr double kF32Tiny = 0x1p-149;
/// Values per unit: the granule of the kernels' dot products.
constexpr int64_t kUnit = 16;

/// Exponent of the lowest set bit of a finite nonzero double.
int lowestBitExponent(double x) {
  int e = std::ilogb(x);
  while (std::ldexp(x, -e) != std::floor(std::ldexp(x, -e)))
    --e;
  return e;
}

struct RowTerms {
  bool nan = false;
  int posInf = 0, negInf = 0; // dot * sfa beyond f32, by the term's sign
  int64_t count = 0;          // unit terms
  double sum = 0, sumAbs = 0; // over the finite terms
  int lowest = 1 << 30;       // lowest set bit over the nonzero terms
};

/// The terms of row m of batch l against vector `vec`.
RowTerms rowTerms(const GemvProblem &p, const uint8_t *a, const uint8_t *sfa,
                  const uint8_t *b, const uint8_t *sfb, int64_t l, int64_t vec,
                  int64_t m) {
  const int64_t bs = blockSize(p.format), cols = p.k / bs;
  const uint8_t *aRow = a + (l * p.m + m) * (p.k / 2);
  const uint8_t *bRow = b + l * vectorBatchBytes(p) + vec * (p.k / 2);
  const uint8_t *sfaBatch = sfa + l * scaleBatchBytes(p.layout, p.m, cols);
  const uint8_t *sfbBatch = sfb + l * vectorScaleBatchBytes(p);
  RowTerms row;
  for (int64_t kb = 0; kb < cols; ++kb) {
    double sa =
        decodeScale(p.format, sfaBatch[scaleOffset(p.layout, m, kb, cols)]);
    double sb =
        decodeScale(p.format, sfbBatch[scaleOffset(p.layout, vec, kb, cols)]);
    if (std::isnan(sa) || std::isnan(sb)) {
      row.nan = true;
      return row;
    }
    for (int64_t unit = kb * bs; unit < (kb + 1) * bs; unit += kUnit) {
      double dot = 0;
      for (int64_t j = unit / 2; j < (unit + kUnit) / 2; ++j)
        dot += formats::decodeE2M1(aRow[j] & 0xF) *
                   formats::decodeE2M1(bRow[j] & 0xF) +
               formats::decodeE2M1(aRow[j] >> 4) *
                   formats::decodeE2M1(bRow[j] >> 4);
      ++row.count;
      double partial = dot * sa; // exact in double
      bool positive = (partial > 0) == (sb > 0);
      if (std::fabs(partial) >= kF32Overflow) {
        if (sb == 0) { // inf * 0
          row.nan = true;
          return row;
        }
        ++(positive ? row.posInf : row.negInf);
        continue;
      }
      double term = partial * sb; // exact: at most 16 + 4 significant bits
      row.sum += term;
      row.sumAbs += std::fabs(term);
      if (term != 0)
        row.lowest = std::min(row.lowest, lowestBitExponent(term));
    }
  }
  return row;
}

GemvExpectation expectRow(const RowTerms &row, float alpha32, ElementType type,
                          double r) {
  using Kind = GemvExpectation::Kind;
  GemvExpectation e;
  const double alpha = alpha32;
  const bool anyInf = row.posInf || row.negInf;
  if (row.nan || (row.posInf && row.negInf) || (anyInf && alpha == 0)) {
    e.kind = Kind::NaN;
    return e;
  }
  // Any order of n additions errs by at most gamma(n-1) sum |t|, plus what
  // underflowing additions lose.
  const double n = static_cast<double>(row.count);
  const double gamma = n > 1 ? (n - 1) * kU / (1 - (n - 1) * kU) : 0;
  const double sumError = gamma * row.sumAbs + n * kF32Tiny;
  const bool partialsMayOverflow = row.sumAbs + sumError >= kF32Overflow;
  if (anyInf) {
    e.kind = partialsMayOverflow ? Kind::NonFinite : Kind::Inf;
    e.bound = -1; // once a term is infinite, no finite result is possible
    e.infSign = (row.posInf ? 1 : -1) * (alpha < 0 ? -1 : 1);
    return e;
  }
  const bool sumExact =
      row.sumAbs == 0 || row.sumAbs <= std::ldexp(1.0, 24 + row.lowest);
  const double scaled = alpha * row.sum; // exact when sumExact
  if (sumExact && !partialsMayOverflow &&
      static_cast<double>(static_cast<float>(scaled)) == scaled) {
    e.kind = Kind::Exact;
    return e;
  }
  // The sum's error scaled by alpha, the f32 rounding (or underflow) of
  // the alpha product, then the output's rounding.
  const double scaledError = std::fabs(alpha) * sumError;
  const double magnitude = std::fabs(r) + scaledError;
  e.bound =
      scaledError + 2 * kU * magnitude + kF32Tiny +
      (type == ElementType::F32 ? 0.0 : roundingHalfUlp(type, 2 * magnitude));
  e.kind = partialsMayOverflow ? Kind::NonFinite : Kind::Bounded;
  return e;
}

/// No NaN scale, no unit product near the f32 range and the sum of |block
/// terms| below 2^127: no element can leave the f32 range.
bool staysInF32Range(const GemvProblem &p, const uint8_t *sfa,
                     const uint8_t *sfb) {
  const int64_t cols = p.k / blockSize(p.format);
  auto largest = [&](const uint8_t *bytes, int64_t n) {
    double most = 0;
    for (int64_t i = 0; i < n; ++i) {
      double v = std::fabs(decodeScale(p.format, bytes[i]));
      if (std::isnan(v))
        return v;
      most = std::max(most, v);
    }
    return most;
  };
  const double maxA = largest(sfa, p.l * scaleBatchBytes(p.layout, p.m, cols));
  const double maxB = largest(sfb, p.l * vectorScaleBatchBytes(p));
  const double maxBlockDot = 36.0 * blockSize(p.format);
  // false for NaN
  return 36.0 * kUnit * maxA < 0x1p127 &&
         maxBlockDot * maxA * maxB * static_cast<double>(cols) < 0x1p127;
}

/// The analysis covers packed e2m1 vectors (each row against each vector
/// is the one-vector sum); 16-bit vectors form other terms.
void checkPacked(const GemvProblem &p) {
  if (p.vector != VectorElement::E2M1)
    detail::fatal("the any-order GEMV bound covers packed e2m1 vectors");
}

} // namespace

std::vector<GemvExpectation>
ref::expectAnyOrderGemv(const GemvProblem &p, const uint8_t *a,
                        const uint8_t *sfa, const uint8_t *b,
                        const uint8_t *sfb, const std::vector<double> &ref) {
  checkPacked(p);
  std::vector<GemvExpectation> out;
  out.reserve(p.l * p.n * p.m);
  for (int64_t l = 0; l < p.l; ++l)
    for (int64_t vec = 0; vec < p.n; ++vec)
      for (int64_t m = 0; m < p.m; ++m)
        out.push_back(expectRow(rowTerms(p, a, sfa, b, sfb, l, vec, m), p.alpha,
                                p.output, ref[(l * p.n + vec) * p.m + m]));
  return out;
}

Comparison ref::compareAnyOrderGemv(const GemvProblem &p, const uint8_t *a,
                                    const uint8_t *sfa, const uint8_t *b,
                                    const uint8_t *sfb, const uint8_t *out,
                                    const std::vector<double> &ref, double rtol,
                                    double atol, bool everyElement) {
  using Kind = GemvExpectation::Kind;
  checkPacked(p);
  if (!everyElement && staysInF32Range(p, sfa, sfb))
    return compare(p.output, out, ref, rtol, atol);
  std::vector<GemvExpectation> expect =
      expectAnyOrderGemv(p, a, sfa, b, sfb, ref);
  std::vector<uint8_t> rounded = roundOutput(p.output, ref);
  std::vector<Verdict> decided(ref.size(), Verdict::ByTolerance);
  for (size_t i = 0; i < ref.size(); ++i) {
    Kind kind = expect[i].kind;
    if (!everyElement && kind != Kind::NaN && kind != Kind::Inf &&
        kind != Kind::NonFinite)
      continue;
    bool meets =
        meetsExpectation(expect[i], p.output, readOutput(p.output, out, i),
                         ref[i], readOutput(p.output, rounded.data(), i));
    decided[i] = meets ? Verdict::Pass : Verdict::Fail;
  }
  return compare(p.output, out, ref, rtol, atol, &decided);
}
