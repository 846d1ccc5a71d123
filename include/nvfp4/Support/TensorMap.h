//===- TensorMap.h - What a tensor map can describe -------------*- C++ -*-===//
//
// The limits of a tiled tensor map (CUtensorMap, encoded by
// cuTensorMapEncodeTiled) that both the compiler, choosing the boxes of its
// tensor-memory-accelerator copies, and the runner, checking a manifest's
// tensor maps, rely on. Plain C++, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_TENSORMAP_H
#define NVFP4_SUPPORT_TENSORMAP_H

#include <cstdint>

namespace nvfp4::tensormap {

/// Dimensions of a tiled tensor map.
inline constexpr int64_t kMaxRank = 5;
/// Elements of one dimension (globalDim).
inline constexpr int64_t kMaxDim = int64_t(1) << 32;
/// Byte stride of a dimension (globalStrides), below 2^40.
inline constexpr int64_t kMaxStride = (int64_t(1) << 40) - 1;
/// Every global stride (dimensions 1 and up) is a multiple of this many
/// bytes, and so is the innermost box dimension in bytes.
inline constexpr int64_t kStrideBytes = 16;
/// Each box dimension holds 1 to this many elements.
inline constexpr int64_t kMaxBoxSize = 256;
/// Largest element stride (elementStrides) of a dimension.
inline constexpr int64_t kMaxElementStride = 8;
/// Alignment of the shared memory a tensor copy writes.
inline constexpr int64_t kSharedAlignment = 128;

} // namespace nvfp4::tensormap

#endif // NVFP4_SUPPORT_TENSORMAP_H
