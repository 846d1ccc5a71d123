//===- NVFP4Dialect.cpp - nvfp4 dialect registration ----------------------===//

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"
#include "nvfp4/Support/Formats.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::nvfp4;

#include "nvfp4/Dialect/NVFP4/IR/NVFP4Enums.cpp.inc"
#include "nvfp4/Dialect/NVFP4/IR/NVFP4OpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "nvfp4/Dialect/NVFP4/IR/NVFP4Attrs.cpp.inc"

void NVFP4Dialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "nvfp4/Dialect/NVFP4/IR/NVFP4Attrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "nvfp4/Dialect/NVFP4/IR/NVFP4Ops.cpp.inc"
      >();
}

int64_t mlir::nvfp4::getBlockSize(ScaleFormat format) {
  return format == ScaleFormat::NVFP4 ? ::nvfp4::formats::kNVFP4BlockSize
                                      : ::nvfp4::formats::kMXFP4BlockSize;
}

Type mlir::nvfp4::getScaleElementType(MLIRContext *ctx, ScaleFormat format) {
  if (format == ScaleFormat::NVFP4)
    return Float8E4M3FNType::get(ctx);
  return Float8E8M0FNUType::get(ctx);
}
