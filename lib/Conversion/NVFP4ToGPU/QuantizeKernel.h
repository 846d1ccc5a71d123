//===- QuantizeKernel.h - quantize and dequantize GPU kernels ---*- C++ -*-===//
//
// nvfp4.quantize and nvfp4.dequantize as CUDA-core kernels, one thread a
// block of values; a two-level quantization first launches a kernel that
// reduces the tensor's max |x| to its global scale.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_LIB_CONVERSION_NVFP4TOGPU_QUANTIZEKERNEL_H
#define NVFP4_LIB_CONVERSION_NVFP4TOGPU_QUANTIZEKERNEL_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::nvfp4 {

/// The patterns lowering nvfp4.quantize and nvfp4.dequantize to kernels for
/// `chip`, under the option max-registers `maxRegisters`.
void populateQuantizeToGPUPatterns(RewritePatternSet &patterns, StringRef chip,
                                   int64_t maxRegisters);

} // namespace mlir::nvfp4

#endif // NVFP4_LIB_CONVERSION_NVFP4TOGPU_QUANTIZEKERNEL_H
