//===- Kernels.cpp - nvfp4-cpu-check: calling the compiled kernels --------===//
//
// The kernels are called through their llvm.emit_c_interface wrappers with
// MLIR's memref descriptor (MemrefDesc.h).
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "MemrefDesc.h"

#include "nvfp4/Support/ScaleLayout.h"

#include <limits>

using namespace nvfp4;
using namespace nvfp4::cpucheck;
using ref::ElementType;
using ref::ScaleFormat;
using ref::ScaleLayout;

namespace {
using D0 = Memref<0>;

D0 desc0(void *data) {
  return D0{static_cast<uint8_t *>(data), static_cast<uint8_t *>(data), 0};
}
} // namespace

extern "C" {
#define NVFP4_GEMV(fmt, out)                                                   \
  void _mlir_ciface_gemv_##fmt##_linear_##out(D3 *, D3 *, D2 *, D2 *, D2 *);   \
  void _mlir_ciface_gemv_##fmt##_linear_##out##_alpha(D3 *, D3 *, D2 *, D2 *,  \
                                                      D2 *, float);            \
  void _mlir_ciface_gemv_##fmt##_blocked_##out(D3 *, D4 *, D2 *, D4 *, D2 *);  \
  void _mlir_ciface_gemv_##fmt##_blocked_##out##_alpha(D3 *, D4 *, D2 *, D4 *, \
                                                       D2 *, float);
NVFP4_GEMV(nvfp4, f16)
NVFP4_GEMV(nvfp4, bf16)
NVFP4_GEMV(nvfp4, f32)
NVFP4_GEMV(mxfp4, f16)
NVFP4_GEMV(mxfp4, bf16)
NVFP4_GEMV(mxfp4, f32)
#undef NVFP4_GEMV

void _mlir_ciface_quantize_nvfp4_linear(D3 *, D3 *, D3 *);
void _mlir_ciface_quantize_nvfp4_blocked(D3 *, D3 *, D4 *);
void _mlir_ciface_quantize_nvfp4_2l_linear(D3 *, D3 *, D3 *, D0 *);
void _mlir_ciface_quantize_nvfp4_2l_blocked(D3 *, D3 *, D4 *, D0 *);
void _mlir_ciface_quantize_mxfp4_linear(D3 *, D3 *, D3 *);
void _mlir_ciface_quantize_mxfp4_blocked(D3 *, D3 *, D4 *);
void _mlir_ciface_quantize_nvfp4_2l_linear_f16(D3 *, D3 *, D3 *, D0 *);
void _mlir_ciface_quantize_mxfp4_linear_bf16(D3 *, D3 *, D3 *);
void _mlir_ciface_quantize_nvfp4_linear_bf16(D3 *, D3 *, D3 *);

#define NVFP4_DEQUANTIZE(fmt, out)                                             \
  void _mlir_ciface_dequantize_##fmt##_linear_##out(D3 *, D3 *, D3 *);         \
  void _mlir_ciface_dequantize_##fmt##_blocked_##out(D3 *, D4 *, D3 *);
NVFP4_DEQUANTIZE(nvfp4, f16)
NVFP4_DEQUANTIZE(nvfp4, bf16)
NVFP4_DEQUANTIZE(nvfp4, f32)
NVFP4_DEQUANTIZE(mxfp4, f16)
NVFP4_DEQUANTIZE(mxfp4, bf16)
NVFP4_DEQUANTIZE(mxfp4, f32)
#undef NVFP4_DEQUANTIZE
#define NVFP4_DEQUANTIZE_GS(out)                                               \
  void _mlir_ciface_dequantize_nvfp4_gs_linear_##out(D3 *, D3 *, D0 *, D3 *);  \
  void _mlir_ciface_dequantize_nvfp4_gs_blocked_##out(D3 *, D4 *, D0 *, D3 *);
NVFP4_DEQUANTIZE_GS(f16)
NVFP4_DEQUANTIZE_GS(bf16)
NVFP4_DEQUANTIZE_GS(f32)
#undef NVFP4_DEQUANTIZE_GS

#define NVFP4_CONVERT(type)                                                    \
  void _mlir_ciface_convert_##type##_linear_to_linear(D3 *, D3 *);             \
  void _mlir_ciface_convert_##type##_linear_to_blocked(D3 *, D4 *);            \
  void _mlir_ciface_convert_##type##_blocked_to_linear(D4 *, D3 *);            \
  void _mlir_ciface_convert_##type##_blocked_to_blocked(D4 *, D4 *);
NVFP4_CONVERT(e4m3)
NVFP4_CONVERT(e8m0)
#undef NVFP4_CONVERT
}

namespace {

/// Descriptor of a scale tensor of `l` batches of rows x cols.
struct ScaleDesc {
  ScaleLayout layout;
  D3 linear;
  D4 blocked;
  void *get() {
    return layout == ScaleLayout::Linear ? static_cast<void *>(&linear)
                                         : static_cast<void *>(&blocked);
  }
};
ScaleDesc scaleDesc(ScaleLayout layout, uint8_t *data, int64_t l, int64_t rows,
                    int64_t cols) {
  ScaleDesc d{layout, {}, {}};
  if (layout == ScaleLayout::Linear)
    d.linear = desc<3>(data, {l, rows, cols});
  else
    d.blocked = desc<4>(data, {l, layout::rowBlocks(rows),
                               layout::colBlocks(cols), layout::kAtomBytes});
  return d;
}
using GemvLinear = void (*)(D3 *, D3 *, D2 *, D2 *, D2 *);
using GemvLinearAlpha = void (*)(D3 *, D3 *, D2 *, D2 *, D2 *, float);
using GemvBlocked = void (*)(D3 *, D4 *, D2 *, D4 *, D2 *);
using GemvBlockedAlpha = void (*)(D3 *, D4 *, D2 *, D4 *, D2 *, float);

struct GemvKernels {
  GemvLinear linear;
  GemvLinearAlpha linearAlpha;
  GemvBlocked blocked;
  GemvBlockedAlpha blockedAlpha;
};

GemvKernels gemvKernels(ScaleFormat f, ElementType t) {
#define NVFP4_KERNELS(fmt, out)                                                \
  GemvKernels {                                                                \
    _mlir_ciface_gemv_##fmt##_linear_##out,                                    \
        _mlir_ciface_gemv_##fmt##_linear_##out##_alpha,                        \
        _mlir_ciface_gemv_##fmt##_blocked_##out,                               \
        _mlir_ciface_gemv_##fmt##_blocked_##out##_alpha                        \
  }
  bool nv = f == ScaleFormat::NVFP4;
  switch (t) {
  case ElementType::F16:
    return nv ? NVFP4_KERNELS(nvfp4, f16) : NVFP4_KERNELS(mxfp4, f16);
  case ElementType::BF16:
    return nv ? NVFP4_KERNELS(nvfp4, bf16) : NVFP4_KERNELS(mxfp4, bf16);
  case ElementType::F32:
    break;
  }
  return nv ? NVFP4_KERNELS(nvfp4, f32) : NVFP4_KERNELS(mxfp4, f32);
#undef NVFP4_KERNELS
}

} // namespace

int64_t nvfp4::cpucheck::scaleBytes(ScaleLayout layout, int64_t l, int64_t rows,
                                    int64_t cols) {
  return l * ref::scaleBatchBytes(layout, rows, cols);
}

/// Runs one compiled GEMV on `in`, into a NaN-poisoned output buffer.
std::vector<uint8_t> nvfp4::cpucheck::runGemv(const ref::GemvProblem &p,
                                              bool withAlpha,
                                              ref::GemvInputs &in) {
  const int64_t cols = p.k / ref::blockSize(p.format);
  std::vector<uint8_t> c(p.l * p.m * ref::elementBytes(p.output), 0xFF);
  D3 a = desc<3>(in.a.data(), {p.l, p.m, p.k / 2});
  D2 b = desc<2>(in.b.data(), {p.l, p.k / 2});
  D2 cd = desc<2>(c.data(), {p.l, p.m});
  GemvKernels kernels = gemvKernels(p.format, p.output);
  if (p.layout == ScaleLayout::Linear) {
    D3 sfa = desc<3>(in.sfa.data(), {p.l, p.m, cols});
    D2 sfb = desc<2>(in.sfb.data(), {p.l, cols});
    if (withAlpha)
      kernels.linearAlpha(&a, &sfa, &b, &sfb, &cd, p.alpha);
    else
      kernels.linear(&a, &sfa, &b, &sfb, &cd);
  } else {
    D4 sfa =
        desc<4>(in.sfa.data(), {p.l, layout::rowBlocks(p.m),
                                layout::colBlocks(cols), layout::kAtomBytes});
    D4 sfb = desc<4>(in.sfb.data(),
                     {p.l, 1, layout::colBlocks(cols), layout::kAtomBytes});
    if (withAlpha)
      kernels.blockedAlpha(&a, &sfa, &b, &sfb, &cd, p.alpha);
    else
      kernels.blocked(&a, &sfa, &b, &sfb, &cd);
  }
  return c;
}

/// Runs the compiled quantizer into poisoned buffers.
ref::Quantized nvfp4::cpucheck::runQuantize(const QuantizeVariant &v,
                                            std::vector<uint8_t> &input,
                                            int64_t rows, int64_t k,
                                            int64_t l) {
  const int64_t cols = k / ref::blockSize(v.format);
  ref::Quantized q;
  q.data.assign(l * rows * (k / 2), 0xFF);
  q.scales.assign(scaleBytes(v.layout, l, rows, cols), 0xFF);
  float gs = std::numeric_limits<float>::quiet_NaN();
  D3 x = desc<3>(input.data(), {l, rows, k});
  D3 data = desc<3>(q.data.data(), {l, rows, k / 2});
  ScaleDesc s = scaleDesc(v.layout, q.scales.data(), l, rows, cols);
  D0 g = desc0(&gs);
  bool lin = v.layout == ScaleLayout::Linear;
  if (v.input == ElementType::F16)
    _mlir_ciface_quantize_nvfp4_2l_linear_f16(&x, &data, &s.linear, &g);
  else if (v.input == ElementType::BF16 && v.format == ScaleFormat::MXFP4)
    _mlir_ciface_quantize_mxfp4_linear_bf16(&x, &data, &s.linear);
  else if (v.input == ElementType::BF16)
    _mlir_ciface_quantize_nvfp4_linear_bf16(&x, &data, &s.linear);
  else if (v.format == ScaleFormat::MXFP4)
    lin ? _mlir_ciface_quantize_mxfp4_linear(&x, &data, &s.linear)
        : _mlir_ciface_quantize_mxfp4_blocked(&x, &data, &s.blocked);
  else if (v.twoLevel)
    lin ? _mlir_ciface_quantize_nvfp4_2l_linear(&x, &data, &s.linear, &g)
        : _mlir_ciface_quantize_nvfp4_2l_blocked(&x, &data, &s.blocked, &g);
  else
    lin ? _mlir_ciface_quantize_nvfp4_linear(&x, &data, &s.linear)
        : _mlir_ciface_quantize_nvfp4_blocked(&x, &data, &s.blocked);
  q.globalScale = v.twoLevel ? gs : 1.0f;
  return q;
}

/// Runs the compiled dequantizer into a poisoned buffer of `out` elements.
std::vector<uint8_t> nvfp4::cpucheck::runDequantize(
    ScaleFormat format, ScaleLayout layout, bool withGs, ElementType out,
    std::vector<uint8_t> &data, std::vector<uint8_t> &scales, float gs,
    int64_t rows, int64_t k, int64_t l) {
  const int64_t cols = k / ref::blockSize(format);
  std::vector<uint8_t> y(l * rows * k * ref::elementBytes(out), 0xFF);
  D3 q = desc<3>(data.data(), {l, rows, k / 2});
  ScaleDesc s = scaleDesc(layout, scales.data(), l, rows, cols);
  D3 yd = desc<3>(y.data(), {l, rows, k});
  D0 g = desc0(&gs);
  bool lin = layout == ScaleLayout::Linear;
  if (format == ScaleFormat::MXFP4) {
    switch (out) {
    case ElementType::F16:
      lin ? _mlir_ciface_dequantize_mxfp4_linear_f16(&q, &s.linear, &yd)
          : _mlir_ciface_dequantize_mxfp4_blocked_f16(&q, &s.blocked, &yd);
      break;
    case ElementType::BF16:
      lin ? _mlir_ciface_dequantize_mxfp4_linear_bf16(&q, &s.linear, &yd)
          : _mlir_ciface_dequantize_mxfp4_blocked_bf16(&q, &s.blocked, &yd);
      break;
    case ElementType::F32:
      lin ? _mlir_ciface_dequantize_mxfp4_linear_f32(&q, &s.linear, &yd)
          : _mlir_ciface_dequantize_mxfp4_blocked_f32(&q, &s.blocked, &yd);
      break;
    }
  } else if (!withGs) {
    switch (out) {
    case ElementType::F16:
      lin ? _mlir_ciface_dequantize_nvfp4_linear_f16(&q, &s.linear, &yd)
          : _mlir_ciface_dequantize_nvfp4_blocked_f16(&q, &s.blocked, &yd);
      break;
    case ElementType::BF16:
      lin ? _mlir_ciface_dequantize_nvfp4_linear_bf16(&q, &s.linear, &yd)
          : _mlir_ciface_dequantize_nvfp4_blocked_bf16(&q, &s.blocked, &yd);
      break;
    case ElementType::F32:
      lin ? _mlir_ciface_dequantize_nvfp4_linear_f32(&q, &s.linear, &yd)
          : _mlir_ciface_dequantize_nvfp4_blocked_f32(&q, &s.blocked, &yd);
      break;
    }
  } else {
    switch (out) {
    case ElementType::F16:
      lin ? _mlir_ciface_dequantize_nvfp4_gs_linear_f16(&q, &s.linear, &g, &yd)
          : _mlir_ciface_dequantize_nvfp4_gs_blocked_f16(&q, &s.blocked, &g,
                                                         &yd);
      break;
    case ElementType::BF16:
      lin ? _mlir_ciface_dequantize_nvfp4_gs_linear_bf16(&q, &s.linear, &g, &yd)
          : _mlir_ciface_dequantize_nvfp4_gs_blocked_bf16(&q, &s.blocked, &g,
                                                          &yd);
      break;
    case ElementType::F32:
      lin ? _mlir_ciface_dequantize_nvfp4_gs_linear_f32(&q, &s.linear, &g, &yd)
          : _mlir_ciface_dequantize_nvfp4_gs_blocked_f32(&q, &s.blocked, &g,
                                                         &yd);
      break;
    }
  }
  return y;
}

void nvfp4::cpucheck::runConvert(bool e8m0, ScaleLayout from, ScaleLayout to,
                                 std::vector<uint8_t> &src,
                                 std::vector<uint8_t> &dst, int64_t rows,
                                 int64_t cols, int64_t l) {
  ScaleDesc s = scaleDesc(from, src.data(), l, rows, cols);
  ScaleDesc d = scaleDesc(to, dst.data(), l, rows, cols);
  bool fl = from == ScaleLayout::Linear, tl = to == ScaleLayout::Linear;
  if (e8m0) {
    if (fl && tl)
      _mlir_ciface_convert_e8m0_linear_to_linear(&s.linear, &d.linear);
    else if (fl)
      _mlir_ciface_convert_e8m0_linear_to_blocked(&s.linear, &d.blocked);
    else if (tl)
      _mlir_ciface_convert_e8m0_blocked_to_linear(&s.blocked, &d.linear);
    else
      _mlir_ciface_convert_e8m0_blocked_to_blocked(&s.blocked, &d.blocked);
  } else {
    if (fl && tl)
      _mlir_ciface_convert_e4m3_linear_to_linear(&s.linear, &d.linear);
    else if (fl)
      _mlir_ciface_convert_e4m3_linear_to_blocked(&s.linear, &d.blocked);
    else if (tl)
      _mlir_ciface_convert_e4m3_blocked_to_linear(&s.blocked, &d.linear);
    else
      _mlir_ciface_convert_e4m3_blocked_to_blocked(&s.blocked, &d.blocked);
  }
}
