//===- TmaCopy.h - a's tensor map and boxes (tma) ---------------*- C++ -*-===//
//
// With the `tma` option the CUDA-core kernel reads a through a tiled tensor
// map: a viewed as [L][M][K / 16] 8-byte elements, one box per K slice and
// step of rows-per-block rows x lanes-per-row 16-byte chunks. The box shape
// is written three times (the shared-memory stages, the nvgpu descriptor
// type, the manifest's tensor map); all three come from here.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_LIB_CONVERSION_NVFP4TOGPU_TMACOPY_H
#define NVFP4_LIB_CONVERSION_NVFP4TOGPU_TMACOPY_H

#include "KernelConfig.h"

#include "nvfp4/Support/TensorMap.h"

namespace mlir::nvfp4 {

/// Bytes of one element of a's map (8: a 16-byte chunk is two elements).
int64_t tmaElementBytes();

/// [stages x split-k boxes, rows-per-block, elements of a step] of i64: the
/// shared-memory stages, one box after the other.
SmallVector<int64_t> tmaStageShape(const KernelConfig &cfg);

/// [1, rows, 8-byte elements] of one box of `op`: a box place of
/// tmaStageShape, cut to the tensor where it is smaller.
SmallVector<int64_t> tmaBoxShape(GemvOp op, const KernelConfig &cfg);

/// mbarriers of the stages: a full one per stage (the copies' bytes), then
/// an empty one per stage (the consumer warps' releases).
int64_t tmaBarrierCount(const KernelConfig &cfg);

/// a's tensor map for `op` (the kernel's last parameter).
::nvfp4::tensormap::TiledMap tmaMap(GemvOp op, const KernelConfig &cfg);

} // namespace mlir::nvfp4

#endif // NVFP4_LIB_CONVERSION_NVFP4TOGPU_TMACOPY_H
