//===- TiledKernels.cpp - nvfp4-cpu-check: gemv kernels of tiled codes ----===//
//
// Calls the kernels of TiledKernels.mlir (48 x 256 x 2, a's codes in the
// tiled order of nvfp4/Support/CodeLayout.h) through their C interfaces,
// on a tiled copy of the row-major a the reference reads.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "MemrefDesc.h"

#include "nvfp4/Support/ScaleLayout.h"

#include <cstdio>
#include <cstdlib>

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
} // namespace

std::vector<TiledCase> nvfp4::cpucheck::tiledCases() {
  using F = GemvForm;
  return {{ScaleFormat::NVFP4, ScaleLayout::Linear,
           F{3, VectorElement::E2M1, true, true}, ElementType::F32, true},
          {ScaleFormat::MXFP4, ScaleLayout::Blocked128x4,
           F{3, VectorElement::E2M1, true, true}, ElementType::F32, true},
          {ScaleFormat::NVFP4, ScaleLayout::Blocked128x4,
           F{1, VectorElement::E2M1, false, true}, ElementType::F16, false},
          {ScaleFormat::MXFP4, ScaleLayout::Linear,
           F{2, VectorElement::BF16, true, true}, ElementType::F32, true}};
}

Shape nvfp4::cpucheck::tiledShape() { return kShape; }

std::vector<uint8_t> nvfp4::cpucheck::runGemvTiled(const ref::GemvProblem &p,
                                                   ref::GemvInputs &in) {
  if (p.m != kShape.m || p.k != kShape.k || p.l != kShape.l) {
    std::fprintf(stderr, "nvfp4-cpu-check: no tiled kernel of this shape\n");
    std::exit(2);
  }
  const int64_t cols = p.k / ref::blockSize(p.format);
  const int64_t n = p.n;
  std::vector<uint8_t> tiled =
      ref::relayCodes(true, in.a.data(), p.m, p.k / 2, p.l);
  std::vector<uint8_t> c(p.l * n * p.m * ref::elementBytes(p.output), 0xFF);
  D3 a = desc<3>(tiled.data(), {p.l, p.m, p.k / 2});
  D3 sfa3 = desc<3>(in.sfa.data(), {p.l, p.m, cols});
  D4 sfa4 =
      desc<4>(in.sfa.data(), {p.l, layout::rowBlocks(p.m),
                              layout::colBlocks(cols), layout::kAtomBytes});
  D4 sfb4 =
      desc<4>(in.sfb.data(), {p.l, layout::rowBlocks(n),
                              layout::colBlocks(cols), layout::kAtomBytes});
  D3 c3 = desc<3>(c.data(), {p.l, n, p.m});
  if (p.vector == VectorElement::BF16) {
    D3 b = desc<3>(in.b.data(), {p.l, n, p.k});
    _mlir_ciface_gemv_48x256x2_mxfp4_linear_f32_n2_vbf16_tiled(&a, &sfa3, &b,
                                                               &c3, p.alpha);
  } else if (p.layout == ScaleLayout::Linear) {
    D3 b = desc<3>(in.b.data(), {p.l, n, p.k / 2});
    D3 sfb = desc<3>(in.sfb.data(), {p.l, n, cols});
    _mlir_ciface_gemv_48x256x2_nvfp4_linear_f32_n3_tiled(&a, &sfa3, &b, &sfb,
                                                         &c3, p.alpha);
  } else if (p.format == ScaleFormat::MXFP4) {
    D3 b = desc<3>(in.b.data(), {p.l, n, p.k / 2});
    _mlir_ciface_gemv_48x256x2_mxfp4_blocked128x4_f32_n3_tiled(
        &a, &sfa4, &b, &sfb4, &c3, p.alpha);
  } else {
    D2 b = desc<2>(in.b.data(), {p.l, p.k / 2});
    D2 c2 = desc<2>(c.data(), {p.l, p.m});
    _mlir_ciface_gemv_48x256x2_nvfp4_blocked128x4_f16_noalpha_tiled(
        &a, &sfa4, &b, &sfb4, &c2);
  }
  return c;
}
