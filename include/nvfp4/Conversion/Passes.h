//===- Passes.h - nvfp4 conversion passes -----------------------*- C++ -*-===//

#ifndef NVFP4_CONVERSION_PASSES_H
#define NVFP4_CONVERSION_PASSES_H

#include "nvfp4/Conversion/PassOptionTypes.h"

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir {
class DLTIDialect;
class RewritePatternSet;
namespace arith {
class ArithDialect;
}
namespace gpu {
class GPUDialect;
}
namespace LLVM {
class LLVMDialect;
}
namespace math {
class MathDialect;
}
namespace memref {
class MemRefDialect;
}
namespace NVVM {
class NVVMDialect;
}
namespace scf {
class SCFDialect;
}
namespace vector {
class VectorDialect;
}

namespace nvfp4 {
#define GEN_PASS_DECL
#include "nvfp4/Conversion/Passes.h.inc"

class TuningTable;

/// Patterns rewriting every nvfp4 op into scf/arith/memref loops.
void populateNVFP4ToLoopsPatterns(RewritePatternSet &patterns);

/// Patterns outlining nvfp4.gemv and nvfp4.convert_scale_layout (static
/// shapes) into CUDA-core kernels, each in its own gpu.module at the end of
/// the enclosing module, launched by gpu.launch_func. A pattern that cannot
/// lower its op reports a located error and fails to match.
/// `tuning`, when given, replaces options left to the cost model for the
/// gemv kernels it names (the `tuning-table` option).
void populateNVFP4ToGPUConversionPatterns(
    RewritePatternSet &patterns, const ConvertNVFP4ToGPUOptions &options,
    std::shared_ptr<const TuningTable> tuning = nullptr);

/// Patterns outlining nvfp4.gemv into Blackwell tcgen05 kernels (as above).
void populateNVFP4ToTcgen05ConversionPatterns(
    RewritePatternSet &patterns, const ConvertNVFP4ToTcgen05Options &options);

/// The options `text` (as given to the pass on the command line: `key=value
/// ...`) set, checked as the pass checks them; errors go to `errorHandler`.
FailureOr<ConvertNVFP4ToGPUOptions> parseConvertNVFP4ToGPUOptions(
    StringRef text, function_ref<LogicalResult(const Twine &)> errorHandler);
FailureOr<ConvertNVFP4ToTcgen05Options> parseConvertNVFP4ToTcgen05Options(
    StringRef text, function_ref<LogicalResult(const Twine &)> errorHandler);

#define GEN_PASS_REGISTRATION
#include "nvfp4/Conversion/Passes.h.inc"
} // namespace nvfp4
} // namespace mlir

#endif // NVFP4_CONVERSION_PASSES_H
