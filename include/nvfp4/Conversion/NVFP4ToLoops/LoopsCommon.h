//===- LoopsCommon.h - helpers of the nvfp4-to-loops lowering ---*- C++ -*-===//

#ifndef NVFP4_CONVERSION_NVFP4TOLOOPS_LOOPSCOMMON_H
#define NVFP4_CONVERSION_NVFP4TOLOOPS_LOOPSCOMMON_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>
#include <utility>

namespace mlir::nvfp4 {

/// Nested scf.for loops from 0 to each of `upperBounds`; `body` gets the
/// induction variables, outermost first.
void buildLoopNest(OpBuilder &b, Location loc, ValueRange upperBounds,
                   function_ref<void(OpBuilder &, ValueRange)> body);
/// memref.dim of every dimension of `memref`.
SmallVector<Value> buildDims(OpBuilder &b, Location loc, Value memref);
/// f32 values of the low and high e2m1 codes of the i8 `byte`.
std::pair<Value, Value> buildDecodeE2M1Pair(OpBuilder &b, Location loc,
                                            Value byte);
/// Rounds the f32 `x` to `type` (f16, bf16: nearest even; f32: itself).
Value buildTruncF32(OpBuilder &b, Location loc, Value x, Type type);

void populateGemvToLoopsPatterns(RewritePatternSet &patterns);
void populateQuantizeToLoopsPatterns(RewritePatternSet &patterns);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TOLOOPS_LOOPSCOMMON_H
