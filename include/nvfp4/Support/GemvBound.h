//===- GemvBound.h - What an f32 GEMV may return ----------------*- C++ -*-===//
//
// The CPU lowering evaluates a GEMV in f32 in a fixed order (docs/numerics.md
// section 10): exact block dot products, the scale product sfa * sfb, the
// block term dot * (sfa * sfb), a sum over kb from +0, one multiplication by
// alpha and one rounding to the output type. This module says, for each
// output element, what that evaluation may return given the float64
// reference r, without re-running the f32 sum:
//   - exactly round(r) where every f32 step is exact (checked per element);
//   - NaN where r is NaN, or where block terms overflow to +inf and -inf;
//   - that infinity where block terms overflow with one sign only;
//   - otherwise a value within the f32 summation bound of r plus half an
//     ulp of the output type (and an infinity only where r plus that bound
//     rounds to one).
// Plain C++, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_GEMVBOUND_H
#define NVFP4_SUPPORT_GEMVBOUND_H

#include "nvfp4/Support/Reference.h"

#include <cstdint>
#include <vector>

namespace nvfp4::ref {

/// Half the spacing of `type`'s values around |x| (subnormal spacing below
/// the normal range; the top binade's spacing beyond the largest value).
double roundingHalfUlp(ElementType type, double x);

/// The f32 sum of one row, described against the exact sum: everything the
/// expectation needs that does not depend on alpha or the output type.
struct GemvRowSum {
  bool nan = false;           // a NaN scale: the reference is NaN
  int posInf = 0, negInf = 0; // block terms that overflow f32, by sign
  double sum = 0;             // float64 sum of the exact block terms
  double sumError = 0;        // bound on |sum - exact sum| (0: exact)
  double f32Error = 0;        // bound on |f32 sum - exact sum| (0: exact)
  double largest = 0;         // bound on every |f32 partial sum|
};

/// The row sums of every output element, in c order.
std::vector<GemvRowSum> analyzeGemvSums(const GemvProblem &p, const uint8_t *a,
                                        const uint8_t *sfa, const uint8_t *b,
                                        const uint8_t *sfb);

/// What the f32 evaluation may give for one element.
struct GemvExpectation {
  enum class Kind {
    Exact,     // round(r) exactly
    Bounded,   // |o - r| <= bound (an infinity only if r +- bound rounds
               // to it)
    NaN,       // NaN
    Inf,       // infSign * infinity
    NonFinite, // the f32 partial sums may overflow: an infinity, NaN, or a
               // value within `bound`
  };
  Kind kind = Kind::Exact;
  double bound = 0; // Bounded and NonFinite
  int infSign = 0;  // Inf
};

/// The expectation for an element of row sum `s`, scaled by `alpha` and
/// rounded to `type`, whose float64 reference (gemvExact) is `r`.
GemvExpectation expectGemvElement(const GemvRowSum &s, float alpha,
                                  ElementType type, double r);

/// Whether output `o` meets `e`; `rounded` is r rounded to `type`.
bool meetsExpectation(const GemvExpectation &e, ElementType type, double o,
                      double r, double rounded);

/// Result of checking a whole output buffer.
struct GemvBoundCheck {
  int64_t exact = 0, bounded = 0, special = 0; // elements of each kind
  int64_t failures = 0, first = -1;            // first failing element
  double worst = 0; // max |o - r| / bound over the bounded elements
  bool ok() const { return failures == 0; }
};

/// Checks every element of `out` (c storage of p.output, scaled by
/// p.alpha) against the expectations from `sums` and `ref` (gemvExact).
GemvBoundCheck checkGemvBound(const GemvProblem &p,
                              const std::vector<GemvRowSum> &sums,
                              const uint8_t *out,
                              const std::vector<double> &ref);

/// The GPU kernels' f32 evaluation (docs/numerics.md section 11): per unit
/// of 16 values, fma(dot * sfa, sfb, acc), the unit terms summed in an
/// order of the kernel's own. The expectation of every output element of p
/// (alpha and output type included), in c order; `ref` is gemvExact's. p's
/// vectors must be packed e2m1 (any N: each vector's rows are one-vector
/// sums).
///   NaN        a NaN scale, or unit products dot * sfa beyond the f32 range
///              of both signs (or times a zero sfb);
///   Inf        such products of one sign, the other terms unable to
///              overflow in any order;
///   NonFinite  the f32 partial sums may overflow: inf, NaN or a finite
///              value within `bound` (-1 where a product is infinite: no
///              finite value passes);
///   Exact      every term a multiple of 2^e with sum |t| <= 2^(24+e), and
///              alpha times the sum an f32: round(ref) bit for bit;
///   Bounded    otherwise: within gamma(n-1) sum |t| of f32 summation in
///              any order, plus the alpha and output roundings.
std::vector<GemvExpectation>
expectAnyOrderGemv(const GemvProblem &p, const uint8_t *a, const uint8_t *sfa,
                   const uint8_t *b, const uint8_t *sfb,
                   const std::vector<double> &ref);

/// compare() for a GPU kernel's output of p: elements whose expectation
/// (expectAnyOrderGemv) is NaN, Inf or NonFinite, where the f32 evaluation
/// leaves the f32 range and the float64 reference cannot say what it
/// gives, must meet that expectation; with `everyElement`, every element
/// must (exact where the f32 sum is, else within its bound; for inputs
/// whose cancellations no fixed tolerance covers). The other elements are
/// held to compare's rule. Plain compare() when the scales rule out
/// non-finite results and not `everyElement`.
Comparison compareAnyOrderGemv(const GemvProblem &p, const uint8_t *a,
                               const uint8_t *sfa, const uint8_t *b,
                               const uint8_t *sfb, const uint8_t *out,
                               const std::vector<double> &ref, double rtol,
                               double atol, bool everyElement);

} // namespace nvfp4::ref

#endif // NVFP4_SUPPORT_GEMVBOUND_H
