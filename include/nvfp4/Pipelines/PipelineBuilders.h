//===- PipelineBuilders.h - nvfp4 pipelines as pass-manager builders -*- C++
//-*-===//

#ifndef NVFP4_PIPELINES_PIPELINEBUILDERS_H
#define NVFP4_PIPELINES_PIPELINEBUILDERS_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace nvfp4 {

/// nvfp4 ops -> loops -> LLVM dialect, runnable with mlir-runner.
void buildCPUPipeline(OpPassManager &pm);

/// Which lowering turns nvfp4.gemv into a kernel.
enum class KernelStrategy { CudaCores, Tcgen05 };

/// The options of convert-nvfp4-to-gpu (strategy=cuda-cores) or
/// convert-nvfp4-to-tcgen05 (strategy=tcgen05) plus where to export the
/// kernels.
struct PTXPipelineOptions : public PassPipelineOptions<PTXPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip (sm_90a, sm_100a)"),
                           llvm::cl::init("sm_90a")};
  Option<int64_t> rowsPerBlock{
      *this, "rows-per-block",
      llvm::cl::desc("Rows a CTA reduces (0: default)"), llvm::cl::init(0)};
  Option<int64_t> rowsPerThread{
      *this, "rows-per-thread",
      llvm::cl::desc("Rows a thread reduces at once (0: default)"),
      llvm::cl::init(0)};
  Option<int64_t> lanesPerRow{*this, "lanes-per-row",
                              llvm::cl::desc("Threads per row (0: default)"),
                              llvm::cl::init(0)};
  Option<int64_t> bytesPerLoad{*this, "bytes-per-load",
                               llvm::cl::desc("8 or 16 (0: default)"),
                               llvm::cl::init(0)};
  Option<int64_t> loadsInFlight{
      *this, "loads-in-flight",
      llvm::cl::desc("Loads issued before first use (0: default)"),
      llvm::cl::init(0)};
  Option<std::string> decode{
      *this, "decode", llvm::cl::desc("dp4a, cvt or f32 (empty: default)"),
      llvm::cl::init("")};
  Option<bool> cacheHints{*this, "cache-hints",
                          llvm::cl::desc("Streaming loads for a"),
                          llvm::cl::init(true)};
  Option<bool> prefetch{*this, "prefetch",
                        llvm::cl::desc("Load the next group before decoding"),
                        llvm::cl::init(true)};
  Option<bool> vectorInShared{
      *this, "vector-in-shared",
      llvm::cl::desc("Decode b once per CTA into shared memory"),
      llvm::cl::init(false)};
  Option<bool> interleaveRows{
      *this, "interleave-rows",
      llvm::cl::desc("Blocked scales: rows 32 apart per thread"),
      llvm::cl::init(true)};
  Option<int64_t> maxRegisters{
      *this, "max-registers",
      llvm::cl::desc("Register cap per thread (0: none)"), llvm::cl::init(0)};
  Option<int64_t> splitK{*this, "split-k",
                         llvm::cl::desc("Lane groups splitting a row's K "
                                        "(0: default)"),
                         llvm::cl::init(0)};
  Option<int64_t> ctaSplitK{
      *this, "cta-split-k",
      llvm::cl::desc("CTAs splitting a row's K, reduced in a fixed order "
                     "(0: default)"),
      llvm::cl::init(0)};
  Option<KernelStrategy> strategy{
      *this, "strategy", llvm::cl::desc("Which kernel the gemv becomes"),
      llvm::cl::init(KernelStrategy::CudaCores),
      llvm::cl::values(
          clEnumValN(KernelStrategy::CudaCores, "cuda-cores",
                     "CUDA-core decode (convert-nvfp4-to-gpu)"),
          clEnumValN(KernelStrategy::Tcgen05, "tcgen05",
                     "Blackwell tensor cores (convert-nvfp4-to-tcgen05, "
                     "chip=sm_100a)"))};
  Option<int64_t> stages{
      *this, "stages",
      llvm::cl::desc("strategy=tcgen05: shared-memory ring slots (1-8)"),
      llvm::cl::init(4)};
  Option<std::string> exportDir{
      *this, "export-dir",
      llvm::cl::desc("Also write <kernel>.ptx and <kernel>.json here"),
      llvm::cl::init("")};
  Option<std::string> exportPrefix{
      *this, "export-prefix", llvm::cl::desc("Prefix of the exported files"),
      llvm::cl::init("")};
  Option<bool> cubin{
      *this, "cubin",
      llvm::cl::desc("With export-dir: also assemble <kernel>.cubin with "
                     "ptxas (an error where ptxas is not found)"),
      llvm::cl::init(false)};
};

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
