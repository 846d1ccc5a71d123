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

/// Every global stride (dimensions 1 and up) is a multiple of this many
/// bytes, and so is the innermost box dimension in bytes.
inline constexpr int64_t kStrideBytes = 16;
/// Each box dimension holds 1 to this many elements.
inline constexpr int64_t kMaxBoxSize = 256;
/// Dimensions of a tiled tensor map.
inline constexpr int64_t kMaxRank = 5;
/// Alignment of the global address a map describes.
inline constexpr int64_t kGlobalAlignment = 16;
/// Alignment of the shared memory a tensor copy writes.
inline constexpr int64_t kSharedAlignment = 128;
/// Bytes of the encoded map (CUtensorMap), and its alignment in memory.
inline constexpr int64_t kEncodedBytes = 128;
inline constexpr int64_t kEncodedAlignment = 64;

} // namespace nvfp4::tensormap

#endif // NVFP4_SUPPORT_TENSORMAP_H
