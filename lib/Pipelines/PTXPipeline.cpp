//===- PTXPipeline.cpp - nvfp4 IR to gpu.binary with PTX ------------------===//

#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Pipelines/PipelineBuilders.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::nvfp4::buildKernelsToNVVMPasses(OpPassManager &pm,
                                           const PTXPipelineOptions &options) {
  if (options.strategy == KernelStrategy::Tcgen05)
    pm.addPass(createConvertNVFP4ToTcgen05(options.tensorCores));
  // Whatever the tensor-core lowering leaves (scale-layout conversions, or
  // every op with strategy=cuda-cores) becomes CUDA-core kernels.
  pm.addPass(createConvertNVFP4ToGPU(options.cudaCores));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createSCFToControlFlowPass());
  // math.fma must become llvm.intr.fma here: left to convert-gpu-to-nvvm it
  // turns into a libdevice call that only resolves where a CUDA toolkit is
  // found, and the exported PTX would carry an unresolved extern.
  device.addPass(createConvertMathToLLVMPass());
  // Bare pointers: the kernels are specialised on their shapes, so a
  // runtime passes one device pointer per memref.
  // nvgpu (the asynchronous copies of a) to NVVM, before the memrefs it
  // addresses become LLVM values.
  device.addPass(createConvertNVGPUToNVVMPass());
  // The tensor copies' shared-memory boxes are subviews: offsets and
  // strides become plain arithmetic before the memrefs become LLVM values.
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
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
  if (options.exportFiles)
    pm.addPass(createNVFP4ExportKernels(options.exportKernels));
}
