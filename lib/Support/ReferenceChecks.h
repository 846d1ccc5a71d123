//===- ReferenceChecks.h - Argument checks of the reference -----*- C++ -*-===//
//
// Shared by the reference's source files: a misuse of the library (a
// negative size, K not a multiple of the block) is a programming error and
// aborts with one line.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_LIB_SUPPORT_REFERENCECHECKS_H
#define NVFP4_LIB_SUPPORT_REFERENCECHECKS_H

#include "nvfp4/Support/Reference.h"

#include <array>

namespace nvfp4::ref::detail {

[[noreturn]] void fatal(const char *msg);
void checkShape(ScaleFormat format, int64_t rows, int64_t k, int64_t l);
/// checkShape of a gemv, and its vector count.
void checkGemvShape(const GemvProblem &p);

/// Batch, vector and row of element `i` of a gemv's c ([L][N][M]).
struct GemvElementIndex {
  int64_t l, n, m;
};
inline GemvElementIndex gemvElementIndex(const GemvProblem &p, int64_t i) {
  return {i / p.m / p.n, i / p.m % p.n, i % p.m};
}

/// decodeScale of every byte, for the references' inner loops.
std::array<double, 256> scaleValues(ScaleFormat format);

/// Values of a (K a gemv element) each thread's share of a gemv's elements
/// should hold at least (parallelFor's grain): far more than a thread costs
/// to start.
inline constexpr int64_t kReferenceGrainValues = int64_t(1) << 18;

} // namespace nvfp4::ref::detail

#endif // NVFP4_LIB_SUPPORT_REFERENCECHECKS_H
