//===- GemvOutlining.h - outlining nvfp4.gemv into GPU kernels --*- C++ -*-===//
//
// What every GPU lowering of nvfp4.gemv shares: the kernel's name, its own
// gpu.module with the bare-pointer ABI (a, sfa, b, sfb, c[, alpha]), the
// gpu.launch_func that replaces the op, and the common entries of the
// `nvfp4.launch` manifest dictionary.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_CONVERSION_COMMON_GEMVOUTLINING_H
#define NVFP4_CONVERSION_COMMON_GEMVOUTLINING_H

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
class Pass;
class RewriterBase;
namespace nvfp4 {

/// nvfp4_gemv_<M>x<K>x<L>_<format>_<layout>_<output><suffix>.
std::string gemvKernelName(GemvOp op, StringRef suffix = "");

/// A new gpu.module named `name` (uniqued) at the end of `module`, for
/// `chip` (features from the chip table); `module` becomes a GPU container.
gpu::GPUModuleOp createKernelModule(RewriterBase &rewriter, ModuleOp module,
                                    Location loc, StringRef name,
                                    StringRef chip);

/// A new kernel module (createKernelModule) holding an empty kernel named
/// like it that takes `buffers` (memrefs, passed as bare pointers) and runs
/// `threads` threads a CTA.
gpu::GPUFuncOp createBufferKernel(RewriterBase &rewriter, ModuleOp module,
                                  Location loc, StringRef name, StringRef chip,
                                  ValueRange buffers, int64_t threads);

/// The kernel's dynamic shared memory, a `ptr<3>` at the insertion point:
/// the address of an external, zero-sized addrspace(3) array `symbol`
/// (aligned to `alignment`), declared in the kernel's module on first use,
/// which PTX declares as `.extern .shared .b8 symbol[]`. (The global that
/// gpu.dynamic_shared_memory lowers to is internal, and the NVPTX backend
/// demotes it to a 1-byte static `.shared` variable that ptxas reports as
/// accessed out of bounds.)
Value dynamicSharedMemory(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                          StringRef symbol, uint64_t alignment);

/// Launches `kernel` on (gridX, gridY, 1) CTAs with `args` before `op`,
/// carrying `info` as nvfp4.launch, and finishes the kernel (finishKernel).
void launchBufferKernel(RewriterBase &rewriter, Operation *op,
                        gpu::GPUFuncOp kernel, int64_t gridX, int64_t gridY,
                        ValueRange args, DictionaryAttr info);

/// A new kernel module (createKernelModule) holding an empty kernel with the
/// gemv ABI and `threads` threads.
gpu::GPUFuncOp createGemvKernel(RewriterBase &rewriter, ModuleOp module,
                                GemvOp op, StringRef name, StringRef chip,
                                int64_t threads);

/// The manifest entries every gemv kernel has (`n` and `vector` from b's
/// shape and element type; `params` without sfb for 16-bit vectors);
/// lowerings add their own (`strategy`, `config`) before building the
/// dictionary.
NamedAttrList gemvLaunchInfo(OpBuilder &b, GemvOp op, gpu::GPUFuncOp kernel,
                             StringRef chip, int64_t gridX,
                             int64_t sharedBytes);

/// Replaces `op` by a launch of `kernel` on (gridX, L, 1) CTAs with
/// `sharedBytes` of dynamic shared memory, carrying `info` as nvfp4.launch;
/// `extraArgs` follow the gemv ABI's arguments.
void replaceGemvWithLaunch(RewriterBase &rewriter, GemvOp op,
                           gpu::GPUFuncOp kernel, int64_t gridX,
                           int64_t sharedBytes, DictionaryAttr info,
                           ValueRange extraArgs = {});

/// Bytes of a static memref, as a double: products of unchecked sizes may
/// exceed int64.
double memrefBytes(MemRefType type);

/// The size limits of every GPU lowering, as the runner enforces them: each
/// of `sizes` (named "M", "K", "L", ...) below 2^31 and no operand beyond
/// 2^40 bytes. A located error names the size.
LogicalResult checkGpuSizes(Operation *op,
                            ArrayRef<std::pair<StringRef, int64_t>> sizes);

/// A located error unless a grid of gridX x gridY CTAs is within CUDA's
/// limits (2^31 - 1 x 65535).
LogicalResult checkGridSize(Operation *op, int64_t gridX, int64_t gridY);

/// Fails with an error on `op` unless `rebuilt` (the pass created from the
/// options struct `self` hands its patterns) prints the same option values
/// as `self`: an option a pass forgot to copy into its struct would
/// otherwise be ignored without a word.
LogicalResult checkOptionsCopied(Operation *op, Pass &self, Pass &rebuilt);

/// checkGpuSizes with the M, K and L of `op`.
LogicalResult checkGemvGpuSizes(GemvOp op);

/// The buffers a gemv kernel takes, in parameter order: a, sfa, b, sfb
/// (packed b only), c.
SmallVector<Value> gemvBufferOperands(GemvOp op);

/// Fails with an error on `op` unless it is the one form `lowering` (its
/// name in words) implements: one vector of packed e2m1 (b [L, K/2]).
LogicalResult checkOneVectorGemv(GemvOp op, StringRef lowering);

/// Gives `kernel` what makes its manifest checkable against the PTX: its
/// block size as .reqntid (in place of known_block_size) and a global
/// holding its signature, the schema's fields of the launch dictionary
/// `info` as JSON (ManifestSchema.h, signatureSymbol). Called once the
/// kernel and its launch are complete.
void finishKernel(OpBuilder &b, gpu::GPUFuncOp kernel, DictionaryAttr info);

} // namespace nvfp4
} // namespace mlir

#endif // NVFP4_CONVERSION_COMMON_GEMVOUTLINING_H
