//===- KernelConfig.h - tunables of the GEMV kernels ------------*- C++ -*-===//

#ifndef NVFP4_LIB_CONVERSION_NVFP4TOGPU_KERNELCONFIG_H
#define NVFP4_LIB_CONVERSION_NVFP4TOGPU_KERNELCONFIG_H

#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"
#include "nvfp4/Support/Chips.h"
#include "nvfp4/Support/GemvCostModel.h"

#include <string>

namespace mlir::gpu {
class GPUFuncOp;
} // namespace mlir::gpu

namespace mlir::nvfp4 {

/// How e2m1 becomes arithmetic; Mma is the tensor-core kernel
/// (MmaKernel.cpp), the others the CUDA-core one (GemvKernel.cpp).
enum class DecodeMethod { Dp4a, Cvt, F32, Mma };

/// Every choice resolved for one gemv shape.
struct KernelConfig {
  std::string chip;
  int64_t rowsPerBlock = 0, rowsPerThread = 0, lanesPerRow = 0,
          bytesPerLoad = 0;
  int64_t loadsInFlight = 0;
  DecodeMethod decode = DecodeMethod::Dp4a;
  bool cacheHints = false;
  bool prefetch = false;
  int64_t splitK = 0;    // lane groups of a CTA sharing a row's K range
  int64_t ctaSplitK = 0; // CTAs sharing a row's K range
  /// The ctaSplitK CTAs form a thread-block cluster and add their partials
  /// in the shared memory of its first CTA (else through a global
  /// workspace and an arrival counter).
  bool clusterReduction = false;
  bool vectorInShared = false;
  int64_t asyncCopyStages = 0; // 0: a is loaded into registers
  bool tma = false; // the stages are filled by tensor-memory-accelerator copies
  bool pdl = false; // programmatic dependent launch (griddepcontrol)
  int64_t maxRegisters = 0;
  bool interleaveRows = false;
  bool pinLoads = false; // a step's decode waits for all of its loads
  /// Rows indexed unclamped (row-offsets where gridRowsInBounds).
  bool rowOffsets = false;
  /// decode=mma: a read 128 bytes a row by two quads (quad-pairs where it
  /// applies).
  bool quadPairs = false;
  /// Steps of each K slice read in one pass (every load first), or 0.
  int64_t onePassSteps = 0;
  int64_t indexBits = 64; // width of the kernel's index arithmetic: 32 or 64
  int64_t threads() const {
    return rowsPerBlock / rowsPerThread * lanesPerRow * splitK;
  }
  int64_t rowGroups() const { return rowsPerBlock / rowsPerThread; }
  /// The CTA's threads: with tma, one producer warp past the threads()
  /// that compute issues the copies.
  int64_t launchThreads() const {
    return threads() + (tma ? ::nvfp4::kWarpSize : 0);
  }
};

/// Resolves the pass options for `op` (static shapes; 0 or empty: the chip's
/// default) and checks them; reports a located error on `op` and fails when
/// they cannot work.
FailureOr<KernelConfig>
resolveKernelConfig(GemvOp op, const ConvertNVFP4ToGPUOptions &options);

/// Row blocks of one batch.
int64_t gridRowBlocks(GemvOp op, const KernelConfig &cfg);
/// Whether every row the grid computes is a row of `op`'s A, so that the
/// kernel's row indices need no clamp to M.
bool gridRowsInBounds(GemvOp op, const KernelConfig &cfg);
/// The f32 partials of a split across CTAs: [cta-split-k, L, M], or
/// [cta-split-k, L, N, M] when b has a vector dimension.
SmallVector<int64_t> splitKWorkspaceShape(GemvOp op, const KernelConfig &cfg);
/// CTAs along grid x: every row block times cta-split-k.
int64_t gridX(GemvOp op, const KernelConfig &cfg);

/// Bytes of static shared memory the kernel of `cfg` uses for `op`.
int64_t sharedMemoryBytes(GemvOp op, const KernelConfig &cfg);
/// Bytes of the shared-memory stages a's asynchronous copies fill.
int64_t asyncCopyBytes(const KernelConfig &cfg);

/// decode=mma's shared-memory stage of one warp (async-copy-stages): a
/// lane's 16-byte slots of a's rows and b's chunks, then its 4-byte slots
/// of the words that hold their scale pairs; slot i of lane l is at
/// (i x 32 + l) x slot bytes, so a warp's accesses are conflict-free.
struct MmaStageLayout {
  // A lane's chunk of a step, and the word of a scale pair.
  static constexpr int64_t kCodeBytes = ::nvfp4::cost::kMmaBytesPerLoad;
  static constexpr int64_t kWordBytes = 4;
  int64_t codeSlots = 0, wordSlots = 0;
  /// Byte offset of code slot `i` (word slot `w`) of lane 0.
  static int64_t codeSlot(int64_t i) {
    return i * kCodeBytes * ::nvfp4::kWarpSize;
  }
  int64_t wordSlot(int64_t w) const {
    return codeSlot(codeSlots) + w * kWordBytes * ::nvfp4::kWarpSize;
  }
  int64_t bytes() const { return wordSlot(wordSlots); }
};
MmaStageLayout mmaStageLayout(GemvOp op, const KernelConfig &cfg);
/// Bytes of dynamic shared memory the kernel of `cfg` uses for `op`.
int64_t dynamicSharedBytes(GemvOp op, const KernelConfig &cfg);

StringRef stringifyDecodeMethod(DecodeMethod method);

/// The register budget (.maxnreg, 0 for none) of a kernel lowering `op`
/// under the option max-registers `given`: `chosen` (the lowering's own) for
/// 0, none for -1, else `given` where ptxas can assemble the kernel in it
/// (`mma`: the tensor-core kernel's MMAs need more); a located error on
/// `op` otherwise.
FailureOr<int64_t> resolveMaxRegisters(Operation *op, int64_t given, bool mma,
                                       int64_t chosen);
/// Gives `kernel` the register budget `budget` (none for 0).
void setMaxRegisters(gpu::GPUFuncOp kernel, int64_t budget);

/// Fails with a located error unless the CUDA-core kernels support `chip`.
LogicalResult checkChip(Operation *op, StringRef chip);

} // namespace mlir::nvfp4

#endif // NVFP4_LIB_CONVERSION_NVFP4TOGPU_KERNELCONFIG_H
