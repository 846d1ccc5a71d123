//===- CPUPipeline.cpp - nvfp4 IR to the LLVM dialect for the host --------===//

#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Pipelines/PipelineBuilders.h"
#include "nvfp4/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::nvfp4::buildCPUPipeline(OpPassManager &pm) {
  pm.addPass(createConvertNVFP4ToLoops());
  // Tests and examples initialise buffers with linalg.fill.
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
  // bf16 rounding is expanded to integer arithmetic so the result needs no
  // compiler-runtime helper; f16 goes through LLVM's fptrunc.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}
