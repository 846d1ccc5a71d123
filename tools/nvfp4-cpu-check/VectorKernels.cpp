//===- VectorKernels.cpp - nvfp4-cpu-check: the N-vector GEMV kernels -----===//
//
// Calls the kernels of VectorKernels.mlir (b [L, N, ...], c [L, N, M]; and
// one 16-bit vector, b [L, K], c [L, M]) through their C interfaces, as
// Kernels.cpp calls those of Kernels.mlir.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "MemrefDesc.h"

#include "nvfp4/Support/ScaleLayout.h"

using namespace nvfp4;
using namespace nvfp4::cpucheck;
using ref::ElementType;
using ref::ScaleFormat;
using ref::ScaleLayout;
using ref::VectorElement;

extern "C" {
// Packed b: a, sfa, b, sfb, c (S: the scale descriptor of the layout).
#define NVFP4_VEC_PACKED(fmt, lay, S)                                          \
  void _mlir_ciface_gemv_vec_e2m1_##fmt##_##lay##_f16(D3 *, S *, D3 *, S *,    \
                                                      D3 *);                   \
  void _mlir_ciface_gemv_vec_e2m1_##fmt##_##lay##_bf16(D3 *, S *, D3 *, S *,   \
                                                       D3 *);                  \
  void _mlir_ciface_gemv_vec_e2m1_##fmt##_##lay##_f32(D3 *, S *, D3 *, S *,    \
                                                      D3 *);                   \
  void _mlir_ciface_gemv_vec_e2m1_##fmt##_##lay##_f32_alpha(D3 *, S *, D3 *,   \
                                                            S *, D3 *, float);
// 16-bit b: a, sfa, b, c; the one-vector kernels take b and c of rank 2.
#define NVFP4_VEC_WIDE(b, fmt, lay, S)                                         \
  void _mlir_ciface_gemv_vec_##b##_##fmt##_##lay##_f16(D3 *, S *, D3 *, D3 *); \
  void _mlir_ciface_gemv_vec_##b##_##fmt##_##lay##_bf16(D3 *, S *, D3 *,       \
                                                        D3 *);                 \
  void _mlir_ciface_gemv_vec_##b##_##fmt##_##lay##_f32(D3 *, S *, D3 *, D3 *); \
  void _mlir_ciface_gemv_vec_##b##_##fmt##_##lay##_f32_alpha(D3 *, S *, D3 *,  \
                                                             D3 *, float);     \
  void _mlir_ciface_gemv_one_##b##_##fmt##_##lay##_f32_alpha(D3 *, S *, D2 *,  \
                                                             D2 *, float);
#define NVFP4_VEC_FORMAT(fmt)                                                  \
  NVFP4_VEC_PACKED(fmt, linear, D3)                                            \
  NVFP4_VEC_PACKED(fmt, blocked, D4)                                           \
  NVFP4_VEC_WIDE(f16, fmt, linear, D3)                                         \
  NVFP4_VEC_WIDE(f16, fmt, blocked, D4)                                        \
  NVFP4_VEC_WIDE(bf16, fmt, linear, D3)                                        \
  NVFP4_VEC_WIDE(bf16, fmt, blocked, D4)
NVFP4_VEC_FORMAT(nvfp4)
NVFP4_VEC_FORMAT(mxfp4)
#undef NVFP4_VEC_FORMAT
#undef NVFP4_VEC_WIDE
#undef NVFP4_VEC_PACKED
}

namespace {

/// The kernels of one b element type, format and layout; `out` by output
/// type (f16, bf16, f32), `alpha` with f32 output.
template <typename S> struct PackedKernels {
  void (*out[3])(D3 *, S *, D3 *, S *, D3 *);
  void (*alpha)(D3 *, S *, D3 *, S *, D3 *, float);
};
template <typename S> struct WideKernels {
  void (*out[3])(D3 *, S *, D3 *, D3 *);
  void (*alpha)(D3 *, S *, D3 *, D3 *, float);
  void (*one)(D3 *, S *, D2 *, D2 *, float);
};

#define NVFP4_PACKED(fmt, lay)                                                 \
  {                                                                            \
    {_mlir_ciface_gemv_vec_e2m1_##fmt##_##lay##_f16,                           \
     _mlir_ciface_gemv_vec_e2m1_##fmt##_##lay##_bf16,                          \
     _mlir_ciface_gemv_vec_e2m1_##fmt##_##lay##_f32},                          \
        _mlir_ciface_gemv_vec_e2m1_##fmt##_##lay##_f32_alpha                   \
  }
#define NVFP4_WIDE(b, fmt, lay)                                                \
  {                                                                            \
    {_mlir_ciface_gemv_vec_##b##_##fmt##_##lay##_f16,                          \
     _mlir_ciface_gemv_vec_##b##_##fmt##_##lay##_bf16,                         \
     _mlir_ciface_gemv_vec_##b##_##fmt##_##lay##_f32},                         \
        _mlir_ciface_gemv_vec_##b##_##fmt##_##lay##_f32_alpha,                 \
        _mlir_ciface_gemv_one_##b##_##fmt##_##lay##_f32_alpha                  \
  }

// Indexed by format (nvfp4, mxfp4), then for 16-bit b by its type (f16,
// bf16).
const PackedKernels<D3> kPackedLinear[2] = {NVFP4_PACKED(nvfp4, linear),
                                            NVFP4_PACKED(mxfp4, linear)};
const PackedKernels<D4> kPackedBlocked[2] = {NVFP4_PACKED(nvfp4, blocked),
                                             NVFP4_PACKED(mxfp4, blocked)};
const WideKernels<D3> kWideLinear[2][2] = {
    {NVFP4_WIDE(f16, nvfp4, linear), NVFP4_WIDE(bf16, nvfp4, linear)},
    {NVFP4_WIDE(f16, mxfp4, linear), NVFP4_WIDE(bf16, mxfp4, linear)}};
const WideKernels<D4> kWideBlocked[2][2] = {
    {NVFP4_WIDE(f16, nvfp4, blocked), NVFP4_WIDE(bf16, nvfp4, blocked)},
    {NVFP4_WIDE(f16, mxfp4, blocked), NVFP4_WIDE(bf16, mxfp4, blocked)}};
#undef NVFP4_WIDE
#undef NVFP4_PACKED

int outIndex(ElementType t) {
  return t == ElementType::F16 ? 0 : t == ElementType::BF16 ? 1 : 2;
}

/// Calls the kernel of p with the scale descriptors `sfa` and `sfb` (type
/// S, the layout's).
template <typename S>
void call(const ref::GemvProblem &p, bool withAlpha, bool vectorDim,
          const PackedKernels<S> &packed, const WideKernels<S> &wide, D3 &a,
          S &sfa, S &sfb, uint8_t *b, uint8_t *c) {
  const int64_t bLen = p.vector == VectorElement::E2M1 ? p.k / 2 : p.k;
  D3 b3 = desc<3>(b, {p.l, p.n, bLen});
  D3 c3 = desc<3>(c, {p.l, p.n, p.m});
  if (p.vector == VectorElement::E2M1) {
    if (withAlpha)
      packed.alpha(&a, &sfa, &b3, &sfb, &c3, p.alpha);
    else
      packed.out[outIndex(p.output)](&a, &sfa, &b3, &sfb, &c3);
  } else if (!vectorDim) {
    D2 b2 = desc<2>(b, {p.l, bLen});
    D2 c2 = desc<2>(c, {p.l, p.m});
    wide.one(&a, &sfa, &b2, &c2, p.alpha);
  } else if (withAlpha) {
    wide.alpha(&a, &sfa, &b3, &c3, p.alpha);
  } else {
    wide.out[outIndex(p.output)](&a, &sfa, &b3, &c3);
  }
}

} // namespace

std::vector<uint8_t> nvfp4::cpucheck::runGemvVectors(const ref::GemvProblem &p,
                                                     bool withAlpha,
                                                     bool vectorDim,
                                                     ref::GemvInputs &in) {
  const int64_t cols = p.k / ref::blockSize(p.format);
  std::vector<uint8_t> c(p.l * p.n * p.m * ref::elementBytes(p.output), 0xFF);
  D3 a = desc<3>(in.a.data(), {p.l, p.m, p.k / 2});
  const int f = p.format == ScaleFormat::NVFP4 ? 0 : 1;
  const int w = p.vector == VectorElement::BF16 ? 1 : 0;
  if (p.layout == ScaleLayout::Linear) {
    D3 sfa = desc<3>(in.sfa.data(), {p.l, p.m, cols});
    D3 sfb = desc<3>(in.sfb.data(), {p.l, p.n, cols});
    call(p, withAlpha, vectorDim, kPackedLinear[f], kWideLinear[f][w], a, sfa,
         sfb, in.b.data(), c.data());
  } else {
    D4 sfa =
        desc<4>(in.sfa.data(), {p.l, layout::rowBlocks(p.m),
                                layout::colBlocks(cols), layout::kAtomBytes});
    D4 sfb =
        desc<4>(in.sfb.data(), {p.l, layout::rowBlocks(p.n),
                                layout::colBlocks(cols), layout::kAtomBytes});
    call(p, withAlpha, vectorDim, kPackedBlocked[f], kWideBlocked[f][w], a, sfa,
         sfb, in.b.data(), c.data());
  }
  return c;
}
