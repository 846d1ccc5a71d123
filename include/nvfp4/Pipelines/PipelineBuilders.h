//===- PipelineBuilders.h - nvfp4 pipelines as pass-manager builders -*- C++
//-*-===//

#ifndef NVFP4_PIPELINES_PIPELINEBUILDERS_H
#define NVFP4_PIPELINES_PIPELINEBUILDERS_H

#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace nvfp4 {

/// nvfp4 ops -> loops -> LLVM dialect, runnable with mlir-runner.
void buildCPUPipeline(OpPassManager &pm);

/// Which lowering turns nvfp4.gemv into a kernel.
enum class KernelStrategy { CudaCores, Tcgen05 };

/// The options of the GPU pipelines: those of the passes they run, each
/// declared once, by its pass (Passes.td).
struct PTXPipelineOptions {
  KernelStrategy strategy = KernelStrategy::CudaCores;
  /// convert-nvfp4-to-gpu: every gemv with strategy=cuda-cores, and the
  /// scale-layout conversions with either strategy.
  ConvertNVFP4ToGPUOptions cudaCores;
  /// convert-nvfp4-to-tcgen05: every gemv with strategy=tcgen05.
  ConvertNVFP4ToTcgen05Options tensorCores;
  /// nvfp4-export-kernels, run when exportFiles is set; the host simulation
  /// prefixes its symbols with exportKernels.prefix.
  NVFP4ExportKernelsOptions exportKernels;
  bool exportFiles = false;
};

/// Parses the textual options of the GPU pipelines (`key=value ...`):
/// `strategy` (cuda-cores or tcgen05) is the pipeline's own; `export-<key>`
/// is option `<key>` of nvfp4-export-kernels (giving `export-dir` turns the
/// export on); every other key goes to the kernel passes that declare it. A
/// key only the other strategy's pass declares is an error, and a key both
/// declare (chip) takes one value: the one given or the default of the
/// strategy's pass.
FailureOr<PTXPipelineOptions> parsePTXPipelineOptions(
    StringRef text, function_ref<LogicalResult(const Twine &)> errorHandler);

/// Hands `print` the pipelines' own options, for --help.
void describePTXPipelineOptions(
    function_ref<void(const detail::PassOptions &)> print);

/// nvfp4.gemv -> gpu kernels -> NVVM -> gpu.binary holding PTX.
void buildPTXPipeline(OpPassManager &pm, const PTXPipelineOptions &options);

/// The part of the PTX pipeline that both it and the host simulation run:
/// nvfp4 ops -> gpu.module kernels in the LLVM/NVVM dialects, the IR that
/// gpu-module-to-binary serializes.
void buildKernelsToNVVMPasses(OpPassManager &pm,
                              const PTXPipelineOptions &options);

/// buildKernelsToNVVMPasses, then convert-gpu-to-host-sim (symbols prefixed
/// with export-prefix) and the host code to the LLVM dialect: the kernels the
/// PTX pipeline would assemble, as host code for the simulation runtime.
void buildHostSimPipeline(OpPassManager &pm, const PTXPipelineOptions &options);

} // namespace nvfp4
} // namespace mlir

#endif // NVFP4_PIPELINES_PIPELINEBUILDERS_H
