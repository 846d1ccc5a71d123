//===- Kernels.h - nvfp4-cpu-check: calling the compiled kernels -*- C++
//-*-===//
//
// The kernels of Kernels.mlir, compiled through --nvfp4-cpu-pipeline and
// linked into the executable, called through their C interfaces on host
// buffers in the canonical storage of Reference.h. Every output buffer is
// poisoned (0xFF bytes: NaN) before the call, so an element a kernel never
// writes fails.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_CPU_CHECK_KERNELS_H
#define NVFP4_CPU_CHECK_KERNELS_H

#include "Check.h"

namespace nvfp4::cpucheck {

/// gemv into a new c buffer; `withAlpha` picks the kernel taking p.alpha.
std::vector<uint8_t> runGemv(const ref::GemvProblem &p, bool withAlpha,
                             ref::GemvInputs &in);

/// gemv of the N-vector kernels (b [L, N, ...], c [L, N, M]) or, for 16-bit
/// b without `vectorDim`, of one vector (b [L, K], c [L, M]; f32 output with
/// alpha only); `withAlpha` needs f32 output (VectorKernels.cpp).
std::vector<uint8_t> runGemvVectors(const ref::GemvProblem &p, bool withAlpha,
                                    bool vectorDim, ref::GemvInputs &in);

/// gemv of a TiledKernels.mlir kernel on a tiled copy of in.a into a new
/// c buffer.
std::vector<uint8_t> runGemvTiled(const ref::GemvProblem &p, TiledKernel kernel,
                                  ref::GemvInputs &in);

/// quantize of `input` (rows x k values of v.input, l batches).
ref::Quantized runQuantize(const QuantizeVariant &v,
                           std::vector<uint8_t> &input, int64_t rows, int64_t k,
                           int64_t l);

/// dequantize into a new buffer of `out` elements.
std::vector<uint8_t> runDequantize(ref::ScaleFormat format,
                                   ref::ScaleLayout layout, bool withGs,
                                   ref::ElementType out,
                                   std::vector<uint8_t> &data,
                                   std::vector<uint8_t> &scales, float gs,
                                   int64_t rows, int64_t k, int64_t l);

/// convert_scale_layout of e4m3 (or ue8m0) scales from `src` into `dst`.
void runConvert(bool e8m0, ref::ScaleLayout from, ref::ScaleLayout to,
                std::vector<uint8_t> &src, std::vector<uint8_t> &dst,
                int64_t rows, int64_t cols, int64_t l);

/// Bytes of `l` batches of rows x cols scales in `layout`.
int64_t scaleBytes(ref::ScaleLayout layout, int64_t l, int64_t rows,
                   int64_t cols);

} // namespace nvfp4::cpucheck

#endif // NVFP4_CPU_CHECK_KERNELS_H
