//===- TmaModel.h - What a tiled tensor copy writes -------------*- C++ -*-===//
//
// cp.async.bulk.tensor.<rank>d.shared::cluster.global.tile (PTX ISA 9.1,
// 9.7.9.25.5) with a map encoded by cuTensorMapEncodeTiled (CUDA driver
// API): the box at the given coordinates, read element by element from the
// tensor the map describes, laid out densely (innermost dimension first) at
// the shared-memory destination, elements outside the tensor filled with
// zeros, and the swizzle pattern of the map applied to the shared address:
// the 16-byte chunk index within a span of 32, 64 or 128 bytes XORed with
// the address bits above it (bit 4 ^= bit 7; bits 4-5 ^= 7-8; bits 4-6 ^=
// 7-9). Written from those documents; it shares nothing with the
// compiler's staging formulas or layouts.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_TOOLS_TCGEN05CHECK_TMAMODEL_H
#define NVFP4_TOOLS_TCGEN05CHECK_TMAMODEL_H

#include "IsaModel.h"

#include "nvfp4-run/TensorMaps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nvfp4::isa {

/// Copies the box of `map` at `coords` (innermost first, one a dimension)
/// from `tensor` (the bytes the map's global address points to) to shared
/// address `dst` of `smem`; `bytes` is set to what the copy counts on its
/// mbarrier (the whole box, fill included). False, with `error` set, for a
/// copy the ISA does not allow (misaligned destination, a swizzle span
/// smaller than the box row) or one the model does not cover (element
/// strides, the NaN fill).
bool tensorCopy(const run::TensorMapEncode &map,
                const std::vector<uint8_t> &tensor,
                const std::vector<int64_t> &coords, uint32_t dst,
                SharedMemory &smem, uint64_t &bytes, std::string &error);

/// The shared address a byte at `address` of a box lands at under the
/// driver's swizzle mode `swizzle` (exposed for tests).
uint32_t swizzledAddress(int swizzle, uint32_t address);

} // namespace nvfp4::isa

#endif // NVFP4_TOOLS_TCGEN05CHECK_TMAMODEL_H
