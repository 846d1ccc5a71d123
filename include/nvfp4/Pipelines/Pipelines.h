//===- Pipelines.h - registered nvfp4 pipelines -----------------*- C++ -*-===//

#ifndef NVFP4_PIPELINES_PIPELINES_H
#define NVFP4_PIPELINES_PIPELINES_H

namespace mlir::nvfp4 {
/// Registers --nvfp4-cpu-pipeline, --nvfp4-to-ptx, --nvfp4-to-host-sim and
/// nvfp4-export-kernels.
void registerNVFP4Pipelines();
} // namespace mlir::nvfp4

#endif // NVFP4_PIPELINES_PIPELINES_H
