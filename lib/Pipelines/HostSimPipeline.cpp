//===- HostSimPipeline.cpp - nvfp4 kernels as host code -------------------===//

#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Pipelines/PipelineBuilders.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::nvfp4::buildHostSimPipeline(OpPassManager &pm,
                                       const PTXPipelineOptions &options) {
  // Exactly the device IR the PTX pipeline hands to gpu-module-to-binary.
  buildKernelsToNVVMPasses(pm, options);
  ConvertGPUToHostSimOptions sim;
  sim.prefix = options.exportKernels.prefix;
  pm.addPass(createConvertGPUToHostSim(sim));
  // The host functions that launched the kernels, now calling the launchers.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  // Bare pointers, as for the kernels: a host function taking static
  // memrefs is callable from C with one pointer a buffer.
  ConvertFuncToLLVMPassOptions func;
  func.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(func));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
