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
// Numerical Algorithms", 4.2): gamma(d) times the sum of |t|, d the most
// roundings on one term's way to the sum (n - 1 for n unit terms).
//
// Each of N packed vectors is evaluated the same way. With 16-bit b
// (docs/numerics.md section 12) a unit's dot is an f32 fma chain over the
// exact products a * b, which rounds, and fma(dot, sfa, acc) adds it: the
// terms are the K products times sfa, each through at most 15 roundings in
// its unit and one per unit outside, and a unit's sums may overflow f32
// even where its term dot * sfa would not.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/GemvBound.h"

#include "ReferenceChecks.h"

#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/ParallelFor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

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

/// gamma(d) = d u / (1 - d u): the relative error of d rounded steps.
double gamma(double d) { return d * kU / (1 - d * kU); }

/// Exponent of the lowest set bit of a finite nonzero double.
int lowestBitExponent(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const int biased = static_cast<int>(bits >> 52 & 0x7FF);
  uint64_t significand = bits & ((uint64_t{1} << 52) - 1);
  if (biased) // normal: the implicit bit
    significand |= uint64_t{1} << 52;
  return std::max(biased, 1) - 1075 + __builtin_ctzll(significand);
}

/// lowestBitExponent, or kNoBit for 0: a sum of two of these that
/// involves a zero stays above kNoBit / 2, far above any exponent.
constexpr int kNoBit = 1 << 20;
int lowestBitOrNone(double x) { return x == 0 ? kNoBit : lowestBitExponent(x); }

/// Whether every partial sum of values that are multiples of 2^lowest, of
/// sum |value| `sumAbs`, is an f32 (no rounding, no underflow).
bool sumsExactInF32(double sumAbs, int lowest) {
  return sumAbs == 0 || (std::ldexp(1.0, lowest) >= kF32Tiny &&
                         sumAbs <= std::ldexp(1.0, 24 + lowest));
}

struct RowTerms {
  bool nan = false;
  bool mayOverflow = false;   // a 16-bit unit's dot may overflow f32
  int posInf = 0, negInf = 0; // terms that certainly overflow, by sign
  double depth = 0;           // roundings on the path of one term to the sum
  double underflows = 0;      // roundings that may underflow
  double flushAbs = 0;        // sum |t| over terms a kernel may flush to zero
  double sum = 0;             // exact sum of the finite terms (when exact)
  double sumAbs = 0;          // sum |t| over the finite terms (the bound)
  double unitAbs = 0;         // sum |unit term| (16-bit b: dot * sfa)
  int lowest = 1 << 30;       // lowest set bit over the nonzero unit terms
  bool unitsExact = true;     // every unit dot exact in f32
  double refSum = 0, refError = 0; // gemvExact's double sum and its error

  void addUnit(double term) {
    sum += term;
    unitAbs += std::fabs(term);
    if (term != 0)
      lowest = std::min(lowest, lowestBitExponent(term));
  }
  /// One term of gemvExact's sum, in its order.
  void addReference(double term) {
    double s = refSum + term, bb = s - refSum;
    refError += std::fabs((refSum - (s - bb)) + (term - bb)); // TwoSum
    refSum = s;
  }
};

/// What the rows of a batch read alike, decoded once rather than per row:
/// the 16 e2m1 values, the 256 scale values, every vector of b and (packed
/// b) its scales.
struct SharedOperands {
  double codes[16];
  std::array<double, 256> scales;
  std::vector<double> b;   // [(l * N + n) * K + i]
  std::vector<double> sfb; // [(l * N + n) * cols + kb], packed b only
  // Lowest set bits of the codes' and (packed) b's values, kNoBit for 0.
  int codeLowest[16];
  std::vector<int> bLowest;

  SharedOperands(const GemvProblem &p, const uint8_t *bBytes,
                 const uint8_t *sfbBytes)
      : scales(detail::scaleValues(p.format)) {
    for (int c = 0; c < 16; ++c) {
      codes[c] = formats::decodeE2M1(c);
      codeLowest[c] = lowestBitOrNone(codes[c]);
    }
    const int64_t cols = p.k / blockSize(p.format);
    const bool packed = p.vector == VectorElement::E2M1;
    b.resize(p.l * p.n * p.k);
    if (packed) {
      sfb.resize(p.l * p.n * cols);
      bLowest.resize(b.size());
    }
    for (int64_t l = 0; l < p.l; ++l) {
      for (int64_t n = 0; n < p.n; ++n) {
        const int64_t vec = l * p.n + n;
        for (int64_t i = 0; i < p.k; ++i)
          b[vec * p.k + i] =
              vectorValue(p, bBytes + l * vectorBatchBytes(p), n, i);
        if (!packed)
          continue;
        for (int64_t i = 0; i < p.k; ++i)
          bLowest[vec * p.k + i] = lowestBitOrNone(b[vec * p.k + i]);
        const uint8_t *batch = sfbBytes + l * vectorScaleBatchBytes(p);
        for (int64_t kb = 0; kb < cols; ++kb)
          sfb[vec * cols + kb] =
              scales[batch[scaleOffset(p.layout, n, kb, cols)]];
      }
    }
  }
};

/// The operands of one output element (batch l, vector n, row m).
struct Element {
  const GemvProblem &p;
  const double *codes, *scales, *bValues, *sfbValues;
  const int *codeLowest, *bLowest;
  const uint8_t *aRow, *sfaBatch;
  int64_t m, cols;

  Element(const GemvProblem &p, const SharedOperands &shared, const uint8_t *a,
          const uint8_t *sfa, int64_t l, int64_t n, int64_t m)
      : p(p), codes(shared.codes), scales(shared.scales.data()),
        codeLowest(shared.codeLowest), m(m), cols(p.k / blockSize(p.format)) {
    const int64_t vec = l * p.n + n;
    bValues = shared.b.data() + vec * p.k;
    bLowest =
        shared.bLowest.empty() ? nullptr : shared.bLowest.data() + vec * p.k;
    sfbValues = shared.sfb.empty() ? nullptr : shared.sfb.data() + vec * cols;
    aRow = a + (l * p.m + m) * (p.k / 2);
    sfaBatch = sfa + l * scaleBatchBytes(p.layout, p.m, cols);
  }
  uint8_t code(int64_t i) const { return e2m1Code(aRow, i); }
  double a(int64_t i) const { return codes[code(i)]; }
  double b(int64_t i) const { return bValues[i]; }
  double sfa(int64_t kb) const {
    return scales[sfaBatch[scaleOffset(p.layout, m, kb, cols)]];
  }
  double sfb(int64_t kb) const { return sfbValues[kb]; }
};

/// Packed b: unit terms dot * sfa * sfb, the product dot * sfa in f32.
RowTerms packedTerms(const Element &x) {
  const int64_t bs = blockSize(x.p.format);
  RowTerms row;
  for (int64_t kb = 0; kb < x.cols; ++kb) {
    double sa = x.sfa(kb), sb = x.sfb(kb);
    if (std::isnan(sa) || std::isnan(sb)) {
      row.nan = true;
      return row;
    }
    double block = 0; // gemvExact's term: exact in double
    for (int64_t unit = kb * bs; unit < (kb + 1) * bs; unit += kUnit) {
      double dot = 0;
      for (int64_t i = unit; i < unit + kUnit; ++i)
        dot += x.a(i) * x.b(i);
      block += dot * sa * sb;
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
      row.addUnit(term);
      row.sumAbs += std::fabs(term);
    }
    row.addReference(block);
  }
  // The first fma of an accumulator gives its term exactly (or
  // underflows); the others, and the sums of accumulators, round a sum.
  const double units = static_cast<double>(x.p.k / kUnit);
  row.depth = units - 1;
  row.underflows = units;
  return row;
}

/// 16-bit b: per unit an f32 fma chain over the products a * b from 0,
/// then fma(dot, sfa, acc).
RowTerms wideTerms(const Element &x) {
  const int64_t bs = blockSize(x.p.format);
  // A product a * b is exact (2 and at most 11 significant bits, a multiple
  // of 2^-134), so a unit's sums round only above the subnormal range.
  // gamma(kUnit) rather than gamma(kUnit - 1) for a unit's dot: the spare u
  // also covers the double rounding of the sums below.
  const double unitError = gamma(kUnit);
  RowTerms row;
  for (int64_t kb = 0; kb < x.cols; ++kb) {
    double sa = x.sfa(kb);
    if (std::isnan(sa)) {
      row.nan = true;
      return row;
    }
    for (int64_t unit = kb * bs; unit < (kb + 1) * bs; unit += kUnit) {
      double dot = 0, dotAbs = 0;
      int lowest = 1 << 30;
      bool pos = false, neg = false, posInf = false, negInf = false;
      for (int64_t i = unit; i < unit + kUnit; ++i) {
        double av = x.a(i), bv = x.b(i);
        if (std::isnan(bv) || (std::isinf(bv) && av == 0)) {
          row.nan = true; // fma(a, NaN, acc), fma(0, inf, acc)
          return row;
        }
        double prod = av * bv; // exact in double
        if (std::isinf(prod)) {
          (prod > 0 ? posInf : negInf) = true;
          continue;
        }
        row.addReference(sa * prod);
        dot += prod;
        dotAbs += std::fabs(prod);
        if (prod != 0) {
          lowest = std::min(lowest, lowestBitExponent(prod));
          (prod > 0 ? pos : neg) = true;
        }
      }
      // The finite products count towards the bound in any case: a finite
      // result of a unit that may overflow includes them.
      row.sumAbs += dotAbs * std::fabs(sa);
      // The partial sums of the unit reach at most dotAbs (1 + unitError).
      const bool dotMayOverflow = dotAbs * (1 + unitError) >= kF32Overflow;
      int infSign = 0; // the unit's dot certainly overflows, with this sign
      if (posInf && negInf) {
        row.nan = true; // inf - inf inside the unit
        return row;
      }
      if (posInf || negInf) {
        if (dotMayOverflow)
          row.mayOverflow = true; // the finite part may give the other sign
        infSign = posInf ? 1 : -1;
      } else if (dotMayOverflow) {
        // One sign only: every partial sum grows, the last one to at
        // least dotAbs (1 - unitError).
        if (pos != neg && dotAbs * (1 - unitError) >= kF32Overflow)
          infSign = pos ? 1 : -1;
        else
          row.mayOverflow = true;
      }
      if (infSign) {
        if (sa == 0) { // fma(inf, 0, acc)
          row.nan = true;
          return row;
        }
        ++((infSign > 0) == (sa > 0) ? row.posInf : row.negInf);
      } else if (!dotMayOverflow) {
        // Exact in f32 when every inner partial sum is an f32; then
        // dot * sfa is exact in double (at most 24 + 4 bits).
        if (!sumsExactInF32(dotAbs, lowest))
          row.unitsExact = false;
        row.addUnit(dot * sa);
      }
    }
  }
  // A product passes through at most kUnit - 1 sums in its unit, the
  // rounding of its unit's fma (of dot * sfa, or of that plus acc) and the
  // sums of the units; the fmas may underflow, the sums of f32 values and
  // of products do not lose anything there.
  const double units = static_cast<double>(x.p.k / kUnit);
  row.depth = (kUnit - 1) + units;
  row.underflows = units;
  return row;
}

/// The tensor-core kernel: each product a * sfa * b (* sfb) exact (its
/// f16 operands hold a * sfa and b * sfb exactly), summed by MMAs of 16
/// products into f32 accumulators, then across K slices.
RowTerms productTerms(const Element &x) {
  const int64_t bs = blockSize(x.p.format);
  const bool packed = x.p.vector == VectorElement::E2M1;
  RowTerms row;
  for (int64_t kb = 0; kb < x.cols; ++kb) {
    double sa = x.sfa(kb), sb = packed ? x.sfb(kb) : 1.0;
    if (std::isnan(sa) || std::isnan(sb)) {
      row.nan = true;
      return row;
    }
    if (packed) {
      // Finite e2m1 values and scales: no term overflows a double, each is
      // exact in any order of its factors, and its lowest set bit is the
      // sum of theirs (odd significands multiply to an odd one).
      const double scale = sa * sb;
      double block = 0; // gemvExact's term
      int blockLowest = kNoBit;
      for (int64_t i = kb * bs; i < (kb + 1) * bs; ++i) {
        const uint8_t c = x.code(i);
        const double term = x.codes[c] * x.b(i) * scale;
        block += term;
        row.sum += term;
        row.unitAbs += std::fabs(term);
        row.sumAbs += std::fabs(term);
        blockLowest = std::min(blockLowest, x.codeLowest[c] + x.bLowest[i]);
      }
      if (scale != 0 && blockLowest < kNoBit / 2) // a nonzero product
        row.lowest = std::min(row.lowest, blockLowest + lowestBitExponent(sa) +
                                              lowestBitExponent(sb));
      row.addReference(block);
      continue;
    }
    for (int64_t i = kb * bs; i < (kb + 1) * bs; ++i) {
      double as = x.a(i) * sa, bv = x.b(i);
      if (std::isnan(bv) || (std::isinf(bv) && as == 0)) {
        row.nan = true;
        return row;
      }
      double term = as * bv * sb; // exact: at most 6 + 11 + 4 bits
      if (std::isinf(term)) {
        ++(term > 0 ? row.posInf : row.negInf);
        continue;
      }
      row.addReference(term);
      row.addUnit(term);
      row.sumAbs += std::fabs(term);
      // In the MMA a product is t x 2^kMmaOperandExp; under f32's normal
      // range (bf16 b reaches it) the hardware may flush it to zero.
      if (std::ldexp(std::fabs(term), kMmaOperandExp) <
          std::numeric_limits<float>::min())
        row.flushAbs += std::fabs(term);
    }
  }
  // A product meets the roundings of its MMA's sum (the hardware's order
  // and rounding are unspecified: counted twice, as for a truncating
  // adder), of each later MMA into the same accumulator and of at most 16
  // K slices. No rounding underflows: products of packed or f16 b are
  // multiples of 2^-34 (2^-48 and 2^-41 in the MMA); bf16 b's smaller
  // ones count whole in flushAbs.
  const double mmas = static_cast<double>(x.p.k / kUnit);
  row.depth = 2 * (mmas + 16);
  row.underflows = 0;
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
  // A term's `depth` roundings err by at most gamma(depth) of |t|, plus
  // what underflowing operations lose.
  const double sumError =
      gamma(row.depth) * row.sumAbs + row.underflows * kF32Tiny + row.flushAbs;
  const bool partialsMayOverflow =
      row.mayOverflow || row.sumAbs + sumError >= kF32Overflow;
  if (anyInf) {
    e.kind = partialsMayOverflow ? Kind::NonFinite : Kind::Inf;
    e.bound = -1; // once a term is infinite, no finite result is possible
    e.infSign = (row.posInf ? 1 : -1) * (alpha < 0 ? -1 : 1);
    return e;
  }
  const bool sumExact = row.unitsExact && row.refError == 0 &&
                        row.flushAbs == 0 &&
                        sumsExactInF32(row.unitAbs, row.lowest);
  const double scaled = alpha * row.sum; // exact when sumExact
  if (sumExact && !partialsMayOverflow &&
      static_cast<double>(static_cast<float>(scaled)) == scaled) {
    e.kind = Kind::Exact;
    return e;
  }
  // The sum's error (and the reference's) scaled by alpha, the f32 rounding
  // (or underflow) of the alpha product, then the output's rounding.
  const double scaledError = std::fabs(alpha) * (sumError + row.refError);
  const double magnitude = std::fabs(r) + scaledError;
  e.bound =
      scaledError + 2 * kU * magnitude + kF32Tiny +
      (type == ElementType::F32 ? 0.0 : roundingHalfUlp(type, 2 * magnitude));
  e.kind = partialsMayOverflow ? Kind::NonFinite : Kind::Bounded;
  return e;
}

/// No NaN scale or value, no unit dot or dot * sfa near the f32 range and
/// the sum of |block terms| below 2^127: no element can leave the f32 range.
bool staysInF32Range(const GemvProblem &p, const uint8_t *sfa, const uint8_t *b,
                     const uint8_t *sfb) {
  const int64_t cols = p.k / blockSize(p.format);
  auto largest = [](int64_t n, auto value) {
    double most = 0;
    for (int64_t i = 0; i < n; ++i) {
      double v = std::fabs(value(i));
      if (std::isnan(v))
        return v;
      most = std::max(most, v);
    }
    return most;
  };
  auto scales = [&](const uint8_t *bytes, int64_t n) {
    return largest(n,
                   [&](int64_t i) { return decodeScale(p.format, bytes[i]); });
  };
  const double maxA = scales(sfa, p.l * scaleBatchBytes(p.layout, p.m, cols));
  double maxUnitDot = 36.0 * kUnit, maxB = 1; // sfb: 1 for 16-bit b
  if (p.vector == VectorElement::E2M1) {
    maxB = scales(sfb, p.l * vectorScaleBatchBytes(p));
  } else {
    maxUnitDot = 6.0 * kUnit * largest(p.l * p.n * p.k, [&](int64_t i) {
                   int64_t vec = i / p.k; // over all batches
                   return vectorValue(p, b + vec / p.n * vectorBatchBytes(p),
                                      vec % p.n, i % p.k);
                 });
  }
  const double maxBlockDot = maxUnitDot * (blockSize(p.format) / kUnit);
  // false for NaN
  return maxUnitDot < 0x1p127 && maxUnitDot * maxA < 0x1p127 &&
         maxBlockDot * maxA * maxB * static_cast<double>(cols) < 0x1p127;
}

} // namespace

std::vector<GemvExpectation>
ref::expectAnyOrderGemv(const GemvProblem &p, const uint8_t *a,
                        const uint8_t *sfa, const uint8_t *b,
                        const uint8_t *sfb, const std::vector<double> &ref) {
  detail::checkGemvShape(p);
  // out[(l * N + n) * M + m]: each element on its own, as in gemvExact.
  std::vector<GemvExpectation> out(p.l * p.n * p.m);
  const SharedOperands shared(p, b, sfb);
  parallelFor(int64_t(out.size()), detail::kReferenceGrainValues / p.k + 1,
              [&](int64_t begin, int64_t end) {
                for (int64_t i = begin; i < end; ++i) {
                  auto [l, n, m] = detail::gemvElementIndex(p, i);
                  Element x(p, shared, a, sfa, l, n, m);
                  RowTerms row = p.sums == GemvSums::Products ? productTerms(x)
                                 : p.vector == VectorElement::E2M1
                                     ? packedTerms(x)
                                     : wideTerms(x);
                  out[i] = expectRow(row, p.alpha, p.output, ref[i]);
                }
              });
  return out;
}

Comparison ref::compareAnyOrderGemv(const GemvProblem &p, const uint8_t *a,
                                    const uint8_t *sfa, const uint8_t *b,
                                    const uint8_t *sfb, const uint8_t *out,
                                    const std::vector<double> &ref, double rtol,
                                    double atol, bool everyElement) {
  using Kind = GemvExpectation::Kind;
  detail::checkGemvShape(p);
  if (!everyElement && staysInF32Range(p, sfa, b, sfb))
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
