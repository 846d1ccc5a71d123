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

/// cta-split-k through global memory: the module-level workspace of f32
/// partials (splitKWorkspaceShape) and the arrival counters [L, row blocks]
/// (i32, zero at load; the last CTA of a row block sets its counter back to
/// zero) of `kernel`'s module, as values at the builder's insertion point.
std::pair<Value, Value> splitKGlobals(OpBuilder &b, gpu::GPUFuncOp kernel,
                                      GemvOp op, const KernelConfig &cfg);

/// After this CTA wrote its partials: counts it in at `counters[counter]`
/// (fenced GPU-wide first, so that the last CTA sees every partial) and
/// returns, to every thread, whether it was the last of the `ctaSplitK`
/// CTAs of its row block; `lastFlag` is a workgroup i32[1].
Value arriveAtCtaSplit(OpBuilder &b, Location loc, Value counters,
                       ValueRange counter, Value lastFlag, Value threadId,
                       int64_t ctaSplitK);

/// The last CTA sets its counter back to zero for the next launch.
void resetCtaSplit(OpBuilder &b, Location loc, Value counters,
                   ValueRange counter, Value threadId);

/// An f32 load from global `memref` that sees other CTAs' stores made
/// visible by a fence (ld.relaxed.gpu: not served from a stale L1 line).
Value loadCoherent(OpBuilder &b, Location loc, Value memref,
                   ValueRange indices);

/// Fills the empty body of `kernel`, whose arguments are (a, sfa, b, sfb, c
/// [, alpha]) with the types of `op`'s operands, with the GEMV of `op`.
void buildGemvKernelBody(OpBuilder &b, gpu::GPUFuncOp kernel, GemvOp op,
                         const KernelConfig &cfg);

/// The same for decode=mma: the tensor-core kernel (MmaKernel.cpp).
void buildMmaGemvKernelBody(OpBuilder &b, gpu::GPUFuncOp kernel, GemvOp op,
                            const KernelConfig &cfg);

} // namespace mlir::nvfp4

#endif // NVFP4_LIB_CONVERSION_NVFP4TOGPU_GEMVKERNEL_H
