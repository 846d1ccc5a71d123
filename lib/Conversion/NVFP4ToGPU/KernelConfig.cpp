//===- KernelConfig.cpp - defaults and checks of the GEMV kernel options --===//

#include "KernelConfig.h"

#include "nvfp4/Support/ScaleLayout.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

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
  }
  return "";
}

bool mlir::nvfp4::isBlackwellChip(StringRef chip) {
  return chip == "sm_100a" || chip == "sm_100";
}

LogicalResult mlir::nvfp4::checkChip(Operation *op, StringRef chip) {
  if (isBlackwellChip(chip) || chip == "sm_90a" || chip == "sm_90")
    return success();
  return op->emitOpError() << "unsupported chip '" << chip
                           << "' (expected sm_90a or sm_100a)";
}

/// Splitting K across two lane groups doubles the warps of a launch; it pays
/// when rows alone give fewer than 16 warps an SM (on the H200, 7168 x 16384
/// went from 60% to 70% of copy bandwidth) and each slice keeps at least 4
/// steps to pipeline.
static int64_t defaultSplitK(GemvOp op, const KernelConfig &cfg, int64_t steps,
                             bool isBlackwell) {
  MemRefType a = op.getA().getType();
  int64_t smCount = isBlackwell ? 148 : 132;
  int64_t rowGroups =
      a.getDimSize(0) *
      ((a.getDimSize(1) + cfg.rowsPerThread - 1) / cfg.rowsPerThread);
  int64_t warps = rowGroups * cfg.lanesPerRow / 32;
  if (warps < 16 * smCount && steps % 2 == 0 && steps / 2 >= 4)
    return 2;
  return 1;
}

FailureOr<KernelConfig>
mlir::nvfp4::resolveKernelConfig(GemvOp op,
                                 const ConvertNVFP4ToGPUOptions &options) {
  MemRefType aType = op.getA().getType();
  if (!aType.hasStaticShape())
    return op.emitOpError("needs static shapes for the GPU lowering (kernels "
                          "are specialised on M, K and L)");
  for (Value v : {op.getSfa(), op.getB(), op.getSfb(), op.getC()}) {
    auto t = cast<MemRefType>(v.getType());
    if (!t.hasStaticShape() || !t.getLayout().isIdentity())
      return op.emitOpError("needs static, identity-layout memrefs for the "
                            "GPU lowering");
  }
  if (failed(checkChip(op, options.chip)))
    return failure();
  bool isBlackwell = isBlackwellChip(options.chip);
  int64_t rowBytes = aType.getDimSize(2);
  KernelConfig cfg;
  cfg.chip = options.chip;
  cfg.cacheHints = options.cacheHints;
  cfg.prefetch = options.prefetch;

  std::string decode = options.decode;
  if (decode.empty())
    decode = isBlackwell ? "cvt" : "dp4a";
  auto method = llvm::StringSwitch<std::optional<DecodeMethod>>(decode)
                    .Case("dp4a", DecodeMethod::Dp4a)
                    .Case("cvt", DecodeMethod::Cvt)
                    .Case("f32", DecodeMethod::F32)
                    .Default(std::nullopt);
  if (!method)
    return op.emitOpError() << "unknown decode method '" << decode
                            << "' (expected dp4a, cvt or f32)";
  if (*method == DecodeMethod::Cvt && !isBlackwell)
    return op.emitOpError()
           << "decode=cvt needs sm_100a (cvt.rn.f16x2.e2m1x2), "
              "not "
           << options.chip;
  cfg.decode = *method;

  // A thread works on whole 8-byte units (16 values, one NVFP4 block).
  cfg.bytesPerLoad = options.bytesPerLoad;
  if (cfg.bytesPerLoad == 0)
    cfg.bytesPerLoad = rowBytes % 16 == 0 ? 16 : 8;
  if (cfg.bytesPerLoad != 8 && cfg.bytesPerLoad != 16)
    return op.emitOpError()
           << "bytes-per-load must be 8 or 16, got " << cfg.bytesPerLoad;
  if (rowBytes % cfg.bytesPerLoad != 0)
    return op.emitOpError()
           << "bytes-per-load = " << cfg.bytesPerLoad << " does not divide the "
           << rowBytes << " bytes of a row";

  cfg.lanesPerRow = options.lanesPerRow;
  if (cfg.lanesPerRow == 0) {
    cfg.lanesPerRow = 32;
    while (rowBytes % (cfg.lanesPerRow * cfg.bytesPerLoad) != 0)
      cfg.lanesPerRow /= 2;
  }
  if (cfg.lanesPerRow < 1 || cfg.lanesPerRow > 32 ||
      !llvm::isPowerOf2_64(cfg.lanesPerRow))
    return op.emitOpError() << "lanes-per-row must be a power of two in "
                               "[1, 32], got "
                            << cfg.lanesPerRow;
  if (rowBytes % (cfg.lanesPerRow * cfg.bytesPerLoad) != 0)
    return op.emitOpError()
           << "lanes-per-row * bytes-per-load = "
           << cfg.lanesPerRow * cfg.bytesPerLoad << " does not divide the "
           << rowBytes << " bytes of a row";

  // Defaults from the H200 sweeps of docs/benchmarks.md: four rows a
  // thread, one load of each in flight plus the prefetched next one, 128
  // threads a CTA.
  cfg.rowsPerThread = options.rowsPerThread ? options.rowsPerThread : 4;
  cfg.loadsInFlight = options.loadsInFlight ? options.loadsInFlight : 1;
  int64_t steps = rowBytes / (cfg.lanesPerRow * cfg.bytesPerLoad);
  cfg.splitK = options.splitK ? options.splitK
                              : defaultSplitK(op, cfg, steps, isBlackwell);
  if (cfg.splitK < 1 || cfg.splitK > 16)
    return op.emitOpError() << "split-k must be in [1, 16], got " << cfg.splitK;
  if (steps % cfg.splitK != 0)
    return op.emitOpError()
           << "split-k = " << cfg.splitK << " does not divide the " << steps
           << " steps of lanes-per-row * bytes-per-load bytes in a row";
  cfg.loadsInFlight = std::min(cfg.loadsInFlight, steps / cfg.splitK);
  cfg.rowsPerBlock =
      options.rowsPerBlock
          ? options.rowsPerBlock
          : std::max<int64_t>(128 / cfg.lanesPerRow / cfg.splitK, 1) *
                cfg.rowsPerThread;
  if (cfg.rowsPerThread < 1 || cfg.rowsPerThread > 8 || cfg.loadsInFlight < 1 ||
      cfg.loadsInFlight > 8)
    return op.emitOpError()
           << "rows-per-thread and loads-in-flight must be "
              "in [1, 8], got "
           << cfg.rowsPerThread << " and " << cfg.loadsInFlight;
  if (cfg.rowsPerBlock % cfg.rowsPerThread != 0 || cfg.threads() < 32 ||
      cfg.threads() > 1024 || cfg.threads() % 32 != 0)
    return op.emitOpError()
           << "rows-per-block = " << cfg.rowsPerBlock
           << " with rows-per-thread = " << cfg.rowsPerThread
           << ", lanes-per-row = " << cfg.lanesPerRow
           << " and split-k = " << cfg.splitK << " gives " << cfg.threads()
           << " threads; a CTA needs a multiple of 32 in [32, 1024]";
  cfg.maxRegisters = options.maxRegisters;
  if (cfg.maxRegisters != 0 &&
      (cfg.maxRegisters < 24 || cfg.maxRegisters > 255))
    return op.emitOpError() << "max-registers must be 0 or in [24, 255], got "
                            << cfg.maxRegisters;
  // The decoded vector is shared by the CTA only for dp4a (its prepared
  // words are plain i32) and while it fits the 48 KiB of static shared
  // memory next to the split-k partials.
  cfg.vectorInShared =
      options.vectorInShared && cfg.decode == DecodeMethod::Dp4a;
  if (cfg.vectorInShared && sharedMemoryBytes(op, cfg) > 48 * 1024)
    cfg.vectorInShared = false;
  // Four rows 32 apart share a 16-byte line of blocked scales; a CTA's row
  // groups must then tile the 32 lines of an atom.
  int64_t rowGroups = cfg.rowsPerBlock / cfg.rowsPerThread;
  cfg.interleaveRows =
      options.interleaveRows && op.getLayout() == ScaleLayout::Blocked128x4 &&
      op.getFormat() == ScaleFormat::NVFP4 && cfg.bytesPerLoad == 16 &&
      cfg.rowsPerThread == 4 && 32 % rowGroups == 0;
  return cfg;
}

int64_t mlir::nvfp4::gridRowBlocks(GemvOp op, const KernelConfig &cfg) {
  int64_t rows = op.getA().getType().getDimSize(1);
  if (cfg.interleaveRows) // 32 row groups for every 128 rows
    return ::nvfp4::layout::ceilDiv(rows, 128) * 32 /
           (cfg.rowsPerBlock / cfg.rowsPerThread);
  return ::nvfp4::layout::ceilDiv(rows, cfg.rowsPerBlock);
}

int64_t mlir::nvfp4::sharedMemoryBytes(GemvOp op, const KernelConfig &cfg) {
  int64_t bytes = 0;
  if (cfg.splitK > 1)
    bytes += cfg.splitK * cfg.rowsPerBlock * 4;
  if (cfg.vectorInShared)
    bytes += op.getA().getType().getDimSize(2) * 4; // 4 words per 4 bytes
  return bytes;
}
