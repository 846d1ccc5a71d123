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

} // namespace

void nvfp4::cpucheck::checkGemv(Stats &stats, const Shape &s,
                                ScaleFormat format, ScaleLayout layout,
                                ref::Distribution dist, uint64_t seed,
                                float alpha, bool allVariants) {
  ref::GemvProblem p;
  p.m = s.m;
  p.k = s.k;
  p.l = s.l;
  p.format = format;
  p.layout = layout;
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

  struct Variant {
    ElementType type;
    bool alpha;
  };
  std::vector<Variant> variants;
  if (allVariants) {
    for (ElementType t :
         {ElementType::F16, ElementType::BF16, ElementType::F32})
      for (bool withAlpha : {false, true})
        variants.push_back({t, withAlpha});
  } else {
    // --quick on large shapes: the reference problem's f16 output, and f32
    // with alpha.
    variants = {{ElementType::F16, false}, {ElementType::F32, true}};
  }
  for (const Variant &v : variants) {
    p.output = v.type;
    p.alpha = v.alpha ? alpha : 1.0f;
    std::vector<uint8_t> c = runGemv(p, v.alpha, in);
    stats.damage(c, ref::elementBytes(v.type));
    const std::vector<double> &expect = v.alpha ? scaled : plain;
    ref::GemvBoundCheck check = ref::checkGemvBound(p, sums, c.data(), expect);
    bool inputsKept =
        in.a == a0 && in.sfa == sfa0 && in.b == b0 && in.sfb == sfb0;
    std::string what =
        strf("gemv %s %s %-4s %-12s M=%lld K=%lld L=%lld %s", name(format),
             name(layout), name(v.type),
             v.alpha ? strf("alpha=%.6g", alpha).c_str() : "", (long long)s.m,
             (long long)s.k, (long long)s.l, name(dist));
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
      detail += strf("; %lld wrong, first c[%lld][%lld] = %.9g, reference "
                     "%.17g, expected %s",
                     (long long)check.failures, (long long)(i / s.m),
                     (long long)(i % s.m), ref::readOutput(v.type, c.data(), i),
                     expect[i], describeExpectation(e, rounded).c_str());
    }
    if (!inputsKept)
      detail += ", inputs were modified";
    stats.report(check.ok() && inputsKept, what, detail);
  }
}
