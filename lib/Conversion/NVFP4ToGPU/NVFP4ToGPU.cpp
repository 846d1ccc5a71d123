//===- NVFP4ToGPU.cpp - the convert-nvfp4-to-gpu pass ---------------------===//
//
// Outlines every nvfp4 op into its own gpu.module (one PTX file, one
// kernel; two for a two-level quantize) and launches it with
// gpu.launch_func. The launch carries an
// `nvfp4.launch` dictionary, everything a runtime without MLIR needs to
// launch the kernel; nvfp4-export-kernels turns it into a manifest.
//
//===----------------------------------------------------------------------===//

#include "ConvertScaleLayoutKernel.h"
#include "GemvKernel.h"
#include "KernelConfig.h"
#include "QuantizeKernel.h"
#include "TmaCopy.h"
#include "TuningTable.h"

#include "nvfp4/Conversion/Common/GemvOutlining.h"
#include "nvfp4/Conversion/Common/TensorMapIR.h"
#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Support/Chips.h"
#include "nvfp4/Support/ManifestSchema.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_CONVERTNVFP4TOGPU
#include "nvfp4/Conversion/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// Everything the launch needs, for nvfp4-export-kernels.
DictionaryAttr launchInfo(OpBuilder &b, GemvOp op, gpu::GPUFuncOp kernel,
                          const KernelConfig &cfg, int64_t gridX) {
  NamedAttrList attrs = gemvLaunchInfo(b, op, kernel, cfg.chip, gridX,
                                       dynamicSharedBytes(op, cfg));
  if (cfg.tma)
    appendTensorMapsToLaunch(b, attrs, {tmaMap(op, cfg)});
  // The tensor cores sum products, not exact unit dots: the runner's
  // any-order expectation needs to know (docs/numerics.md section 11).
  if (cfg.decode == DecodeMethod::Mma)
    attrs.append(
        ::nvfp4::manifest::key::Sums,
        b.getStringAttr(::nvfp4::ref::name(::nvfp4::ref::GemvSums::Products)));
  NamedAttrList tun;
  tun.append("rows_per_block", b.getI64IntegerAttr(cfg.rowsPerBlock));
  tun.append("rows_per_thread", b.getI64IntegerAttr(cfg.rowsPerThread));
  tun.append("lanes_per_row", b.getI64IntegerAttr(cfg.lanesPerRow));
  tun.append("bytes_per_load", b.getI64IntegerAttr(cfg.bytesPerLoad));
  tun.append("loads_in_flight", b.getI64IntegerAttr(cfg.loadsInFlight));
  tun.append("decode", b.getStringAttr(stringifyDecodeMethod(cfg.decode)));
  tun.append("cache_hints", b.getBoolAttr(cfg.cacheHints));
  tun.append("prefetch", b.getBoolAttr(cfg.prefetch));
  tun.append("split_k", b.getI64IntegerAttr(cfg.splitK));
  tun.append("cta_split_k", b.getI64IntegerAttr(cfg.ctaSplitK));
  tun.append("cta_reduction",
             b.getStringAttr(cfg.ctaSplitK == 1     ? "none"
                             : cfg.clusterReduction ? "cluster"
                                                    : "global"));
  tun.append("vector_in_shared", b.getBoolAttr(cfg.vectorInShared));
  tun.append("async_copy_stages", b.getI64IntegerAttr(cfg.asyncCopyStages));
  tun.append("tma", b.getBoolAttr(cfg.tma));
  tun.append("pdl", b.getBoolAttr(cfg.pdl));
  tun.append("max_registers", b.getI64IntegerAttr(cfg.maxRegisters));
  tun.append("interleave_rows", b.getBoolAttr(cfg.interleaveRows));
  tun.append("pin_loads", b.getBoolAttr(cfg.pinLoads));
  tun.append("row_offsets", b.getBoolAttr(cfg.rowOffsets));
  tun.append("quad_pairs", b.getBoolAttr(cfg.quadPairs));
  tun.append("one_pass_steps", b.getI64IntegerAttr(cfg.onePassSteps));
  tun.append("index_bits", b.getI64IntegerAttr(cfg.indexBits));
  tun.append("static_shared_bytes",
             b.getI64IntegerAttr(sharedMemoryBytes(op, cfg)));
  attrs.append("config", tun.getDictionary(b.getContext()));
  return attrs.getDictionary(b.getContext());
}

std::string kernelName(ConvertScaleLayoutOp op) {
  auto [rows, cols] = convertMatrixSize(op);
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "nvfp4_convert_scale_layout_" << rows << "x" << cols << "x"
     << op.getDest().getType().getDimSize(0) << "_"
     << stringifyScaleLayout(op.getFrom()) << "_to_"
     << stringifyScaleLayout(op.getTo()) << "_"
     << op.getDest().getType().getElementType();
  return name;
}

DictionaryAttr launchInfo(OpBuilder &b, ConvertScaleLayoutOp op, StringRef name,
                          StringRef chip, const ConvertLaunch &launch) {
  auto [rows, cols] = convertMatrixSize(op);
  std::string element;
  llvm::raw_string_ostream os(element);
  os << op.getDest().getType().getElementType();
  namespace schema = ::nvfp4::manifest;
  namespace key = schema::key;
  NamedAttrList attrs;
  attrs.append(key::Kernel, b.getStringAttr(name));
  attrs.append(key::Chip, b.getStringAttr(chip));
  attrs.append(key::Op,
               b.getStringAttr(schema::name(schema::Op::ConvertScaleLayout)));
  attrs.append(key::Rows, b.getI64IntegerAttr(rows));
  attrs.append(key::Cols, b.getI64IntegerAttr(cols));
  attrs.append(key::L, b.getI64IntegerAttr(launch.gridY));
  attrs.append(key::From, b.getStringAttr(stringifyScaleLayout(op.getFrom())));
  attrs.append(key::To, b.getStringAttr(stringifyScaleLayout(op.getTo())));
  attrs.append(key::Element, b.getStringAttr(element));
  attrs.append(key::Grid, b.getI64ArrayAttr({launch.gridX, launch.gridY, 1}));
  attrs.append(key::Block, b.getI64ArrayAttr({launch.threads(), 1, 1}));
  attrs.append(key::SharedBytes, b.getI64IntegerAttr(0));
  attrs.append(key::Params,
               b.getStrArrayAttr({schema::name(schema::Param::Source),
                                  schema::name(schema::Param::Dest)}));
  return attrs.getDictionary(b.getContext());
}

/// nvfp4.gemv -> its own gpu.module + gpu.launch_func (GemvKernel.cpp).
struct GemvLowering : public OpRewritePattern<GemvOp> {
  GemvLowering(MLIRContext *ctx, const ConvertNVFP4ToGPUOptions &options,
               std::shared_ptr<const TuningTable> tuning)
      : OpRewritePattern(ctx), options(options), tuning(std::move(tuning)) {}

  LogicalResult matchAndRewrite(GemvOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkGemvGpuSizes(op)))
      return failure();
    // Invalid options are a located error, not a silent non-match.
    FailureOr<KernelConfig> cfg = resolveKernelConfig(
        op, tuning ? tuning->apply(gemvKernelName(op), options) : options);
    if (failed(cfg))
      return failure();
    auto module = op->getParentOfType<ModuleOp>();
    gpu::GPUFuncOp kernel =
        createGemvKernel(rewriter, module, op, gemvKernelName(op), cfg->chip,
                         cfg->launchThreads());
    setMaxRegisters(kernel, cfg->maxRegisters);
    // The CTAs of a row block form one cluster (.reqnctapercluster): any
    // launch of the kernel groups them, with or without launch attributes.
    if (cfg->clusterReduction)
      kernel->setAttr(
          NVVM::NVVMDialect::getClusterDimAttrName(),
          rewriter.getDenseI32ArrayAttr({int32_t(cfg->ctaSplitK), 1, 1}));
    // The address of a's encoded tensor map.
    SmallVector<::nvfp4::tensormap::TiledMap> maps;
    if (cfg->tma)
      maps.push_back(tmaMap(op, *cfg));
    FailureOr<SmallVector<Value>> extraArgs =
        addTensorMapParams(rewriter, kernel, op, maps);
    if (failed(extraArgs))
      return failure();
    // The NVVM lowering takes the index width from the module's data layout
    // (set before the body: elementPointer reads it).
    if (cfg->indexBits != 64) {
      MLIRContext *ctx = rewriter.getContext();
      DataLayoutEntryInterface index = DataLayoutEntryAttr::get(
          IndexType::get(ctx), rewriter.getI64IntegerAttr(cfg->indexBits));
      kernel->getParentOfType<gpu::GPUModuleOp>()->setAttr(
          DLTIDialect::kDataLayoutAttrName,
          DataLayoutSpecAttr::get(ctx, index));
    }
    if (cfg->decode == DecodeMethod::Mma)
      buildMmaGemvKernelBody(rewriter, kernel, op, *cfg);
    else
      buildGemvKernelBody(rewriter, kernel, op, *cfg);
    int64_t grid = gridX(op, *cfg);
    replaceGemvWithLaunch(
        rewriter, op, kernel, grid, dynamicSharedBytes(op, *cfg),
        launchInfo(rewriter, op, kernel, *cfg, grid), *extraArgs);
    return success();
  }

  ConvertNVFP4ToGPUOptions options;
  std::shared_ptr<const TuningTable> tuning;
};

/// nvfp4.convert_scale_layout -> one thread per destination byte
/// (ConvertScaleLayoutKernel.cpp).
struct ConvertScaleLayoutLowering
    : public OpRewritePattern<ConvertScaleLayoutOp> {
  ConvertScaleLayoutLowering(MLIRContext *ctx, StringRef chip,
                             int64_t maxRegisters)
      : OpRewritePattern(ctx), chip(chip.str()), maxRegisters(maxRegisters) {}

  LogicalResult matchAndRewrite(ConvertScaleLayoutOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkChip(op, chip)))
      return failure();
    MemRefType src = op.getSource().getType();
    SmallVector<std::pair<StringRef, int64_t>> sizes;
    for (int64_t size : src.getShape())
      sizes.push_back({"a source dimension", size});
    if (failed(checkGpuSizes(op, sizes)))
      return failure();
    FailureOr<ConvertLaunch> launchDims = resolveConvertLaunch(op);
    FailureOr<int64_t> budget =
        resolveMaxRegisters(op, maxRegisters, /*mma=*/false, /*chosen=*/0);
    if (failed(launchDims) || failed(budget))
      return failure();
    auto module = op->getParentOfType<ModuleOp>();
    gpu::GPUFuncOp kernel = createBufferKernel(
        rewriter, module, op.getLoc(), kernelName(op), chip,
        {op.getSource(), op.getDest()}, launchDims->threads());
    setMaxRegisters(kernel, *budget);
    buildConvertScaleLayoutKernelBody(rewriter, kernel, op);
    launchBufferKernel(
        rewriter, op, kernel, launchDims->gridX, launchDims->gridY,
        {op.getSource(), op.getDest()},
        launchInfo(rewriter, op, kernel.getName(), chip, *launchDims));
    rewriter.eraseOp(op);
    return success();
  }

  std::string chip;
  int64_t maxRegisters;
};

struct ConvertNVFP4ToGPUPass
    : public mlir::nvfp4::impl::ConvertNVFP4ToGPUBase<ConvertNVFP4ToGPUPass> {
  using Base::Base;

  /// The option values as the struct the patterns take.
  ConvertNVFP4ToGPUOptions currentOptions() const {
    ConvertNVFP4ToGPUOptions options;
    options.chip = chip;
    options.rowsPerBlock = rowsPerBlock;
    options.rowsPerThread = rowsPerThread;
    options.lanesPerRow = lanesPerRow;
    options.bytesPerLoad = bytesPerLoad;
    options.loadsInFlight = loadsInFlight;
    options.decode = decode;
    options.cacheHints = cacheHints;
    options.prefetch = prefetch;
    options.splitK = splitK;
    options.ctaSplitK = ctaSplitK;
    options.ctaReduction = ctaReduction;
    options.vectorInShared = vectorInShared;
    options.asyncCopyStages = asyncCopyStages;
    options.tma = tma;
    options.pdl = pdl;
    options.maxRegisters = maxRegisters;
    options.interleaveRows = interleaveRows;
    options.pinLoads = pinLoads;
    options.rowOffsets = rowOffsets;
    options.quadPairs = quadPairs;
    options.onePass = onePass;
    options.indexBits = indexBits;
    options.ctaThreads = ctaThreads;
    options.tuningTable = tuningTable;
    return options;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ConvertNVFP4ToGPUOptions options = currentOptions();
    if (failed(checkOptionsCopied(module, *this,
                                  *createConvertNVFP4ToGPU(options))))
      return signalPassFailure();
    std::shared_ptr<const TuningTable> tuning;
    if (!options.tuningTable.empty()) {
      FailureOr<TuningTable> table = TuningTable::load(
          module.getLoc(), options.tuningTable, options.chip.name);
      if (failed(table))
        return signalPassFailure();
      tuning = std::make_shared<const TuningTable>(std::move(*table));
    }
    RewritePatternSet patterns(&getContext());
    populateNVFP4ToGPUConversionPatterns(patterns, options, std::move(tuning));
    // One walk in program order, so kernels appear in the order of their
    // ops; a pattern that fails has reported a located error.
    walkAndApplyPatterns(module, std::move(patterns));
    WalkResult left = module.walk([](Operation *op) {
      return isa<NVFP4Dialect>(op->getDialect()) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::nvfp4::populateNVFP4ToGPUConversionPatterns(
    RewritePatternSet &patterns, const ConvertNVFP4ToGPUOptions &options,
    std::shared_ptr<const TuningTable> tuning) {
  patterns.add<GemvLowering>(patterns.getContext(), options, std::move(tuning));
  patterns.add<ConvertScaleLayoutLowering>(patterns.getContext(), options.chip,
                                           options.maxRegisters);
  populateQuantizeToGPUPatterns(patterns, options.chip, options.maxRegisters);
}

FailureOr<ConvertNVFP4ToGPUOptions> mlir::nvfp4::parseConvertNVFP4ToGPUOptions(
    StringRef text, function_ref<LogicalResult(const Twine &)> errorHandler) {
  ConvertNVFP4ToGPUPass pass;
  if (failed(pass.initializeOptions(text, errorHandler)))
    return failure();
  return pass.currentOptions();
}
