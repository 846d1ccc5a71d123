//===- KernelConfig.cpp - defaults and checks of the GEMV kernel options --===//

#include "KernelConfig.h"
#include "TmaCopy.h"
#include "UnitDot.h"

#include "nvfp4/Conversion/Common/GemvOutlining.h"

#include "nvfp4/Support/Chips.h"
#include "nvfp4/Support/GemvCostModel.h"
#include "nvfp4/Support/ScaleLayout.h"
#include "nvfp4/Support/TensorMap.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::nvfp4;

StringRef mlir::nvfp4::stringifyDecodeMethod(DecodeMethod method) {
  switch (method) {
  case DecodeMethod::Dp4a:
    return "dp4a";
  case DecodeMethod::Cvt:
    return "cvt";
  case DecodeMethod::F32:
    return "f32";
  case DecodeMethod::Mma:
    return "mma";
  }
  return "";
}

LogicalResult mlir::nvfp4::checkChip(Operation *op, StringRef chip) {
  if (::nvfp4::findChip(chip))
    return success();
  return op->emitOpError() << "unsupported chip '" << chip << "' (expected "
                           << ::nvfp4::knownChipNames() << ")";
}

namespace {

/// The cost model's view of `op`: M, K, L and the values per scale.
::nvfp4::cost::GemvShape costShape(GemvOp op) {
  MemRefType a = op.getA().getType();
  return {a.getDimSize(1), a.getDimSize(2) * 2, a.getDimSize(0),
          getBlockSize(op.getFormat()), op.getTiledCodes()};
}

/// Fails with a located error naming `name` unless lo <= value <= hi.
LogicalResult checkRange(GemvOp op, StringRef name, int64_t value, int64_t lo,
                         int64_t hi) {
  if (value >= lo && value <= hi)
    return success();
  return op.emitOpError() << name << " must be in [" << lo << ", " << hi
                          << "], got " << value;
}

/// Why `op` cannot take the tensor-core kernel, or "" when it can: its
/// f16 operands hold a value times its scale exactly only for e4m3 scales
/// (docs/numerics.md).
std::string mmaUnsupported(GemvOp op) {
  if (op.getFormat() != ScaleFormat::NVFP4)
    return "NVFP4 (e4m3 scales, exact in f16 operands), not MXFP4";
  return "";
}

/// Whether the options leave room for the tensor-core kernel: none of
/// them asks for what only the CUDA-core kernel does, and no CTA shape or
/// K split is given (they were chosen for the CUDA-core kernel's geometry;
/// decode=mma takes them for its own).
bool optionsFitMma(const ConvertNVFP4ToGPUOptions &o) {
  auto oneOf = [](int64_t v, std::initializer_list<int64_t> allowed) {
    return llvm::is_contained(allowed, v);
  };
  return oneOf(o.lanesPerRow, {0, ::nvfp4::cost::kMmaLanesPerRow}) &&
         oneOf(o.bytesPerLoad, {0, ::nvfp4::cost::kMmaBytesPerLoad}) &&
         oneOf(o.ctaSplitK, {0, 1}) && oneOf(o.rowsPerThread, {0, 2, 4, 8}) &&
         o.loadsInFlight <= 4 && !o.rowsPerBlock && !o.splitK &&
         !o.vectorInShared && !o.asyncCopyStages && !o.tma && !o.pinLoads &&
         o.indexBits != 32 && !o.ctaThreads &&
         o.ctaReduction == CtaReductionChoice::Auto;
}

FailureOr<DecodeMethod> resolveDecode(GemvOp op,
                                      const ConvertNVFP4ToGPUOptions &options,
                                      const ::nvfp4::ChipInfo &chip) {
  DecodeChoice decode = options.decode;
  if (op.getTiledCodes() && decode != DecodeChoice::ChipDefault &&
      decode != DecodeChoice::Mma)
    return op.emitOpError("tiled_codes are read by the tensor-core kernel "
                          "only: give decode=mma or leave decode unset");
  if (decode == DecodeChoice::Mma || op.getTiledCodes()) {
    std::string why = mmaUnsupported(op);
    if (!why.empty())
      return op.emitOpError()
             << (op.getTiledCodes() ? "tiled_codes (read by decode=mma) need "
                                    : "decode=mma needs ")
             << why;
    return DecodeMethod::Mma;
  }
  if (decode == DecodeChoice::ChipDefault &&
      ::nvfp4::cost::preferMma(costShape(op), op.getNumVectors(),
                               op.hasPackedB()) &&
      mmaUnsupported(op).empty() && optionsFitMma(options))
    return DecodeMethod::Mma;
  // 16-bit values meet a's codes in f32 (dp4a and cvt pair codes with
  // codes).
  if (!op.hasPackedB()) {
    if (decode == DecodeChoice::ChipDefault || decode == DecodeChoice::F32)
      return DecodeMethod::F32;
    return op.emitOpError()
           << "decode=" << (decode == DecodeChoice::Dp4a ? "dp4a" : "cvt")
           << " needs b of packed e2m1; b of "
           << op.getB().getType().getElementType()
           << " values takes decode=f32 (the default)";
  }
  switch (decode) {
  case DecodeChoice::ChipDefault:
    return chip.e2m1Convert ? DecodeMethod::Cvt : DecodeMethod::Dp4a;
  case DecodeChoice::Dp4a:
    return DecodeMethod::Dp4a;
  case DecodeChoice::F32:
    return DecodeMethod::F32;
  case DecodeChoice::Mma: // resolved above
    break;
  case DecodeChoice::Cvt:
    if (!chip.e2m1Convert)
      return op.emitOpError() << "decode=cvt needs a chip that converts e2m1 "
                                 "(cvt.rn.f16x2.e2m1x2), not "
                              << chip.name;
    return DecodeMethod::Cvt;
  }
  llvm_unreachable("unknown decode choice");
}

} // namespace

/// What a box of a needs (KernelConfig::tma): 16-byte chunks (so rows of a
/// multiple of 16 bytes, which a tensor map's stride needs too), at most 256
/// rows, and boxes that keep the shared memory they land in aligned.
static LogicalResult checkTmaConfig(GemvOp op, const KernelConfig &cfg) {
  if (cfg.asyncCopyStages < 2)
    return op.emitOpError()
           << "tma fills the async-copy stages: it needs async-copy-stages in "
              "[2, 8], got "
           << cfg.asyncCopyStages;
  if (cfg.bytesPerLoad != 16)
    return op.emitOpError()
           << "tma needs bytes-per-load = 16 (rows of a multiple of 16 bytes, "
              "a tensor map's stride rule), got "
           << cfg.bytesPerLoad;
  if (cfg.rowsPerBlock > ::nvfp4::tensormap::kMaxBoxSize)
    return op.emitOpError()
           << "tma needs rows-per-block <= " << ::nvfp4::tensormap::kMaxBoxSize
           << " (a tensor map's box), got " << cfg.rowsPerBlock;
  SmallVector<int64_t> place = tmaStageShape(cfg);
  int64_t boxBytes = place[1] * place[2] * tmaElementBytes();
  if (boxBytes % ::nvfp4::tensormap::kSharedAlignment != 0)
    return op.emitOpError()
           << "tma copies boxes of rows-per-block x lanes-per-row x 16 = "
           << boxBytes
           << " bytes into shared memory; they must be a multiple of "
           << ::nvfp4::tensormap::kSharedAlignment << " bytes to stay aligned";
  return success();
}

/// CTAs of the whole launch: the grid of each batch times the batches.
static int64_t launchCtas(GemvOp op, const KernelConfig &cfg) {
  return gridX(op, cfg) * op.getA().getType().getDimSize(0);
}

/// The budgets (.maxnreg) ptxas assembles the kernels in: from 24
/// registers, from 28 for the tensor-core kernel, whose mma.sync it refuses
/// with fewer, to 255.
constexpr int64_t kLeastRegisters = 24, kLeastMmaRegisters = 28,
                  kMostRegisters = 255;

FailureOr<int64_t> mlir::nvfp4::resolveMaxRegisters(Operation *op,
                                                   int64_t given, bool mma,
                                                   int64_t chosen) {
  if (given == 0)
    return chosen;
  if (given == -1)
    return 0;
  int64_t least = mma ? kLeastMmaRegisters : kLeastRegisters;
  if (given >= least && given <= kMostRegisters)
    return given;
  InFlightDiagnostic diag = op->emitOpError()
                            << "max-registers must be -1, 0 or in [" << least
                            << ", " << kMostRegisters << "]";
  if (mma)
    diag << " with decode=mma (ptxas needs " << kLeastMmaRegisters
         << " registers for its MMAs)";
  return diag << ", got " << given;
}

void mlir::nvfp4::setMaxRegisters(gpu::GPUFuncOp kernel, int64_t budget) {
  if (budget)
    kernel->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    IntegerAttr::get(IntegerType::get(kernel.getContext(), 32),
                                     budget));
}

/// The grid of `cfg` within CUDA's limits.
static LogicalResult checkGrid(GemvOp op, const KernelConfig &cfg) {
  int64_t grid = gridX(op, cfg), batches = op.getA().getType().getDimSize(0);
  if (grid <= std::numeric_limits<int32_t>::max() && batches <= 65535)
    return success();
  return op.emitOpError() << "needs a grid of " << grid << " x " << batches
                          << " CTAs, more than CUDA allows (2^31 - 1 x "
                             "65535)";
}

/// Why the kernel cannot do its index arithmetic in 32 bits, or "" when it
/// can: every byte offset it forms must fit an i32 with room to spare (row
/// and chunk indices past the end are clamped before they are scaled, so
/// no offset exceeds a buffer by more than a CTA's rows). The asynchronous
/// and tensor copies (nvgpu) and the tensor-core kernel are lowered with
/// 64-bit indices.
static std::string narrowIndexUnsupported(GemvOp op, const KernelConfig &cfg) {
  if (cfg.tma || cfg.asyncCopyStages)
    return "async-copy-stages and tma are lowered with 64-bit indices";
  if (cfg.decode == DecodeMethod::Mma)
    return "decode=mma is lowered with 64-bit indices";
  constexpr double kNarrowIndexBytes = double(int64_t(1) << 30);
  double largest = 0;
  for (Value v : gemvBufferOperands(op))
    largest = std::max(largest, memrefBytes(cast<MemRefType>(v.getType())));
  if (cfg.ctaSplitK > 1 && !cfg.clusterReduction)
    largest = std::max(largest, memrefBytes(MemRefType::get(
                                    splitKWorkspaceShape(op, cfg),
                                    Float32Type::get(op.getContext()))));
  if (largest >= kNarrowIndexBytes)
    return "a buffer of " + std::to_string(int64_t(largest)) +
           " bytes needs 64-bit offsets (32 bits serve buffers under 1 GiB)";
  return "";
}

/// index-bits: as given (checked), else 32 where the cost model prefers it
/// and the kernel allows it.
static FailureOr<int64_t>
resolveIndexBits(GemvOp op, const ConvertNVFP4ToGPUOptions &options,
                 const KernelConfig &cfg) {
  if (options.indexBits != 0 && options.indexBits != 32 &&
      options.indexBits != 64)
    return op.emitOpError()
           << "index-bits must be 0, 32 or 64, got " << options.indexBits;
  if (options.indexBits == 64)
    return 64;
  std::string unsupported = narrowIndexUnsupported(op, cfg);
  if (options.indexBits == 32) {
    if (!unsupported.empty())
      return op.emitOpError() << "index-bits=32: " << unsupported;
    return 32;
  }
  return unsupported.empty() && ::nvfp4::cost::preferNarrowIndex(costShape(op))
             ? 32
             : 64;
}

/// What both kernels choose once their geometry is fixed: the register
/// budget (`suggestedRegisters`, the kernel's cost model, unless an option
/// gives one), the index width and unclamped rows; then the grid's limits.
static FailureOr<KernelConfig>
finishConfig(GemvOp op, const ConvertNVFP4ToGPUOptions &options,
             KernelConfig cfg, int64_t suggestedRegisters) {
  FailureOr<int64_t> budget =
      resolveMaxRegisters(op, options.maxRegisters,
                          cfg.decode == DecodeMethod::Mma, suggestedRegisters);
  if (failed(budget))
    return failure();
  cfg.maxRegisters = *budget;
  FailureOr<int64_t> bits = resolveIndexBits(op, options, cfg);
  if (failed(bits))
    return failure();
  cfg.indexBits = *bits;
  // Tiled codes take unclamped rows by default: their loads then share one
  // address (a tile's other half and the next tile are constant offsets),
  // which removed the spills of bf16 vectors and took 0.94-1.01 of the
  // time (docs/benchmarks.md, "Tiled codes: unclamped rows, one CTA a row").
  cfg.rowOffsets =
      (options.rowOffsets || op.getTiledCodes()) && gridRowsInBounds(op, cfg);
  if (failed(checkGrid(op, cfg)))
    return failure();
  return cfg;
}

/// decode=mma's async-copy-stages: the option, checked, or 0. The copies
/// take whole steps, and each lane copies the aligned 4-byte word that
/// holds a scale pair, which needs every pair inside one word and every
/// word inside the scales: blocked scales, or linear rows of a multiple of
/// 4 columns.
static FailureOr<int64_t>
resolveMmaStages(GemvOp op, const ConvertNVFP4ToGPUOptions &options,
                 const KernelConfig &cfg, const ::nvfp4::cost::MmaSlicing &s) {
  int64_t stages = options.asyncCopyStages;
  if (stages == 0)
    return 0;
  if (failed(checkRange(op, "async-copy-stages", stages, 2, 8)))
    return failure();
  if (options.loadsInFlight > 1)
    return op.emitOpError()
           << "decode=mma: async-copy-stages keeps steps in flight in shared "
              "memory, loads-in-flight in registers; give one of them";
  int64_t cols =
      op.getA().getType().getDimSize(2) * 2 / getBlockSize(op.getFormat());
  if (s.fullSteps == 0)
    return op.emitOpError()
           << "decode=mma async-copy-stages copies whole steps of "
           << ::nvfp4::cost::kMmaStepBytes << " bytes; a row has "
           << op.getA().getType().getDimSize(2);
  if (op.getLayout() != ScaleLayout::Blocked128x4 && cols % 4 != 0)
    return op.emitOpError()
           << "decode=mma async-copy-stages copies scales 4 bytes at a time: "
              "it needs blocked128x4 scales or linear rows of a multiple of "
              "4 scale columns (K a multiple of 64), got "
           << cols << " columns";
  KernelConfig staged = cfg;
  staged.asyncCopyStages = stages;
  int64_t bytes = dynamicSharedBytes(op, staged) + sharedMemoryBytes(op, cfg);
  if (bytes > ::nvfp4::kMaxCtaSharedBytes)
    return op.emitOpError()
           << "decode=mma async-copy-stages = " << stages << " needs " << bytes
           << " bytes of shared memory a CTA (stages x warps x "
           << mmaStageLayout(op, cfg).bytes()
           << " bytes a warp's stage, and the split-k partials), more than the "
           << ::nvfp4::kMaxCtaSharedBytes;
  return stages;
}

/// decode=mma: the options that apply to the tensor-core kernel, checked,
/// the rest of the geometry from the cost model (lanes-per-row 4 and
/// bytes-per-load 16 are the MMA's fragment layout).
static FailureOr<KernelConfig>
resolveMmaConfig(GemvOp op, const ConvertNVFP4ToGPUOptions &options,
                 KernelConfig cfg, const ::nvfp4::ChipInfo &chip) {
  namespace cost = ::nvfp4::cost;
  auto fixed = [&](StringRef name, int64_t given,
                   int64_t value) -> LogicalResult {
    if (given == 0 || given == value)
      return success();
    return op.emitOpError() << "decode=mma takes " << name << " = " << value
                            << " (the MMA fragment's layout), got " << given;
  };
  if (failed(
          fixed("lanes-per-row", options.lanesPerRow, cost::kMmaLanesPerRow)) ||
      failed(fixed("bytes-per-load", options.bytesPerLoad,
                   cost::kMmaBytesPerLoad)))
    return failure();
  if (options.vectorInShared || options.tma)
    return op.emitOpError() << "decode=mma: vector-in-shared and tma apply to "
                               "the CUDA-core kernel only";
  if (options.pinLoads || options.ctaThreads)
    return op.emitOpError()
           << "decode=mma: " << (options.pinLoads ? "pin-loads" : "cta-threads")
           << " applies to the CUDA-core kernel only";
  if (options.ctaReduction == CtaReductionChoice::Cluster)
    return op.emitOpError() << "decode=mma adds the partials of cta-split-k "
                               "through global memory (cta-reduction=global)";
  if (options.ctaSplitK &&
      failed(checkRange(op, "cta-split-k", options.ctaSplitK, 1,
                        ::nvfp4::cost::kMaxCtaSplitK)))
    return failure();
  if (options.rowsPerThread && options.rowsPerThread != 2 &&
      options.rowsPerThread != 4 && options.rowsPerThread != 8)
    return op.emitOpError() << "decode=mma takes rows-per-thread = 2, 4 or 8 "
                               "(two rows of each 16-row tile), got "
                            << options.rowsPerThread;
  if (options.loadsInFlight &&
      failed(checkRange(op, "loads-in-flight", options.loadsInFlight, 1, 4)))
    return failure();
  // A warp a slice: up to a CTA's 32 warps (the CTA's size is checked
  // below, with the row warps).
  if (options.splitK &&
      failed(checkRange(op, "split-k", options.splitK, 1,
                        ::nvfp4::kMaxCtaThreads / ::nvfp4::kWarpSize)))
    return failure();
  MemRefType aType = op.getA().getType();
  cost::GemvGeometry requested;
  requested.rowsPerThread = options.rowsPerThread;
  requested.loadsInFlight = options.loadsInFlight;
  requested.splitK = options.splitK;
  requested.ctaSplitK = options.ctaSplitK;
  requested.rowsPerBlock = options.rowsPerBlock;
  cost::GemvGeometry g = cost::chooseMmaGeometry(costShape(op), chip,
                                                 op.getNumVectors(), requested);
  cfg.rowsPerThread = g.rowsPerThread;
  cfg.lanesPerRow = g.lanesPerRow;
  cfg.bytesPerLoad = g.bytesPerLoad;
  cfg.loadsInFlight = g.loadsInFlight;
  cfg.splitK = g.splitK;
  cfg.ctaSplitK = g.ctaSplitK;
  cfg.clusterReduction = false;
  cfg.onePassSteps = 0;
  cfg.rowsPerBlock = g.rowsPerBlock;
  int64_t warpRows = cost::mmaWarpRows(cfg.rowsPerThread);
  if (cfg.rowsPerBlock % warpRows != 0)
    return op.emitOpError()
           << "decode=mma needs rows-per-block a multiple of the " << warpRows
           << " rows of a warp (8 x rows-per-thread), got " << cfg.rowsPerBlock;
  if (cfg.threads() > ::nvfp4::kMaxCtaThreads)
    return op.emitOpError()
           << "decode=mma: rows-per-block / (8 x rows-per-thread) warps x "
              "split-k = "
           << cfg.threads() / ::nvfp4::kWarpSize
           << " warps; a CTA holds at most 32";
  cost::MmaSlicing slicing =
      cost::sliceMmaK(aType.getDimSize(2), cfg.splitK * cfg.ctaSplitK);
  if (slicing.hasEmptySlice())
    return op.emitOpError()
           << "split-k * cta-split-k = " << cfg.splitK * cfg.ctaSplitK
           << " slices leave some without work: a row has " << slicing.steps
           << " steps of " << cost::kMmaStepBytes << " bytes";
  cfg.pdl = options.pdl;
  // The kernel issues a step's loads and decodes them in turn: carrying the
  // next step's loads through the loop (96 registers instead of 74) was
  // slower on four of the five problem shapes (docs/benchmarks.md).
  cfg.prefetch = false;
  // A lane's rows 32 apart, their blocked scales one load a step, were
  // timed even to 3% slower (docs/benchmarks.md, "a's scales in one load").
  cfg.tma = cfg.vectorInShared = cfg.interleaveRows = cfg.pinLoads = false;
  FailureOr<int64_t> stages = resolveMmaStages(op, options, cfg, slicing);
  if (failed(stages))
    return failure();
  cfg.asyncCopyStages = *stages;
  // Two quads trade 16-byte chunks of whole steps taken in pairs; tiled
  // codes are read in whole 512-byte runs without.
  cfg.quadPairs = options.quadPairs && !cfg.asyncCopyStages &&
                  !op.getTiledCodes() && slicing.fullSteps >= 2;
  // The resident grid's budget, as for the CUDA-core kernel (0.85 of the
  // time on 7168 x 16384 x 1, 0.98-1.01 on the other four problem shapes:
  // docs/benchmarks.md, item 34), unless too small for two MMAs.
  return finishConfig(op, options, cfg,
                      cost::chooseMmaRegisterBudget(launchCtas(op, cfg),
                                                    cfg.launchThreads(),
                                                    op.getNumVectors(), chip));
}

FailureOr<KernelConfig>
mlir::nvfp4::resolveKernelConfig(GemvOp op,
                                 const ConvertNVFP4ToGPUOptions &options) {
  MemRefType aType = op.getA().getType();
  if (!aType.hasStaticShape())
    return op.emitOpError("needs static shapes for the GPU lowering (kernels "
                          "are specialised on M, K and L)");
  for (Value v : gemvBufferOperands(op)) {
    auto t = cast<MemRefType>(v.getType());
    if (!t.hasStaticShape() || !t.getLayout().isIdentity())
      return op.emitOpError("needs static, identity-layout memrefs for the "
                            "GPU lowering");
  }
  if (failed(checkChip(op, options.chip)))
    return failure();
  const ::nvfp4::ChipInfo &chip = *::nvfp4::findChip(options.chip.name);
  int64_t rows = aType.getDimSize(1), rowBytes = aType.getDimSize(2);
  if (rows < 1 || rowBytes < 1 || aType.getDimSize(0) < 1)
    return op.emitOpError() << "needs M, K and L of at least 1 for the GPU "
                               "lowering, got M = "
                            << rows << ", K = " << rowBytes * 2
                            << ", L = " << aType.getDimSize(0);
  KernelConfig cfg;
  cfg.chip = options.chip.name;
  cfg.cacheHints = options.cacheHints;
  cfg.prefetch = options.prefetch;
  FailureOr<DecodeMethod> decode = resolveDecode(op, options, chip);
  if (failed(decode))
    return failure();
  cfg.decode = *decode;
  if (cfg.decode == DecodeMethod::Mma)
    return resolveMmaConfig(op, options, cfg, chip);

  // Check what was given before the cost model fills in the rest.
  if (options.bytesPerLoad && options.bytesPerLoad != 8 &&
      options.bytesPerLoad != 16)
    return op.emitOpError()
           << "bytes-per-load must be 8 or 16, got " << options.bytesPerLoad;
  if (options.bytesPerLoad && rowBytes % options.bytesPerLoad != 0)
    return op.emitOpError()
           << "bytes-per-load = " << options.bytesPerLoad
           << " does not divide the " << rowBytes
           << " bytes of a row (rows must stay aligned to the load)";
  if (options.lanesPerRow &&
      (options.lanesPerRow < 1 || options.lanesPerRow > 32 ||
       !llvm::isPowerOf2_64(options.lanesPerRow)))
    return op.emitOpError() << "lanes-per-row must be a power of two in "
                               "[1, 32], got "
                            << options.lanesPerRow;
  if (options.rowsPerThread &&
      failed(checkRange(op, "rows-per-thread", options.rowsPerThread, 1, 8)))
    return failure();
  if (options.loadsInFlight &&
      failed(checkRange(op, "loads-in-flight", options.loadsInFlight, 1, 8)))
    return failure();
  if (options.splitK &&
      failed(checkRange(op, "split-k", options.splitK, 1, 16)))
    return failure();
  if (options.ctaSplitK &&
      failed(checkRange(op, "cta-split-k", options.ctaSplitK, 1,
                        ::nvfp4::cost::kMaxCtaSplitK)))
    return failure();
  if (options.ctaThreads) {
    if (failed(checkRange(op, "cta-threads", options.ctaThreads,
                          ::nvfp4::kWarpSize, ::nvfp4::kMaxCtaThreads)))
      return failure();
    if (options.ctaThreads % ::nvfp4::kWarpSize != 0)
      return op.emitOpError()
             << "cta-threads must be a multiple of " << ::nvfp4::kWarpSize
             << ", got " << options.ctaThreads;
  }

  ::nvfp4::cost::GemvGeometry requested;
  requested.rowsPerThread = options.rowsPerThread;
  requested.lanesPerRow = options.lanesPerRow;
  requested.bytesPerLoad = options.bytesPerLoad;
  requested.loadsInFlight = options.loadsInFlight;
  requested.splitK = options.splitK;
  requested.ctaSplitK = options.ctaSplitK;
  requested.rowsPerBlock = options.rowsPerBlock;
  ::nvfp4::cost::GemvShape shape = costShape(op);
  ::nvfp4::cost::Targets targets;
  if (options.ctaThreads)
    targets.ctaThreads = options.ctaThreads;
  if (options.ctaReduction != CtaReductionChoice::Global)
    targets.maxCtaSplitK = ::nvfp4::kMaxPortableClusterCtas;
  if (options.ctaReduction == CtaReductionChoice::Cluster &&
      options.ctaSplitK > ::nvfp4::kMaxPortableClusterCtas)
    return op.emitOpError()
           << "cta-reduction=cluster takes cta-split-k <= "
           << ::nvfp4::kMaxPortableClusterCtas << " (a portable cluster), got "
           << options.ctaSplitK;
  ::nvfp4::cost::GemvGeometry g =
      ::nvfp4::cost::chooseGemvGeometry(shape, chip, requested, targets);
  // A tensor map's box holds at most 256 rows: choose again within it.
  if (options.tma && !options.rowsPerBlock &&
      g.rowsPerBlock > ::nvfp4::tensormap::kMaxBoxSize) {
    requested.rowsPerBlock = ::nvfp4::tensormap::kMaxBoxSize;
    g = ::nvfp4::cost::chooseGemvGeometry(shape, chip, requested, targets);
  }
  cfg.rowsPerThread = g.rowsPerThread;
  cfg.lanesPerRow = g.lanesPerRow;
  cfg.bytesPerLoad = g.bytesPerLoad;
  cfg.loadsInFlight = g.loadsInFlight;
  cfg.splitK = g.splitK;
  cfg.ctaSplitK = g.ctaSplitK;
  cfg.rowsPerBlock = g.rowsPerBlock;
  cfg.clusterReduction = cfg.ctaSplitK > 1 &&
                         options.ctaReduction != CtaReductionChoice::Global &&
                         cfg.ctaSplitK <= ::nvfp4::kMaxPortableClusterCtas;

  ::nvfp4::cost::KSlicing slicing = ::nvfp4::cost::sliceK(
      rowBytes, cfg.bytesPerLoad, cfg.lanesPerRow, cfg.splitK * cfg.ctaSplitK);
  if (slicing.hasEmptySlice())
    return op.emitOpError()
           << "split-k * cta-split-k = " << cfg.splitK * cfg.ctaSplitK
           << " slices leave some without work: a row has " << slicing.chunks
           << " loads of " << cfg.bytesPerLoad << " bytes for "
           << cfg.lanesPerRow << " lanes";
  if (cfg.rowsPerBlock % cfg.rowsPerThread != 0)
    return op.emitOpError()
           << "rows-per-block = " << cfg.rowsPerBlock
           << " is not a multiple of rows-per-thread = " << cfg.rowsPerThread;
  if (cfg.threads() < ::nvfp4::kWarpSize ||
      cfg.threads() > ::nvfp4::kMaxCtaThreads ||
      cfg.threads() % ::nvfp4::kWarpSize != 0)
    return op.emitOpError()
           << "rows-per-block / rows-per-thread * lanes-per-row * split-k = "
           << cfg.rowGroups() << " * " << cfg.lanesPerRow << " * " << cfg.splitK
           << " = " << cfg.threads()
           << " threads; a CTA needs a multiple of 32 in [32, 1024]";
  cfg.asyncCopyStages = options.asyncCopyStages;
  if (cfg.asyncCopyStages != 0 &&
      (cfg.asyncCopyStages < 2 || cfg.asyncCopyStages > 8))
    return op.emitOpError() << "async-copy-stages must be 0 or in [2, 8], got "
                            << cfg.asyncCopyStages;
  cfg.tma = options.tma;
  cfg.pdl = options.pdl;
  if (cfg.tma && failed(checkTmaConfig(op, cfg)))
    return failure();
  if (cfg.launchThreads() > ::nvfp4::kMaxCtaThreads)
    return op.emitOpError()
           << "tma adds a producer warp to the " << cfg.threads()
           << " threads; a CTA holds at most 1024";
  // The decoded vector is shared by the CTA only for one vector under dp4a
  // (its prepared words are plain i32) and while it fits the 48 KiB of
  // static shared memory next to the split-k partials.
  cfg.vectorInShared = options.vectorInShared &&
                       cfg.decode == DecodeMethod::Dp4a &&
                       op.getNumVectors() == 1;
  if (cfg.vectorInShared &&
      sharedMemoryBytes(op, cfg) > ::nvfp4::kMaxStaticSharedBytes)
    cfg.vectorInShared = false;
  if (sharedMemoryBytes(op, cfg) > ::nvfp4::kMaxStaticSharedBytes)
    return op.emitOpError()
           << "needs " << sharedMemoryBytes(op, cfg)
           << " bytes of shared memory (async-copy-stages x rows-per-block "
              "x lanes-per-row x split-k x bytes-per-load and the split-k "
              "partials), more than the "
           << ::nvfp4::kMaxStaticSharedBytes << " a kernel may declare";
  cfg.pinLoads = options.pinLoads;
  cfg.onePassSteps = options.onePass && !cfg.tma && !cfg.asyncCopyStages
                         ? ::nvfp4::cost::onePassSteps(slicing, cfg.lanesPerRow,
                                                       cfg.rowsPerThread)
                         : 0;
  // Four rows 32 apart share a 16-byte line of blocked scales; a CTA's row
  // groups must then tile the 32 lines of an atom.
  cfg.interleaveRows = options.interleaveRows && !cfg.tma &&
                       op.getLayout() == ScaleLayout::Blocked128x4 &&
                       cfg.rowsPerThread == 4 && 32 % cfg.rowGroups() == 0;
  return finishConfig(op, options, cfg,
                      ::nvfp4::cost::chooseRegisterBudget(
                          launchCtas(op, cfg), cfg.launchThreads(), cfg.splitK,
                          cfg.bytesPerLoad, chip));
}

/// Rows of A the grid's row blocks of one batch cover: interleaved row
/// groups cover whole atoms of 128 rows.
static int64_t rowsPerGridBlock(const KernelConfig &cfg) {
  return cfg.interleaveRows ? ::nvfp4::layout::kAtomRows : cfg.rowsPerBlock;
}

int64_t mlir::nvfp4::gridRowBlocks(GemvOp op, const KernelConfig &cfg) {
  int64_t rows = op.getA().getType().getDimSize(1);
  int64_t blocks = ::nvfp4::layout::ceilDiv(rows, rowsPerGridBlock(cfg));
  if (cfg.interleaveRows) // 32 row groups for every 128 rows
    return blocks * 32 / cfg.rowGroups();
  return blocks;
}

bool mlir::nvfp4::gridRowsInBounds(GemvOp op, const KernelConfig &cfg) {
  return op.getA().getType().getDimSize(1) % rowsPerGridBlock(cfg) == 0;
}

SmallVector<int64_t>
mlir::nvfp4::splitKWorkspaceShape(GemvOp op, const KernelConfig &cfg) {
  SmallVector<int64_t> shape = {cfg.ctaSplitK,
                                op.getA().getType().getDimSize(0)};
  if (op.hasVectorDim())
    shape.push_back(op.getNumVectors());
  shape.push_back(op.getA().getType().getDimSize(1));
  return shape;
}

int64_t mlir::nvfp4::gridX(GemvOp op, const KernelConfig &cfg) {
  return gridRowBlocks(op, cfg) * cfg.ctaSplitK;
}

int64_t mlir::nvfp4::sharedMemoryBytes(GemvOp op, const KernelConfig &cfg) {
  int64_t bytes = 0;
  if (cfg.splitK > 1)
    bytes += cfg.splitK * cfg.rowsPerBlock * op.getNumVectors() * 4;
  if (cfg.vectorInShared)
    bytes += op.getA().getType().getDimSize(2) / 8 * kPreparedWordsPerUnit * 4;
  if (cfg.clusterReduction) // every CTA's partials, in the first CTA
    bytes += cfg.ctaSplitK * cfg.rowsPerBlock * op.getNumVectors() * 4;
  else if (cfg.ctaSplitK > 1)
    bytes += 4; // the "last CTA" flag
  bytes += asyncCopyBytes(cfg);
  if (cfg.tma)
    bytes += tmaBarrierCount(cfg) * ::nvfp4::kMbarrierBytes;
  return bytes;
}

MmaStageLayout mlir::nvfp4::mmaStageLayout(GemvOp op, const KernelConfig &cfg) {
  int64_t aRows = cfg.rowsPerThread;
  int64_t halves = ::nvfp4::cost::mmasPerChunk(op.getNumVectors());
  MmaStageLayout layout;
  // Packed b: one 16-byte chunk and one scale word a half; 16-bit b: its
  // chunk's 32 values, four slots, and no scales.
  layout.codeSlots = aRows + (op.hasPackedB() ? halves : 4 * halves);
  layout.wordSlots = aRows + (op.hasPackedB() ? halves : 0);
  return layout;
}

int64_t mlir::nvfp4::dynamicSharedBytes(GemvOp op, const KernelConfig &cfg) {
  if (cfg.decode != DecodeMethod::Mma)
    return 0;
  return cfg.asyncCopyStages * cfg.threads() / ::nvfp4::kWarpSize *
         mmaStageLayout(op, cfg).bytes();
}

int64_t mlir::nvfp4::asyncCopyBytes(const KernelConfig &cfg) {
  if (cfg.decode == DecodeMethod::Mma) // dynamic: dynamicSharedBytes
    return 0;
  return cfg.asyncCopyStages * cfg.rowsPerThread * cfg.threads() *
         cfg.bytesPerLoad;
}
