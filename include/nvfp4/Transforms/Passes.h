//===- Passes.h - nvfp4 transforms ------------------------------*- C++ -*-===//

#ifndef NVFP4_TRANSFORMS_PASSES_H
#define NVFP4_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DECL
#include "nvfp4/Transforms/Passes.h.inc"

/// The options `text` (`key=value ...`) sets; errors go to `errorHandler`.
FailureOr<NVFP4ExportKernelsOptions> parseNVFP4ExportKernelsOptions(
    StringRef text, function_ref<LogicalResult(const Twine &)> errorHandler);

#define GEN_PASS_REGISTRATION
#include "nvfp4/Transforms/Passes.h.inc"
} // namespace mlir::nvfp4

#endif // NVFP4_TRANSFORMS_PASSES_H
