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

void mlir::nvfp4::buildKernelsToNVVMPasses(OpPassManager &pm,
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
  kernel.prefetch = options.prefetch;
  kernel.splitK = options.splitK;
  kernel.ctaSplitK = options.ctaSplitK;
  kernel.vectorInShared = options.vectorInShared;
  kernel.maxRegisters = options.maxRegisters;
  kernel.interleaveRows = options.interleaveRows;
  if (options.strategy == KernelStrategy::Tcgen05) {
    ConvertNVFP4ToTcgen05Options tensorCores;
    tensorCores.chip = options.chip;
    tensorCores.stages = options.stages;
    pm.addPass(createConvertNVFP4ToTcgen05(tensorCores));
  }
  // Whatever the tensor-core lowering leaves (scale-layout conversions, or
  // every op with strategy=cuda-cores) becomes CUDA-core kernels.
  pm.addPass(createConvertNVFP4ToGPU(kernel));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createSCFToControlFlowPass());
  // math.fma must become llvm.intr.fma here: left to convert-gpu-to-nvvm it
  // turns into a libdevice call that only resolves where a CUDA toolkit is
  // found, and the exported PTX would carry an unresolved extern.
  device.addPass(createConvertMathToLLVMPass());
  // Bare pointers: the kernels are specialised on their shapes, so a
  // runtime passes one device pointer per memref.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  device.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::nvfp4::buildPTXPipeline(OpPassManager &pm,
                                   const PTXPipelineOptions &options) {
  buildKernelsToNVVMPasses(pm, options);
  pm.addPass(createNVFP4DedupKernels());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  if (!options.exportDir.empty()) {
    NVFP4ExportKernelsOptions exportOptions;
    exportOptions.directory = options.exportDir;
    exportOptions.prefix = options.exportPrefix;
    exportOptions.cubin = options.cubin;
    pm.addPass(createNVFP4ExportKernels(exportOptions));
  }
}
