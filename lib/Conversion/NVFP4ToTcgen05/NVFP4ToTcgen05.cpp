//===- NVFP4ToTcgen05.cpp - the convert-nvfp4-to-tcgen05 pass -------------===//
//
// Outlines every nvfp4.gemv into its own gpu.module for sm_100a holding one
// tcgen05 kernel (Tcgen05Kernel.cpp), launched by gpu.launch_func with the
// dynamic shared memory the stage ring needs. Like convert-nvfp4-to-gpu, the
// launch carries an `nvfp4.launch` dictionary that nvfp4-export-kernels
// writes out as the kernel's manifest; the kernel ABI is the same (bare
// pointers a, sfa, b, sfb, c, then alpha when present, then the addresses
// of the tensor maps the kernel reads through, as the manifest lists them).
//
//===----------------------------------------------------------------------===//

#include "Tcgen05Emitter.h"

#include "nvfp4/Conversion/Common/GemvOutlining.h"
#include "nvfp4/Conversion/Common/TensorMapIR.h"
#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Support/Chips.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_CONVERTNVFP4TOTCGEN05
#include "nvfp4/Conversion/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;
namespace plan = ::nvfp4::tcgen05::plan;

namespace {

/// Everything a runtime needs to launch the kernel (see docs/nvfp4-run.md),
/// plus the strategy and the plan's choices.
DictionaryAttr launchInfo(OpBuilder &b, GemvOp op, gpu::GPUFuncOp kernel,
                          StringRef chip, const plan::GemvPlan &p) {
  NamedAttrList attrs =
      gemvLaunchInfo(b, op, kernel, chip, p.rowTiles(), p.sharedBytes());
  attrs.append("strategy", b.getStringAttr("tcgen05"));
  NamedAttrList config;
  config.append("stages", b.getI64IntegerAttr(p.stages));
  config.append("stage_k", b.getI64IntegerAttr(p.stageK()));
  config.append(
      "mma", b.getStringAttr(p.mxfp4 ? "tcgen05.mma.kind::mxf4.block32"
                                     : "tcgen05.mma.kind::mxf4nvf4.block16"));
  config.append("mma_shape", b.getI64ArrayAttr({plan::kTileRows, p.mmaN(),
                                                ::nvfp4::tcgen05::kMmaK}));
  config.append("tmem_columns", b.getI64IntegerAttr(p.tmemAllocColumns()));
  config.append("copy_bytes", b.getI64IntegerAttr(p.chunkBytes()));
  config.append("tma_a", b.getBoolAttr(p.tmaA()));
  config.append("tma_sfa", b.getBoolAttr(p.tmaSfa()));
  attrs.append("config", config.getDictionary(b.getContext()));
  std::vector<::nvfp4::tensormap::TiledMap> maps = p.tensorMaps();
  appendTensorMapsToLaunch(b, attrs, maps);
  return attrs.getDictionary(b.getContext());
}

/// Fails with an error on `op` unless the tcgen05 kernel implements its
/// form: packed e2m1 vectors (b [L, K/2] or [L, N, K/2] with static N; the
/// op's verifier bounds N to 1..16).
LogicalResult checkTcgen05Form(GemvOp op) {
  MemRefType b = op.getB().getType();
  if (op.getTiledCodes())
    return op.emitOpError("has no tcgen05 kernel for tiled_codes (its copies "
                          "read a's rows as they are); --convert-nvfp4-to-gpu "
                          "(decode=mma) and --nvfp4-cpu-pipeline lower it");
  if (!op.hasPackedB())
    return op.emitOpError()
           << "has no tcgen05 kernel for b of " << b.getElementType()
           << " values (it takes vectors of packed e2m1); "
              "--convert-nvfp4-to-gpu and --nvfp4-cpu-pipeline lower it";
  if (ShapedType::isDynamic(op.getNumVectors()))
    return op.emitOpError()
           << "has no tcgen05 kernel for a dynamic number of vectors (the "
              "kernel is specialised on N); --convert-nvfp4-to-gpu and "
              "--nvfp4-cpu-pipeline lower it";
  return success();
}

/// nvfp4.gemv -> its own gpu.module with a tcgen05 kernel + gpu.launch_func.
struct GemvToTcgen05Lowering : public OpRewritePattern<GemvOp> {
  GemvToTcgen05Lowering(MLIRContext *ctx,
                        const ConvertNVFP4ToTcgen05Options &options)
      : OpRewritePattern(ctx), options(options) {}

  FailureOr<plan::GemvPlan> makePlan(GemvOp op) const {
    const ::nvfp4::ChipInfo *info = ::nvfp4::findChip(options.chip.name);
    if (!info || !info->tcgen05)
      return op.emitOpError() << "the tcgen05 lowering targets sm_100a, not '"
                              << options.chip.name << "'";
    for (Value v :
         {op.getA(), op.getSfa(), op.getB(), op.getSfb(), op.getC()}) {
      auto t = cast<MemRefType>(v.getType());
      if (!t.hasStaticShape() || !t.getLayout().isIdentity())
        return op.emitOpError("needs static, identity-layout memrefs for the "
                              "tcgen05 lowering (kernels are specialised on M, "
                              "K and L)");
    }
    MemRefType a = op.getA().getType();
    plan::GemvPlan p = plan::GemvPlan::of(
        a.getDimSize(1), a.getDimSize(2) * 2, a.getDimSize(0),
        op.getFormat() == ScaleFormat::MXFP4,
        op.getLayout() == ScaleLayout::Blocked128x4, options.stages,
        options.tmaCopies);
    p.vectors = op.getNumVectors();
    std::string why;
    if (!p.isValid(&why))
      return op.emitOpError() << "cannot lower to tcgen05: " << why;
    return p;
  }

  LogicalResult matchAndRewrite(GemvOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTcgen05Form(op)) || failed(checkGemvGpuSizes(op)))
      return failure();
    FailureOr<plan::GemvPlan> p = makePlan(op);
    if (failed(p))
      return failure();
    gpu::GPUFuncOp kernel = createGemvKernel(
        rewriter, op->getParentOfType<ModuleOp>(), op,
        gemvKernelName(op, "_tcgen05"), options.chip, plan::kThreads);
    // How the scale factors reach the 128x4 atoms tcgen05.cp reads.
    kernel->setAttr(kScaleStagingAttrName,
                    rewriter.getStringAttr(p->blocked
                                               ? kStagingBlockedCopy
                                               : kStagingLinearToBlocked));
    std::vector<::nvfp4::tensormap::TiledMap> maps = p->tensorMaps();
    FailureOr<SmallVector<Value>> mapArgs =
        addTensorMapParams(rewriter, kernel, op, maps);
    if (failed(mapArgs))
      return failure();
    tc5::buildTcgen05GemvKernelBody(rewriter, kernel, op, *p);
    replaceGemvWithLaunch(rewriter, op, kernel, p->rowTiles(), p->sharedBytes(),
                          launchInfo(rewriter, op, kernel, options.chip, *p),
                          *mapArgs);
    return success();
  }

  ConvertNVFP4ToTcgen05Options options;
};

struct ConvertNVFP4ToTcgen05Pass
    : public mlir::nvfp4::impl::ConvertNVFP4ToTcgen05Base<
          ConvertNVFP4ToTcgen05Pass> {
  using Base::Base;

  /// The option values as the struct the patterns take.
  ConvertNVFP4ToTcgen05Options currentOptions() const {
    ConvertNVFP4ToTcgen05Options options;
    options.chip = chip;
    options.stages = stages;
    options.tmaCopies = tmaCopies;
    return options;
  }

  void runOnOperation() override {
    ConvertNVFP4ToTcgen05Options options = currentOptions();
    if (failed(checkOptionsCopied(getOperation(), *this,
                                  *createConvertNVFP4ToTcgen05(options))))
      return signalPassFailure();
    // The other ops are left to convert-nvfp4-to-gpu.
    RewritePatternSet patterns(&getContext());
    populateNVFP4ToTcgen05ConversionPatterns(patterns, options);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    WalkResult left =
        getOperation().walk([](GemvOp) { return WalkResult::interrupt(); });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::nvfp4::populateNVFP4ToTcgen05ConversionPatterns(
    RewritePatternSet &patterns, const ConvertNVFP4ToTcgen05Options &options) {
  patterns.add<GemvToTcgen05Lowering>(patterns.getContext(), options);
}

FailureOr<ConvertNVFP4ToTcgen05Options>
mlir::nvfp4::parseConvertNVFP4ToTcgen05Options(
    StringRef text, function_ref<LogicalResult(const Twine &)> errorHandler) {
  ConvertNVFP4ToTcgen05Pass pass;
  if (failed(pass.initializeOptions(text, errorHandler)))
    return failure();
  return pass.currentOptions();
}
