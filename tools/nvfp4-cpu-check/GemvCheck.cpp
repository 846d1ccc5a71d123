//===- GemvCheck.cpp - nvfp4-cpu-check: the GEMV --------------------------===//
//
// Each output element is held to what the lowering's f32 evaluation order
// can give (nvfp4/Support/GemvBound.h, docs/numerics.md section 10):
// exactly the correctly rounded reference where every f32 step is exact,
// otherwise within the f32 summation bound plus half an ulp of the output
// type; NaN exactly where the reference is NaN (or block terms overflow to
// both infinities), an infinity exactly where it must be.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "Kernels.h"

#include "nvfp4/Support/GemvBound.h"

#include <cmath>

using namespace nvfp4;
using namespace nvfp4::cpucheck;
using ref::ElementType;
using ref::GemvExpectation;
using ref::ScaleFormat;
using ref::ScaleLayout;

namespace {

/// What element `i` had to be, for a failure line.
std::string describeExpectation(const GemvExpectation &e, double rounded) {
  switch (e.kind) {
  case GemvExpectation::Kind::Exact:
    return strf("exactly %.9g", rounded);
  case GemvExpectation::Kind::Bounded:
    return strf("within %.3g", e.bound);
  case GemvExpectation::Kind::NaN:
    return "NaN";
  case GemvExpectation::Kind::Inf:
    return e.infSign > 0 ? "+inf" : "-inf";
  case GemvExpectation::Kind::NonFinite:
    return strf("inf, NaN or within %.3g", e.bound);
  }
  return "?";
}

/// An output type and whether the kernel takes alpha.
struct Variant {
  ElementType type;
  bool alpha;
};

/// The kernels of `form` on one set of generated inputs, one case each
/// variant.
/// `tiled`: the kernel of tiled codes to run instead of the form's own.
void checkVariants(Stats &stats, const Shape &s, ScaleFormat format,
                   ScaleLayout layout, ref::Distribution dist, uint64_t seed,
                   float alpha, const GemvForm &form,
                   const std::vector<Variant> &variants,
                   TiledKernel tiled = nullptr);

} // namespace

void nvfp4::cpucheck::checkTiledGemv(Stats &stats, const TiledCase &tiled,
                                     ref::Distribution dist, uint64_t seed,
                                     float alpha) {
  checkVariants(stats, tiledShape(), tiled.format, tiled.layout, dist, seed,
                alpha, tiled.form, {{tiled.output, tiled.alpha}}, tiled.kernel);
}

void nvfp4::cpucheck::checkGemv(Stats &stats, const Shape &s,
                                ScaleFormat format, ScaleLayout layout,
                                ref::Distribution dist, uint64_t seed,
                                float alpha, bool allVariants,
                                const GemvForm &form) {
  const bool oneVectorForm =
      !form.vectorDim && form.vector == ref::VectorElement::E2M1;
  std::vector<Variant> variants;
  if (!form.vectorDim && !oneVectorForm) {
    // One 16-bit vector: its kernels write f32 with alpha.
    variants = {{ElementType::F32, true}};
  } else if (!oneVectorForm) {
    // N vectors: every output type, alpha with f32.
    variants = {{ElementType::F16, false},
                {ElementType::BF16, false},
                {ElementType::F32, false},
                {ElementType::F32, true}};
  } else if (allVariants) {
    for (ElementType t :
         {ElementType::F16, ElementType::BF16, ElementType::F32})
      for (bool withAlpha : {false, true})
        variants.push_back({t, withAlpha});
  } else {
    // --quick on large shapes: the reference problem's f16 output, and f32
    // with alpha.
    variants = {{ElementType::F16, false}, {ElementType::F32, true}};
  }
  checkVariants(stats, s, format, layout, dist, seed, alpha, form, variants);
}

namespace {

void checkVariants(Stats &stats, const Shape &s, ScaleFormat format,
                   ScaleLayout layout, ref::Distribution dist, uint64_t seed,
                   float alpha, const GemvForm &form,
                   const std::vector<Variant> &variants, TiledKernel tiled) {
  ref::GemvProblem p;
  p.m = s.m;
  p.k = s.k;
  p.l = s.l;
  p.n = form.n;
  p.vector = form.vector;
  p.format = format;
  p.layout = layout;
  p.tiledCodes = tiled != nullptr;
  const bool oneVectorForm =
      !form.vectorDim && form.vector == ref::VectorElement::E2M1;
  ref::GemvInputs in = ref::generateGemvInputs(p, dist, seed);
  const std::vector<uint8_t> a0 = in.a, sfa0 = in.sfa, b0 = in.b, sfb0 = in.sfb;
  p.alpha = 1.0f;
  const std::vector<double> plain =
      ref::gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
  p.alpha = alpha;
  const std::vector<double> scaled =
      ref::gemvExact(p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());
  // The row sums do not depend on alpha or the output type.
  const std::vector<ref::GemvRowSum> sums = ref::analyzeGemvSums(
      p, in.a.data(), in.sfa.data(), in.b.data(), in.sfb.data());

  for (const Variant &v : variants) {
    p.output = v.type;
    p.alpha = v.alpha ? alpha : 1.0f;
    std::vector<uint8_t> c =
        tiled           ? runGemvTiled(p, tiled, in)
        : oneVectorForm ? runGemv(p, v.alpha, in)
                        : runGemvVectors(p, v.alpha, form.vectorDim, in);
    stats.damage(c, ref::elementBytes(v.type));
    const std::vector<double> &expect = v.alpha ? scaled : plain;
    ref::GemvBoundCheck check = ref::checkGemvBound(p, sums, c.data(), expect);
    bool inputsKept =
        in.a == a0 && in.sfa == sfa0 && in.b == b0 && in.sfb == sfb0;
    std::string vectors;
    if (form.vectorDim)
      vectors += strf(" N=%lld", (long long)form.n);
    if (form.vector != ref::VectorElement::E2M1)
      vectors += strf(" b=%s", name(form.vector));
    if (tiled)
      vectors += " tiled";
    std::string what =
        strf("gemv %s %s %-4s %-12s M=%lld K=%lld L=%lld%s %s", name(format),
             name(layout), name(v.type),
             v.alpha ? strf("alpha=%.6g", alpha).c_str() : "", (long long)s.m,
             (long long)s.k, (long long)s.l, vectors.c_str(), name(dist));
    std::string detail =
        strf("%lld exact, %lld bounded (worst %.3f of bound), %lld NaN/inf",
             (long long)check.exact, (long long)check.bounded, check.worst,
             (long long)check.special);
    if (!check.ok()) {
      int64_t i = check.first;
      GemvExpectation e =
          ref::expectGemvElement(sums[i], p.alpha, v.type, expect[i]);
      double rounded = ref::readOutput(
          v.type, ref::roundOutput(v.type, {expect[i]}).data(), 0);
      // c[l][m], or c[l][n][m] with a vector dimension.
      std::string at =
          form.vectorDim
              ? strf("[%lld][%lld][%lld]", (long long)(i / (s.m * form.n)),
                     (long long)(i / s.m % form.n), (long long)(i % s.m))
              : strf("[%lld][%lld]", (long long)(i / s.m),
                     (long long)(i % s.m));
      detail += strf("; %lld wrong, first c%s = %.9g, reference "
                     "%.17g, expected %s",
                     (long long)check.failures, at.c_str(),
                     ref::readOutput(v.type, c.data(), i), expect[i],
                     describeExpectation(e, rounded).c_str());
    }
    if (!inputsKept)
      detail += ", inputs were modified";
    stats.report(check.ok() && inputsKept, what, detail);
  }
}

} // namespace
