//===- TensorMap.h - What a tensor map can describe -------------*- C++ -*-===//
//
// The limits of a tiled tensor map (CUtensorMap, encoded by
// cuTensorMapEncodeTiled) that both the compiler, choosing the boxes of its
// tensor-memory-accelerator copies, and the runner, checking a manifest's
// tensor maps, rely on; and TiledMap, the compiler's description of one map,
// which a lowering fills once and the IR helpers spell as the nvgpu
// descriptor type and the manifest entry. Plain C++, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_TENSORMAP_H
#define NVFP4_SUPPORT_TENSORMAP_H

#include "nvfp4/Support/ManifestSchema.h"

#include <cstdint>
#include <vector>

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

/// One tiled tensor map as a kernel reads through it: the arguments of
/// cuTensorMapEncodeTiled (element strides all 1, no interleave) and the
/// parameter that passes it. Sizes innermost first.
struct TiledMap {
  manifest::Param param = manifest::Param::ATensorMap;
  manifest::Param tensor = manifest::Param::A;
  manifest::MapDataType dataType = manifest::MapDataType::UInt8;
  /// Elements of each dimension; bytes between consecutive indices of
  /// dimensions 1 and up; elements of the box in each dimension.
  std::vector<int64_t> dims, strides, box;
  manifest::MapSwizzle swizzle = manifest::MapSwizzle::None;
  manifest::MapL2Promotion l2Promotion = manifest::MapL2Promotion::None;
  manifest::MapOobFill oobFill = manifest::MapOobFill::Zero;

  int64_t elementBytes() const { return manifest::elementBytes(dataType); }
  /// Bytes one copy of a box writes (out-of-bounds fill included): what
  /// its mbarrier transaction count expects.
  int64_t boxBytes() const {
    int64_t bytes = elementBytes();
    for (int64_t size : box)
      bytes *= size;
    return bytes;
  }
};

} // namespace nvfp4::tensormap

#endif // NVFP4_SUPPORT_TENSORMAP_H
