//===- NVFP4.h - nvfp4 dialect ----------------------------------*- C++ -*-===//

#ifndef NVFP4_DIALECT_NVFP4_IR_NVFP4_H
#define NVFP4_DIALECT_NVFP4_IR_NVFP4_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

// The generated declarations depend on each other in this order.
// clang-format off
#include "nvfp4/Dialect/NVFP4/IR/NVFP4OpsDialect.h.inc"
#include "nvfp4/Dialect/NVFP4/IR/NVFP4Enums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "nvfp4/Dialect/NVFP4/IR/NVFP4Attrs.h.inc"

#define GET_OP_CLASSES
#include "nvfp4/Dialect/NVFP4/IR/NVFP4Ops.h.inc"
// clang-format on

namespace mlir::nvfp4 {
/// Values covered by one scale factor: 16 for NVFP4, 32 for MXFP4.
int64_t getBlockSize(ScaleFormat format);
/// The scale element type a format requires.
Type getScaleElementType(MLIRContext *ctx, ScaleFormat format);

/// The discardable attributes of the dialect (NVFP4Dialect.td).
inline constexpr llvm::StringLiteral kLaunchAttrName = "nvfp4.launch";
inline constexpr llvm::StringLiteral kScaleStagingAttrName =
    "nvfp4.scale_staging";
/// The values of kScaleStagingAttrName.
inline constexpr llvm::StringLiteral kStagingLinearToBlocked =
    "linear-to-blocked";
inline constexpr llvm::StringLiteral kStagingBlockedCopy = "blocked-copy";
} // namespace mlir::nvfp4

#endif // NVFP4_DIALECT_NVFP4_IR_NVFP4_H
