//===- GemvKernel.h - the CUDA-core GEMV kernel body ------------*- C++ -*-===//

#ifndef NVFP4_LIB_CONVERSION_NVFP4TOGPU_GEMVKERNEL_H
#define NVFP4_LIB_CONVERSION_NVFP4TOGPU_GEMVKERNEL_H

#include "KernelConfig.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::nvfp4 {

/// Generic `!llvm.ptr` to `memref[indices]`, for accesses no memref op
/// expresses (inline PTX, atomic orderings, cp.async).
Value elementPointer(OpBuilder &b, Location loc, Value memref,
                     ValueRange indices);

/// Loads `bytes` (8 or 16) bytes at `memref[indices]` (of any element
/// type) as i32 words; `streaming`: through the non-coherent path without
/// L1 allocation (a matrix read exactly once).
SmallVector<Value> loadWords(OpBuilder &b, Location loc, Value memref,
                             ValueRange indices, int64_t bytes, bool streaming);

/// Whether the two NVFP4 scales of a row's 16-byte load at an even column
/// are adjacent in memory (one 16-bit load): in the blocked layout (a
/// 4-column group holds both) or with an even number of linear columns.
bool chunkScalesAdjacent(GemvOp op, int64_t bytesPerLoad);

/// Fills the empty body of `kernel`, whose arguments are (a, sfa, b, sfb, c
/// [, alpha]) with the types of `op`'s operands, with the GEMV of `op`.
void buildGemvKernelBody(OpBuilder &b, gpu::GPUFuncOp kernel, GemvOp op,
                         const KernelConfig &cfg);

/// The same for decode=mma: the tensor-core kernel (MmaKernel.cpp).
void buildMmaGemvKernelBody(OpBuilder &b, gpu::GPUFuncOp kernel, GemvOp op,
                            const KernelConfig &cfg);

} // namespace mlir::nvfp4

#endif // NVFP4_LIB_CONVERSION_NVFP4TOGPU_GEMVKERNEL_H
