//===- LoopsCommon.h - helpers of the nvfp4-to-loops lowering ---*- C++ -*-===//

#ifndef NVFP4_CONVERSION_NVFP4TOLOOPS_LOOPSCOMMON_H
#define NVFP4_CONVERSION_NVFP4TOLOOPS_LOOPSCOMMON_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace mlir::nvfp4 {

/// Nested scf.for loops from 0 to each of `upperBounds`; `body` gets the
/// induction variables, outermost first.
void buildLoopNest(OpBuilder &b, Location loc, ValueRange upperBounds,
                   function_ref<void(OpBuilder &, ValueRange)> body);
/// memref.dim of every dimension of `memref`.
SmallVector<Value> buildDims(OpBuilder &b, Location loc, Value memref);

void populateGemvToLoopsPatterns(RewritePatternSet &patterns);
void populateQuantizeToLoopsPatterns(RewritePatternSet &patterns);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TOLOOPS_LOOPSCOMMON_H
