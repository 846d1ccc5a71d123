//===- Pipelines.cpp - registration of the nvfp4 pipelines ----------------===//

#include "nvfp4/Pipelines/Pipelines.h"
#include "nvfp4/Pipelines/PipelineBuilders.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlir::nvfp4::registerNVFP4Pipelines() {
  registerNVFP4TransformsPasses();
  PassPipelineRegistration<>(
      "nvfp4-cpu-pipeline",
      "Lower nvfp4 ops through loops to the LLVM dialect (for mlir-runner)",
      buildCPUPipeline);
  PassPipelineRegistration<PTXPipelineOptions>(
      "nvfp4-to-ptx",
      "Lower nvfp4.gemv to CUDA-core kernels in a gpu.binary holding PTX",
      buildPTXPipeline);
  PassPipelineRegistration<PTXPipelineOptions>(
      "nvfp4-to-host-sim",
      "Lower nvfp4.gemv like --nvfp4-to-ptx, but to host code that the GPU "
      "simulation runtime executes (same options; export-prefix prefixes the "
      "symbols, export-dir is ignored)",
      buildHostSimPipeline);
}
