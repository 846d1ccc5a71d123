//===- TensorMaps.h - Tensor-map kernel parameters --------------*- C++ -*-===//
//
// A kernel that reads an operand with the tensor memory accelerator takes a
// pointer to a CUtensorMap, which the host encodes with the driver's
// cuTensorMapEncodeTiled before the launch. The manifest describes each map
// (key::TensorMaps, ManifestSchema.h). This file checks those descriptions
// without a GPU and turns each into the exact arguments of the encode, so
// that a map the driver would refuse, or one reaching outside its buffer
// (which TMA would read), fails the same way on every machine.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUN_TENSORMAPS_H
#define NVFP4_RUN_TENSORMAPS_H

#include "nvfp4-run/Json.h"
#include "nvfp4/Support/ManifestSchema.h"
#include "nvfp4/Support/TensorMap.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nvfp4::run {

/// Highest tensor rank cuTensorMapEncodeTiled takes (TensorMap.h).
inline constexpr uint32_t kMaxTensorMapRank = tensormap::kMaxRank;

/// The arguments of cuTensorMapEncodeTiled but the map and the global
/// address, as the driver takes them (enumerations as their cuda.h values).
struct TensorMapEncode {
  int dataType = 0;
  uint32_t rank = 0;
  /// globalDim: elements of each dimension, innermost first.
  std::array<uint64_t, kMaxTensorMapRank> dims{};
  /// globalStrides: bytes between consecutive indices of dims 1..rank-1
  /// (the innermost dimension is dense).
  std::array<uint64_t, kMaxTensorMapRank - 1> strides{};
  /// boxDim and elementStrides, rank entries each.
  std::array<uint32_t, kMaxTensorMapRank> box{}, elementStrides{};
  int interleave = 0, swizzle = 0, l2Promotion = 0, oobFill = 0;
};

/// One entry of a manifest's key::TensorMaps.
struct TensorMap {
  manifest::Param param = manifest::Param::ATensorMap; // points to the map
  manifest::Param tensor = manifest::Param::A;         // the buffer it maps
  TensorMapEncode encode;
};

/// Reads and checks key::TensorMaps of the manifest `doc` (absent means no
/// maps): one entry per tensor-map parameter in `params` and none other,
/// every field within what the driver accepts, and the region each map
/// describes within its buffer, whose size in bytes is `bufferBytes` of
/// its parameter. On failure returns nullopt and sets `error` to "LINE:COL:
/// message", located at the offending value.
std::optional<std::vector<TensorMap>>
readTensorMaps(const json::Document &doc,
               const std::vector<manifest::Param> &params,
               const std::array<int64_t, manifest::kNumParams> &bufferBytes,
               std::string &error);

} // namespace nvfp4::run

#endif // NVFP4_RUN_TENSORMAPS_H
