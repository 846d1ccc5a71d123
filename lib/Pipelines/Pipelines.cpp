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
  // The GPU pipelines route each option to the pass that declares it.
  auto gpuPipeline = [](void (*build)(OpPassManager &,
                                      const PTXPipelineOptions &)) {
    return [build](OpPassManager &pm, StringRef text,
                   function_ref<LogicalResult(const Twine &)> errorHandler) {
      FailureOr<PTXPipelineOptions> options =
          parsePTXPipelineOptions(text, errorHandler);
      if (failed(options))
        return failure();
      build(pm, *options);
      return success();
    };
  };
  registerPassPipeline(
      "nvfp4-to-ptx",
      "Lower nvfp4.gemv (CUDA cores, or tcgen05 tensor cores with "
      "strategy=tcgen05) and nvfp4.convert_scale_layout to GPU kernels (any "
      "other nvfp4 op, or a gemv of N or 16-bit vectors, is an error), "
      "identical kernels merged, in a gpu.binary holding PTX; with "
      "export-dir also write each kernel's .ptx and .json manifest (and "
      ".cubin with export-cubin=true)",
      gpuPipeline(buildPTXPipeline), describePTXPipelineOptions);
  registerPassPipeline(
      "nvfp4-to-host-sim",
      "Lower nvfp4 ops like --nvfp4-to-ptx, but to host code that the GPU "
      "simulation runtime executes (same options; export-prefix prefixes the "
      "symbols, export-dir and export-cubin are ignored)",
      gpuPipeline(buildHostSimPipeline), describePTXPipelineOptions);
}
