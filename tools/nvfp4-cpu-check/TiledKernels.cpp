//===- TiledKernels.cpp - nvfp4-cpu-check: gemv kernels of tiled codes ----===//
//
// Calls the kernels of TiledKernels.mlir (48 x 256 x 2, a's codes in the
// tiled order of nvfp4/Support/CodeLayout.h) through their C interfaces,
// on a tiled copy of the row-major a the reference reads. Each case names
// its own entry point, with the descriptors of that kernel's types.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "MemrefDesc.h"

#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/ScaleLayout.h"

using namespace nvfp4;
using namespace nvfp4::cpucheck;
using ref::ElementType;
using ref::ScaleFormat;
using ref::ScaleLayout;
using ref::VectorElement;

extern "C" {
void _mlir_ciface_gemv_48x256x2_nvfp4_linear_f32_n3_tiled(D3 *, D3 *, D3 *,
                                                          D3 *, D3 *, float);
void _mlir_ciface_gemv_48x256x2_mxfp4_blocked128x4_f32_n3_tiled(D3 *, D4 *,
                                                                D3 *, D4 *,
                                                                D3 *, float);
void _mlir_ciface_gemv_48x256x2_nvfp4_blocked128x4_f16_noalpha_tiled(D3 *, D4 *,
                                                                     D2 *, D4 *,
                                                                     D2 *);
void _mlir_ciface_gemv_48x256x2_mxfp4_linear_f32_n2_vbf16_tiled(D3 *, D3 *,
                                                                D3 *, D3 *,
                                                                float);
}

namespace {
constexpr Shape kShape = {48, 256, 2};
constexpr int64_t kNV = formats::kNVFP4BlockSize,
                  kMX = formats::kMXFP4BlockSize;
constexpr int64_t kL = kShape.l, kM = kShape.m, kBytes = kShape.k / 2;

/// Scale columns of a row (blocks of `block` values).
constexpr int64_t cols(int64_t block) { return kShape.k / block; }

/// The descriptors of a and of the scales of `rows` rows in `layout`.
D3 codes(uint8_t *a) { return desc<3>(a, {kL, kM, kBytes}); }
D3 linearScales(std::vector<uint8_t> &s, int64_t rows, int64_t block) {
  return desc<3>(s.data(), {kL, rows, cols(block)});
}
D4 blockedScales(std::vector<uint8_t> &s, int64_t rows, int64_t block) {
  return desc<4>(s.data(),
                 {kL, layout::rowBlocks(rows), layout::colBlocks(cols(block)),
                  layout::kAtomBytes});
}
} // namespace

std::vector<TiledCase> nvfp4::cpucheck::tiledCases() {
  using F = GemvForm;
  return {
      {ScaleFormat::NVFP4, ScaleLayout::Linear, F{3, VectorElement::E2M1, true},
       ElementType::F32, true,
       [](uint8_t *a, ref::GemvInputs &in, uint8_t *c, float alpha) {
         D3 a3 = codes(a), sfa = linearScales(in.sfa, kM, kNV),
            b = desc<3>(in.b.data(), {kL, 3, kBytes}),
            sfb = linearScales(in.sfb, 3, kNV), c3 = desc<3>(c, {kL, 3, kM});
         _mlir_ciface_gemv_48x256x2_nvfp4_linear_f32_n3_tiled(&a3, &sfa, &b,
                                                              &sfb, &c3, alpha);
       }},
      {ScaleFormat::MXFP4, ScaleLayout::Blocked128x4,
       F{3, VectorElement::E2M1, true}, ElementType::F32, true,
       [](uint8_t *a, ref::GemvInputs &in, uint8_t *c, float alpha) {
         D3 a3 = codes(a), b = desc<3>(in.b.data(), {kL, 3, kBytes}),
            c3 = desc<3>(c, {kL, 3, kM});
         D4 sfa = blockedScales(in.sfa, kM, kMX),
            sfb = blockedScales(in.sfb, 3, kMX);
         _mlir_ciface_gemv_48x256x2_mxfp4_blocked128x4_f32_n3_tiled(
             &a3, &sfa, &b, &sfb, &c3, alpha);
       }},
      {ScaleFormat::NVFP4, ScaleLayout::Blocked128x4,
       F{1, VectorElement::E2M1, false}, ElementType::F16, false,
       [](uint8_t *a, ref::GemvInputs &in, uint8_t *c, float) {
         D3 a3 = codes(a);
         D2 b = desc<2>(in.b.data(), {kL, kBytes}), c2 = desc<2>(c, {kL, kM});
         D4 sfa = blockedScales(in.sfa, kM, kNV),
            sfb = blockedScales(in.sfb, 1, kNV);
         _mlir_ciface_gemv_48x256x2_nvfp4_blocked128x4_f16_noalpha_tiled(
             &a3, &sfa, &b, &sfb, &c2);
       }},
      {ScaleFormat::MXFP4, ScaleLayout::Linear, F{2, VectorElement::BF16, true},
       ElementType::F32, true,
       [](uint8_t *a, ref::GemvInputs &in, uint8_t *c, float alpha) {
         D3 a3 = codes(a), sfa = linearScales(in.sfa, kM, kMX),
            b = desc<3>(in.b.data(), {kL, 2, kShape.k}),
            c3 = desc<3>(c, {kL, 2, kM});
         _mlir_ciface_gemv_48x256x2_mxfp4_linear_f32_n2_vbf16_tiled(
             &a3, &sfa, &b, &c3, alpha);
       }}};
}

Shape nvfp4::cpucheck::tiledShape() { return kShape; }

std::vector<uint8_t> nvfp4::cpucheck::runGemvTiled(const ref::GemvProblem &p,
                                                   TiledKernel kernel,
                                                   ref::GemvInputs &in) {
  std::vector<uint8_t> a = ref::storedCodes(p, in.a.data());
  std::vector<uint8_t> c(p.l * p.n * p.m * ref::elementBytes(p.output), 0xFF);
  kernel(a.data(), in, c.data(), p.alpha);
  return c;
}
