//===- LaunchJson.h - nvfp4.launch values as JSON ---------------*- C++ -*-===//
//
// The one conversion of the `nvfp4.launch` dictionary's values to JSON, used
// by the manifest nvfp4-export-kernels writes and by the signature the GPU
// lowerings embed in each kernel, so that the two always agree.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_NVFP4_IR_LAUNCHJSON_H
#define NVFP4_DIALECT_NVFP4_IR_LAUNCHJSON_H

#include "mlir/IR/Attributes.h"
#include "llvm/Support/JSON.h"

namespace mlir::nvfp4 {

/// Strings, booleans, integers, floats, arrays and dictionaries as their JSON
/// counterparts; any other attribute as null.
llvm::json::Value launchValueToJson(Attribute attr);

} // namespace mlir::nvfp4

#endif // NVFP4_DIALECT_NVFP4_IR_LAUNCHJSON_H
