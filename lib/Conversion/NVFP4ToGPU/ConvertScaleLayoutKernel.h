//===- ConvertScaleLayoutKernel.h - scale layout conversion kernel -*- C++
//-*-===//
//
// The GPU kernel of nvfp4.convert_scale_layout: one thread per destination
// word (or byte), so consecutive threads write consecutive bytes and the
// padding of a blocked destination is zeroed by the same launch.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_LIB_CONVERSION_NVFP4TOGPU_CONVERTSCALELAYOUTKERNEL_H
#define NVFP4_LIB_CONVERSION_NVFP4TOGPU_CONVERTSCALELAYOUTKERNEL_H

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::nvfp4 {

/// Threads of one CTA of the conversion kernel.
inline constexpr int64_t kConvertThreads = 256;

/// Destination bytes a thread writes (layout::conversionBytesPerThread).
int64_t convertBytesPerThread(ConvertScaleLayoutOp op);

/// Launch geometry of the conversion of `op`: a CTA covers kConvertThreads
/// consecutive pieces of convertBytesPerThread bytes of one batch of the
/// destination; grid = (CTAs a batch, L, 1).
struct ConvertLaunch {
  int64_t gridX, gridY;
  int64_t threads() const { return kConvertThreads; }
};

/// Checks that `op` can be lowered (static, identity-layout memrefs) and
/// returns its launch geometry; reports a located error otherwise.
FailureOr<ConvertLaunch> resolveConvertLaunch(ConvertScaleLayoutOp op);

/// The logical scale matrix of `op` as (rows, cols): the linear side's
/// sizes, or the padded sizes when both sides are blocked.
std::pair<int64_t, int64_t> convertMatrixSize(ConvertScaleLayoutOp op);

/// Fills the entry block of `kernel`, whose arguments are (source, dest).
void buildConvertScaleLayoutKernelBody(OpBuilder &b, gpu::GPUFuncOp kernel,
                                       ConvertScaleLayoutOp op);

} // namespace mlir::nvfp4

#endif // NVFP4_LIB_CONVERSION_NVFP4TOGPU_CONVERTSCALELAYOUTKERNEL_H
