//===- PTXPipeline.cpp - nvfp4 IR to gpu.binary with PTX ------------------===//

#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Pipelines/PipelineBuilders.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::nvfp4::buildPTXPipeline(OpPassManager &pm,
                                   const PTXPipelineOptions &options) {
  ConvertNVFP4ToGPUOptions kernel;
  kernel.chip = options.chip;
  kernel.rowsPerBlock = options.rowsPerBlock;
  kernel.rowsPerThread = options.rowsPerThread;
  kernel.lanesPerRow = options.lanesPerRow;
  kernel.bytesPerLoad = options.bytesPerLoad;
  kernel.loadsInFlight = options.loadsInFlight;
  kernel.decode = options.decode;
  kernel.cacheHints = options.cacheHints;
  pm.addPass(createConvertNVFP4ToGPU(kernel));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createSCFToControlFlowPass());
  // Bare pointers: the kernels are specialised on their shapes, so a
  // runtime passes one device pointer per memref.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  device.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  if (!options.exportDir.empty()) {
    NVFP4ExportKernelsOptions exportOptions;
    exportOptions.directory = options.exportDir;
    exportOptions.prefix = options.exportPrefix;
    pm.addPass(createNVFP4ExportKernels(exportOptions));
  }
}
