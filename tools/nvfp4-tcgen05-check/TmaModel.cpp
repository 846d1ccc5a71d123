//===- TmaModel.cpp - What a tiled tensor copy writes to shared memory ----===//

#include "TmaModel.h"

#include "nvfp4-run/CudaDriver.h"

namespace nvfp4::isa {

namespace cuda = run::cuda;

namespace {

int64_t elementBytes(int dataType) {
  switch (dataType) {
  case cuda::CU_TENSOR_MAP_DATA_TYPE_UINT8:
    return 1;
  case cuda::CU_TENSOR_MAP_DATA_TYPE_UINT16:
    return 2;
  case cuda::CU_TENSOR_MAP_DATA_TYPE_UINT32:
    return 4;
  case cuda::CU_TENSOR_MAP_DATA_TYPE_UINT64:
    return 8;
  }
  return 0;
}

/// Bytes of the span a swizzle mode permutes chunks within (0: none).
uint32_t swizzleSpan(int swizzle) {
  switch (swizzle) {
  case cuda::CU_TENSOR_MAP_SWIZZLE_32B:
    return 32;
  case cuda::CU_TENSOR_MAP_SWIZZLE_64B:
    return 64;
  case cuda::CU_TENSOR_MAP_SWIZZLE_128B:
    return 128;
  }
  return 0;
}

bool fail(std::string &error, const std::string &message) {
  error = message;
  return false;
}

} // namespace

uint32_t swizzledAddress(int swizzle, uint32_t address) {
  // The span holds span / 16 chunks: that many low bits of the 128-byte
  // row index (bits 7 and up) select the chunk permutation.
  uint32_t span = swizzleSpan(swizzle);
  if (span == 0)
    return address;
  uint32_t mask = span / 16 - 1;
  return address ^ (((address >> 7) & mask) << 4);
}

bool tensorCopy(const run::TensorMapEncode &map,
                const std::vector<uint8_t> &tensor,
                const std::vector<int64_t> &coords, uint32_t dst,
                SharedMemory &smem, uint64_t &bytes, std::string &error) {
  size_t rank = map.rank;
  int64_t element = elementBytes(map.dataType);
  if (element == 0)
    return fail(error, "tensor copy: data type " +
                           std::to_string(map.dataType) + " is not modelled");
  if (coords.size() != rank)
    return fail(error, "tensor copy: " + std::to_string(coords.size()) +
                           " coordinates for a rank-" + std::to_string(rank) +
                           " map");
  for (size_t d = 0; d < rank; ++d)
    if (map.elementStrides[d] != 1)
      return fail(error, "tensor copy: element strides are not modelled");
  if (map.oobFill != cuda::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
    return fail(error, "tensor copy: only the zero fill is modelled");
  // The ISA: the shared-memory destination of a tensor copy is 128-byte
  // aligned.
  if (dst % 128 != 0)
    return fail(error, "tensor copy to shared address " + std::to_string(dst) +
                           ", not 128-byte aligned");
  int64_t rowBytes = int64_t(map.box[0]) * element;
  uint32_t span = swizzleSpan(map.swizzle);
  // A swizzled box row fills its span (the driver refuses wider rows; a
  // narrower one would need the padding rule, which is not modelled).
  if (span != 0 && rowBytes != int64_t(span))
    return fail(error, "tensor copy: box rows of " + std::to_string(rowBytes) +
                           " bytes with a " + std::to_string(span) +
                           "-byte swizzle are not modelled");

  // Byte strides of the tensor, innermost first.
  std::vector<int64_t> stride(rank, element);
  for (size_t d = 1; d < rank; ++d)
    stride[d] = int64_t(map.strides[d - 1]);
  int64_t boxElements = 1;
  for (size_t d = 0; d < rank; ++d)
    boxElements *= map.box[d];
  bytes = uint64_t(boxElements * element);

  std::vector<int64_t> index(rank, 0); // within the box, innermost first
  for (int64_t e = 0; e < boxElements; ++e) {
    int64_t rest = e;
    bool inside = true;
    int64_t source = 0;
    for (size_t d = 0; d < rank; ++d) {
      index[d] = rest % map.box[d];
      rest /= map.box[d];
      int64_t at = coords[d] + index[d];
      inside &= at >= 0 && at < int64_t(map.dims[d]);
      source += at * stride[d];
    }
    for (int64_t i = 0; i < element; ++i) {
      uint8_t v = 0;
      if (inside) {
        if (source + i < 0 || size_t(source + i) >= tensor.size())
          return fail(error, "tensor copy reads past the tensor's buffer");
        v = tensor[size_t(source + i)];
      }
      uint32_t address =
          swizzledAddress(map.swizzle, dst + uint32_t(e * element + i));
      if (address < smem.base ||
          address - smem.base >= uint32_t(smem.bytes.size()))
        return fail(error, "tensor copy writes past the shared memory");
      smem.bytes[address - smem.base] = v;
    }
  }
  return true;
}

} // namespace nvfp4::isa
