//===- IndexValue.h - index arithmetic that builds IR ------------*- C++
//-*-===//
//
// An `index` value whose operators emit (and fold) arith ops, so that the
// layout formulas written once as templates over the integer type
// (nvfp4/Support/ScaleLayout.h, nvfp4/Support/Tcgen05Plan.h) become IR in
// every lowering and stay plain integer arithmetic in the reference, the
// runner and the unit tests.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_CONVERSION_COMMON_INDEXVALUE_H
#define NVFP4_CONVERSION_COMMON_INDEXVALUE_H

#include "mlir/IR/Builders.h"

namespace mlir::nvfp4 {

/// Operands are non-negative except inside vclamp; division and remainder
/// are unsigned.
struct IV {
  OpBuilder *b;
  Location loc;
  Value v;

  IV(OpBuilder &builder, Location l, Value value)
      : b(&builder), loc(l), v(value) {}
  /// The index constant `c`.
  static IV index(OpBuilder &builder, Location l, int64_t c);
  IV constant(int64_t c) const;
  operator Value() const { return v; }
};

IV operator+(IV x, IV y);
IV operator+(IV x, int64_t c);
IV operator+(int64_t c, IV x);
IV operator-(IV x, IV y);
IV operator-(IV x, int64_t c);
IV operator-(int64_t c, IV x);
IV operator*(IV x, IV y);
IV operator*(IV x, int64_t c);
IV operator*(int64_t c, IV x);
IV operator/(IV x, int64_t c);
IV operator%(IV x, int64_t c);
IV vmin(IV x, int64_t c);
/// Unsigned minimum, for indices clamped to a bound.
IV vminu(IV x, int64_t c);
/// x < c (unsigned), as an i1.
Value vult(IV x, int64_t c);
IV vclamp(IV x, int64_t lo, int64_t hi);
IV vconst(IV like, int64_t c);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_COMMON_INDEXVALUE_H
