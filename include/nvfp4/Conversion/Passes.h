//===- Passes.h - nvfp4 conversion passes -----------------------*- C++ -*-===//

#ifndef NVFP4_CONVERSION_PASSES_H
#define NVFP4_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
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

/// Patterns rewriting every nvfp4 op into scf/arith/memref loops.
void populateNVFP4ToLoopsPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "nvfp4/Conversion/Passes.h.inc"
} // namespace nvfp4
} // namespace mlir

#endif // NVFP4_CONVERSION_PASSES_H
