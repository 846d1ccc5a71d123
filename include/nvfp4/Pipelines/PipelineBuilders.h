//===- PipelineBuilders.h - nvfp4 pipelines as pass-manager builders -*- C++ -*-===//

#ifndef NVFP4_PIPELINES_PIPELINEBUILDERS_H
#define NVFP4_PIPELINES_PIPELINEBUILDERS_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace nvfp4 {

/// nvfp4 ops -> loops -> LLVM dialect, runnable with mlir-runner.
void buildCPUPipeline(OpPassManager &pm);

/// The options of convert-nvfp4-to-gpu plus where to export the kernels.
struct PTXPipelineOptions : public PassPipelineOptions<PTXPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip (sm_90a, sm_100a)"),
                           llvm::cl::init("sm_90a")};
  Option<int64_t> rowsPerBlock{*this, "rows-per-block",
                               llvm::cl::desc("Rows a CTA reduces (0: default)"),
                               llvm::cl::init(0)};
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
  Option<std::string> decode{*this, "decode",
                             llvm::cl::desc("dp4a, cvt or f32 (empty: default)"),
                             llvm::cl::init("")};
  Option<bool> cacheHints{*this, "cache-hints",
                          llvm::cl::desc("Streaming loads for a"),
                          llvm::cl::init(true)};
  Option<std::string> exportDir{
      *this, "export-dir",
      llvm::cl::desc("Also write <kernel>.ptx and <kernel>.json here"),
      llvm::cl::init("")};
  Option<std::string> exportPrefix{
      *this, "export-prefix", llvm::cl::desc("Prefix of the exported files"),
      llvm::cl::init("")};
};

/// nvfp4.gemv -> gpu kernels -> NVVM -> gpu.binary holding PTX.
void buildPTXPipeline(OpPassManager &pm, const PTXPipelineOptions &options);

} // namespace nvfp4
} // namespace mlir

#endif // NVFP4_PIPELINES_PIPELINEBUILDERS_H
