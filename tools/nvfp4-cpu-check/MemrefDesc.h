//===- MemrefDesc.h - nvfp4-cpu-check: buffers as memref descriptors -*- C++
//-*-===//
//
// The compiled kernels take MLIR's memref descriptor (StridedMemRefType,
// header only: nothing of MLIR is linked). Every buffer is described as
// bytes: the descriptor's element type only matters to the kernel, which
// reads the sizes and strides.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TOOLS_CPU_CHECK_MEMREFDESC_H
#define NVFP4_TOOLS_CPU_CHECK_MEMREFDESC_H

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <cstdint>

namespace nvfp4::cpucheck {

template <int N> using Memref = StridedMemRefType<uint8_t, N>;
using D2 = Memref<2>;
using D3 = Memref<3>;
using D4 = Memref<4>;

/// Descriptor of a contiguous row-major buffer.
template <int N> Memref<N> desc(void *data, const int64_t (&sizes)[N]) {
  Memref<N> d;
  d.basePtr = d.data = static_cast<uint8_t *>(data);
  d.offset = 0;
  int64_t stride = 1;
  for (int i = N - 1; i >= 0; --i) {
    d.sizes[i] = sizes[i];
    d.strides[i] = stride;
    stride *= sizes[i];
  }
  return d;
}

} // namespace nvfp4::cpucheck

#endif // NVFP4_TOOLS_CPU_CHECK_MEMREFDESC_H
