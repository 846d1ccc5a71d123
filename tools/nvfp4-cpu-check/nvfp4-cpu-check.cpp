//===- nvfp4-cpu-check.cpp - randomized check of the CPU lowering ---------===//
//
// Runs the nvfp4 operations compiled through --nvfp4-cpu-pipeline
// (Kernels.mlir, built into this executable) on fresh random data and
// compares every result with the independent float64 reference
// (nvfp4/Support/Reference.h):
//
//   gemv         every format x layout x output type, with and without
//                alpha, on the competition shapes and odd ones; inputs from
//                ref::generateGemvInputs (Full and Weak), outputs poisoned
//                with NaN bytes; ref::compare at rtol = atol = 1e-3, where
//                an element beyond it must still lie within the error
//                bound of f32 accumulation (docs/numerics.md section 10).
//   quantize     packed codes, scales (padding included) and global scale
//                identical to ref::quantize.
//   dequantize   identical to the correctly rounded ref::dequantize.
//   round trips  dequantize(quantize(x)) within the bound of
//                docs/numerics.md section 7; quantize(dequantize(q)) == q for
//                representable q.
//   convert_scale_layout  bytes identical to ref::convertScaleLayout, and
//                A -> B -> A is the identity.
//
// One line per case, then "nvfp4-cpu-check: N cases, P passed, F failed".
// --corrupt damages one element of every result before it is checked, to
// show that every check can fail (every case must then fail).
// The exit status is 1 when any case fails. Every run uses fresh data: the
// seed is taken from the clock unless --seed is given, and is printed first.
//
// The kernels are called through their llvm.emit_c_interface wrappers; the
// memref descriptor is declared here, so nothing of MLIR is linked.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/Reference.h"
#include "nvfp4/Support/ScaleLayout.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace nvfp4;
using ref::ElementType;
using ref::ScaleFormat;
using ref::ScaleLayout;

//===----------------------------------------------------------------------===//
// Memref descriptors and the compiled kernels
//===----------------------------------------------------------------------===//

namespace {
/// The MLIR memref descriptor: {allocated, aligned, offset, sizes, strides}.
template <int N> struct Desc {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[N];
  int64_t strides[N];
};
/// A rank-0 memref has no sizes or strides.
template <> struct Desc<0> {
  void *allocated;
  void *aligned;
  int64_t offset;
};
using D0 = Desc<0>;
using D2 = Desc<2>;
using D3 = Desc<3>;
using D4 = Desc<4>;

/// Descriptor of a contiguous row-major buffer.
template <int N> Desc<N> desc(void *data, const int64_t (&sizes)[N]) {
  Desc<N> d;
  d.allocated = d.aligned = data;
  d.offset = 0;
  int64_t stride = 1;
  for (int i = N - 1; i >= 0; --i) {
    d.sizes[i] = sizes[i];
    d.strides[i] = stride;
    stride *= sizes[i];
  }
  return d;
}
D0 desc0(void *data) { return D0{data, data, 0}; }
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

//===----------------------------------------------------------------------===//
// Names, dispatch and bookkeeping
//===----------------------------------------------------------------------===//

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
int64_t scaleBytes(ScaleLayout layout, int64_t l, int64_t rows, int64_t cols) {
  return l * ref::scaleBatchBytes(layout, rows, cols);
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

struct Stats {
  int64_t cases = 0, failed = 0;
  /// --corrupt: damage one element of every result before it is checked,
  /// to show that every check can fail.
  bool corrupt = false;
  std::mt19937_64 corruptRng{0};
  /// Flips a high exponent bit of one random element of `elementBytes`
  /// bytes (bit 0 of one random byte for byte buffers).
  void damage(std::vector<uint8_t> &buf, int64_t elementBytes) {
    if (!corrupt || buf.empty())
      return;
    int64_t i =
        static_cast<int64_t>(corruptRng() % (buf.size() / elementBytes));
    if (elementBytes == 1)
      buf[i] ^= 0x01;
    else
      buf[i * elementBytes + elementBytes - 1] ^= 0x40;
  }
  /// Records one case and prints its line.
  void report(bool ok, const std::string &what, const std::string &detail) {
    ++cases;
    if (!ok)
      ++failed;
    std::printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", what.c_str(),
                detail.empty() ? "" : ": ", detail.c_str());
    std::fflush(stdout);
  }
};

std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string strf(const char *fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, args);
  va_end(args);
  return buf;
}

/// Index of the first differing byte, or -1.
int64_t firstDifference(const std::vector<uint8_t> &x,
                        const std::vector<uint8_t> &y) {
  if (x.size() != y.size())
    return 0;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] != y[i])
      return static_cast<int64_t>(i);
  return -1;
}

uint32_t floatToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(f));
  return bits;
}

//===----------------------------------------------------------------------===//
// GEMV
//===----------------------------------------------------------------------===//

struct Shape {
  int64_t m, k, l;
};

/// Runs one compiled GEMV on `in`, into a NaN-poisoned output buffer.
std::vector<uint8_t> runGemv(const ref::GemvProblem &p, bool withAlpha,
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

/// max |o - rr| / (atol + rtol |rr|) over the elements where the output and
/// the rounded reference rr are finite: how close the case came to failing.
double worstOfTolerance(ElementType type, const std::vector<uint8_t> &c,
                        const std::vector<double> &expect) {
  std::vector<uint8_t> rounded = ref::roundOutput(type, expect);
  double worst = 0.0;
  for (size_t i = 0; i < expect.size(); ++i) {
    double o = ref::readOutput(type, c.data(), i);
    double rr = ref::readOutput(type, rounded.data(), i);
    if (std::isfinite(o) && std::isfinite(rr))
      worst =
          std::max(worst, std::fabs(o - rr) / (1e-3 + 1e-3 * std::fabs(rr)));
  }
  return worst;
}

/// Half the spacing of `type` at |x| (0 for f32, whose result is not rounded
/// again after the f32 arithmetic).
double halfUlp(ElementType type, double x) {
  if (type == ElementType::F32 || !std::isfinite(x))
    return 0.0;
  int mantissa = type == ElementType::F16 ? 10 : 7;
  int minExp = type == ElementType::F16 ? -14 : -126;
  int e = x == 0.0 ? minExp : std::max(std::ilogb(x), minExp);
  return std::ldexp(1.0, e - mantissa - 1);
}

/// A bound on |o - r| for row (l, m) computed as the CPU lowering does (and
/// docs/numerics.md section 3 allows): exact block terms summed in f32 in kb
/// order, times alpha in f32, rounded to the output type. Recursive f32
/// summation errs by at most u * sum_k |s_k| over the partial sums s_k
/// (u = 2^-24; the factor 1 + 2nu covers using exact partial sums), a
/// term that underflows below 2^-126 at most 2^-149; alpha adds u |o32| and
/// the output rounding half an ulp of o, where |o32| and |o| are at most
/// (1 + 2u) (|r| + summation error) <= 2 (|r| + summation error).
double summationBound(const ref::GemvProblem &p, const ref::GemvInputs &in,
                      int64_t l, int64_t m, double r) {
  const int64_t bs = ref::blockSize(p.format), cols = p.k / bs;
  const uint8_t *aRow = in.a.data() + (l * p.m + m) * (p.k / 2);
  const uint8_t *bRow = in.b.data() + l * (p.k / 2);
  const uint8_t *sfa =
      in.sfa.data() + l * ref::scaleBatchBytes(p.layout, p.m, cols);
  const uint8_t *sfb =
      in.sfb.data() + l * ref::scaleBatchBytes(p.layout, 1, cols);
  double partial = 0.0, sumAbs = 0.0;
  for (int64_t kb = 0; kb < cols; ++kb) {
    double dot = 0.0;
    for (int64_t j = kb * bs / 2; j < (kb + 1) * bs / 2; ++j)
      dot +=
          formats::decodeE2M1(aRow[j] & 0xF) *
              formats::decodeE2M1(bRow[j] & 0xF) +
          formats::decodeE2M1(aRow[j] >> 4) * formats::decodeE2M1(bRow[j] >> 4);
    double sa = ref::decodeScale(p.format,
                                 sfa[ref::scaleOffset(p.layout, m, kb, cols)]);
    double sb = ref::decodeScale(p.format,
                                 sfb[ref::scaleOffset(p.layout, 0, kb, cols)]);
    partial += sa * sb * dot;
    if (kb > 0)
      sumAbs += std::fabs(partial);
  }
  const double u = std::ldexp(1.0, -24), n = static_cast<double>(cols);
  double sumError = std::fabs(static_cast<double>(p.alpha)) *
                    (u * (1 + 2 * n * u) * sumAbs + n * std::ldexp(1.0, -149));
  double magnitude = std::fabs(r) + sumError;
  return sumError + 2 * u * magnitude + halfUlp(p.output, 2 * magnitude);
}

/// Elements outside rtol = atol = 1e-3 of the rounded reference: those still
/// within the f32 summation bound (heavy cancellation, where the absolute
/// error of any f32 accumulation can exceed atol) and those beyond it.
struct Outliers {
  int64_t withinBound = 0, beyond = 0, first = -1;
};
Outliers classifyOutliers(const ref::GemvProblem &p, const ref::GemvInputs &in,
                          const std::vector<uint8_t> &c,
                          const std::vector<double> &expect) {
  Outliers out;
  std::vector<uint8_t> rounded = ref::roundOutput(p.output, expect);
  for (size_t i = 0; i < expect.size(); ++i) {
    double o = ref::readOutput(p.output, c.data(), i);
    double r = expect[i];
    double rr = ref::readOutput(p.output, rounded.data(), i);
    bool pass;
    if (std::isnan(r) || std::isnan(o))
      pass = std::isnan(r) && std::isnan(o);
    else
      pass = o == rr || std::fabs(o - rr) <= 1e-3 + 1e-3 * std::fabs(rr);
    if (pass)
      continue;
    bool bounded =
        std::isfinite(o) && std::isfinite(r) &&
        std::fabs(o - r) <= summationBound(p, in, i / p.m, i % p.m, r);
    if (bounded) {
      ++out.withinBound;
    } else {
      ++out.beyond;
      if (out.first < 0)
        out.first = static_cast<int64_t>(i);
    }
  }
  return out;
}

/// One GEMV case: every requested output type and alpha variant on one set
/// of generated inputs.
void checkGemv(Stats &stats, const Shape &s, ScaleFormat format,
               ScaleLayout layout, ref::Distribution dist, uint64_t seed,
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
    ref::Comparison cmp = ref::compare(v.type, c.data(), expect, 1e-3, 1e-3);
    bool inputsKept =
        in.a == a0 && in.sfa == sfa0 && in.b == b0 && in.sfb == sfb0;
    std::string what = strf("gemv %s %s %-4s %-12s M=%lld K=%lld L=%lld %s",
                            name(format), name(layout), name(v.type),
                            v.alpha ? strf("alpha=%.6g", alpha).c_str() : "",
                            (long long)s.m, (long long)s.k, (long long)s.l,
                            dist == ref::Distribution::Full ? "full" : "weak");
    std::string detail =
        strf("rel %.2e max %.2e, worst %.3f of tolerance", cmp.relError,
             cmp.maxAbsError, worstOfTolerance(v.type, c, expect));
    bool ok = cmp.ok();
    if (!ok) {
      Outliers out = classifyOutliers(p, in, c, expect);
      ok = out.beyond == 0;
      if (out.withinBound)
        detail += strf(", %lld beyond 1e-3 but within the f32 summation "
                       "bound",
                       (long long)out.withinBound);
      if (!ok) {
        int64_t i = out.first;
        detail += strf(", %lld wrong (%lld NaN); first: c[%lld][%lld] = "
                       "%.9g, reference %.17g",
                       (long long)out.beyond, (long long)cmp.nanCount,
                       (long long)(i / s.m), (long long)(i % s.m),
                       ref::readOutput(v.type, c.data(), i), expect[i]);
      }
    }
    if (!inputsKept)
      detail += ", inputs were modified";
    stats.report(ok && inputsKept, what, detail);
  }
}

//===----------------------------------------------------------------------===//
// Quantize and dequantize
//===----------------------------------------------------------------------===//

enum class InputType { F32, F16, BF16 };

/// Random quantizer input covering the whole range: per block a random
/// binade, elements that are grid points and midpoints of that binade
/// (ties), random values (including saturating ones), and zeros of both
/// signs; some blocks are all zero, some tiny.
std::vector<float> randomValues(std::mt19937_64 &rng, int64_t count,
                                int64_t block, InputType type) {
  std::vector<float> x(count);
  std::uniform_real_distribution<float> unit(1.0f, 2.0f);
  // f16 inputs keep to f16's normal range.
  int lo = type == InputType::F16 ? -12 : -40;
  int hi = type == InputType::F16 ? 12 : 40;
  for (int64_t first = 0; first < count; first += block) {
    uint64_t kind = rng() % 16;
    int e = lo + static_cast<int>(rng() % (hi - lo + 1));
    for (int64_t i = first; i < first + block; ++i) {
      float sign = rng() % 2 ? -1.0f : 1.0f;
      float v;
      if (kind == 0) { // an all-zero block, signs mixed
        v = 0.0f;
      } else if (kind == 1) { // a tiny block: subnormal e4m3 scales
        v = std::ldexp(unit(rng), -10 - static_cast<int>(rng() % 8));
      } else if (kind < 8) {
        // Quarter steps of 2^e up to 7: grid values, midpoints (ties for
        // power-of-two scales) and saturation; one element of most blocks
        // at 6 so that the scale is 2^e exactly.
        v = std::ldexp(static_cast<float>(rng() % 29) / 4.0f, e);
        if (i == first && kind < 6)
          v = std::ldexp(6.0f, e);
      } else {
        switch (rng() % 8) {
        case 0:
          v = 0.0f;
          break;
        default:
          v = std::ldexp(unit(rng), e - static_cast<int>(rng() % 6));
        }
      }
      x[i] = sign * v;
      if (type == InputType::F16)
        x[i] = formats::decodeF16(formats::encodeF16(x[i]));
      else if (type == InputType::BF16)
        x[i] = formats::decodeBF16(formats::encodeBF16(x[i]));
    }
  }
  return x;
}

/// The input buffer the kernel reads: f32, or f16 / bf16 bits.
std::vector<uint8_t> inputStorage(const std::vector<float> &x, InputType t) {
  if (t == InputType::F32) {
    std::vector<uint8_t> out(x.size() * 4);
    std::memcpy(out.data(), x.data(), out.size());
    return out;
  }
  std::vector<uint8_t> out(x.size() * 2);
  for (size_t i = 0; i < x.size(); ++i) {
    uint16_t h = t == InputType::F16 ? formats::encodeF16(x[i])
                                     : formats::encodeBF16(x[i]);
    std::memcpy(out.data() + 2 * i, &h, 2);
  }
  return out;
}

struct QuantizeVariant {
  ScaleFormat format;
  ScaleLayout layout;
  bool twoLevel;
  InputType input;
};

const char *name(InputType t) {
  return t == InputType::F32 ? "f32" : t == InputType::F16 ? "f16" : "bf16";
}

/// Runs the compiled quantizer into poisoned buffers.
ref::Quantized runQuantize(const QuantizeVariant &v,
                           std::vector<uint8_t> &input, int64_t rows, int64_t k,
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
  if (v.input == InputType::F16)
    _mlir_ciface_quantize_nvfp4_2l_linear_f16(&x, &data, &s.linear, &g);
  else if (v.input == InputType::BF16 && v.format == ScaleFormat::MXFP4)
    _mlir_ciface_quantize_mxfp4_linear_bf16(&x, &data, &s.linear);
  else if (v.input == InputType::BF16)
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
std::vector<uint8_t> runDequantize(ScaleFormat format, ScaleLayout layout,
                                   bool withGs, ElementType out,
                                   std::vector<uint8_t> &data,
                                   std::vector<uint8_t> &scales, float gs,
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

std::string quantizeName(const char *op, const QuantizeVariant &v, int64_t rows,
                         int64_t k, int64_t l) {
  return strf("%s %s%s %s %s rows=%lld K=%lld L=%lld", op, name(v.format),
              v.twoLevel ? " two-level" : "", name(v.layout), name(v.input),
              (long long)rows, (long long)k, (long long)l);
}

/// quantize(x) equals ref::quantize(x) byte for byte, and dequantizing it
/// stays within the documented error bound.
void checkQuantize(Stats &stats, std::mt19937_64 &rng, const QuantizeVariant &v,
                   int64_t rows, int64_t k, int64_t l) {
  const int64_t bs = ref::blockSize(v.format), cols = k / bs;
  std::vector<float> x = randomValues(rng, l * rows * k, bs, v.input);
  std::vector<uint8_t> input = inputStorage(x, v.input);
  const std::vector<uint8_t> input0 = input;
  ref::Quantized got = runQuantize(v, input, rows, k, l);
  ref::Quantized want =
      ref::quantize(v.format, v.layout, v.twoLevel, x.data(), rows, k, l);

  std::string detail;
  bool ok = true;
  std::vector<uint8_t> gotData = got.data;
  stats.damage(gotData, 1);
  if (int64_t i = firstDifference(gotData, want.data); i >= 0) {
    ok = false;
    detail +=
        strf("data byte %lld is 0x%02X, reference 0x%02X (x = %.9g, "
             "%.9g); ",
             (long long)i, gotData[i], want.data[i], x[2 * i], x[2 * i + 1]);
  }
  if (int64_t i = firstDifference(got.scales, want.scales); i >= 0) {
    ok = false;
    detail += strf("scale byte %lld is 0x%02X, reference 0x%02X; ",
                   (long long)i, got.scales[i], want.scales[i]);
  }
  if (floatToBits(got.globalScale) != floatToBits(want.globalScale)) {
    ok = false;
    detail += strf("global scale %.9g, reference %.9g; ", got.globalScale,
                   want.globalScale);
  }
  if (input != input0) {
    ok = false;
    detail += "input was modified; ";
  }
  stats.report(ok, quantizeName("quantize", v, rows, k, l),
               ok ? "bytes identical" : detail);

  // Round trip: |x - dequantize(quantize(x))| within docs/numerics.md 7.
  const double gs = got.globalScale;
  // Effective scale S = s / gs of the block of element i.
  auto blockScale = [&](int64_t i) {
    int64_t row = i / k, kb = (i % k) / bs;
    int64_t batch = row / rows, r = row % rows;
    uint8_t sbyte =
        got.scales[batch * ref::scaleBatchBytes(v.layout, rows, cols) +
                   ref::scaleOffset(v.layout, r, kb, cols)];
    return ref::decodeScale(v.format, sbyte) /
           (v.format == ScaleFormat::NVFP4 ? gs : 1.0);
  };
  if (stats.corrupt) {
    // Negate the first nonzero code of an unsaturated element: off by
    // |x| + |x~| >= 0.75 S, beyond the bound 0.25 S + 2^-21 |x|.
    for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
      uint8_t code = (got.data[i / 2] >> (4 * (i % 2))) & 0x7;
      if (code != 0 && std::fabs(x[i]) <= 6 * blockScale(i)) {
        got.data[i / 2] ^= (i % 2) ? 0x80 : 0x08;
        break;
      }
    }
  }
  std::vector<double> back = ref::dequantize(
      v.format, v.layout, got.data.data(), got.scales.data(), gs, rows, k, l);
  int64_t bad = -1;
  double worst = 0.0; // largest error / bound where t <= 6
  for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
    double S = blockScale(i);
    double xi = x[i], err = std::fabs(xi - back[i]);
    if (!(S > 0)) {
      // A zero scale (NVFP4 only): everything dequantizes to 0, and the
      // scale only rounds to 0 for bmax * gs / 6 <= 2^-10.
      if (back[i] != 0.0 || std::fabs(xi) > 6 * std::ldexp(1.0, -10) / gs) {
        bad = i;
        break;
      }
      continue;
    }
    double t = std::fabs(xi) / S;
    double d = t <= 2 ? 0.25 : t <= 4 ? 0.5 : t <= 6 ? 1.0 : t - 6;
    double bound =
        S * d +
        (v.format == ScaleFormat::NVFP4 ? std::ldexp(std::fabs(xi), -21) : 0.0);
    if (!(err <= bound)) {
      bad = i;
      break;
    }
    if (t <= 6)
      worst = std::max(worst, err / bound);
  }
  stats.report(
      bad < 0,
      quantizeName("round trip dequantize(quantize(x))", v, rows, k, l),
      bad < 0 ? strf("max error / bound %.3f (unsaturated)", worst)
              : strf("element %lld: x = %.9g, back %.17g", (long long)bad,
                     x[bad], back[bad]));
}

/// dequantize on random codes and scales (all bytes, NaN included) equals the
/// correctly rounded ref::dequantize exactly.
void checkDequantize(Stats &stats, std::mt19937_64 &rng, ScaleFormat format,
                     ScaleLayout layout, bool withGs, ElementType out,
                     int64_t rows, int64_t k, int64_t l) {
  const int64_t cols = k / ref::blockSize(format);
  std::vector<uint8_t> data(l * rows * (k / 2));
  for (auto &byte : data)
    byte = static_cast<uint8_t>(rng());
  std::vector<uint8_t> linear(l * rows * cols);
  for (auto &byte : linear) {
    // Mostly realistic scales, sometimes any byte (NaN, negative, extreme).
    if (rng() % 4 == 0)
      byte = static_cast<uint8_t>(rng());
    else if (format == ScaleFormat::NVFP4)
      byte = static_cast<uint8_t>(0x08 + rng() % (0x58 - 0x08 + 1));
    else
      byte = static_cast<uint8_t>(117 + rng() % 21);
  }
  std::vector<uint8_t> scales = ref::convertScaleLayout(
      ScaleLayout::Linear, layout, linear.data(), rows, cols, l);
  // A two-level global scale: 2688 / amax for some amax, any mantissa.
  float gs = 1.0f;
  if (withGs)
    gs = 2688.0f / std::ldexp(std::uniform_real_distribution<float>(1, 2)(rng),
                              static_cast<int>(rng() % 24) - 12);
  std::vector<uint8_t> y =
      runDequantize(format, layout, withGs, out, data, scales, gs, rows, k, l);
  stats.damage(y, ref::elementBytes(out));
  std::vector<double> want = ref::dequantize(format, layout, data.data(),
                                             scales.data(), gs, rows, k, l);
  ref::Comparison cmp = ref::compare(out, y.data(), want, 0.0, 0.0);
  std::string what =
      strf("dequantize %s%s %s %-4s rows=%lld K=%lld L=%lld", name(format),
           withGs ? " gs" : "", name(layout), name(out), (long long)rows,
           (long long)k, (long long)l);
  std::string detail = "correctly rounded";
  if (!cmp.ok()) {
    int64_t i = std::max<int64_t>(cmp.firstMismatch, 0);
    detail = strf("%lld NaN; element %lld is %.9g, reference %.17g",
                  (long long)cmp.nanCount, (long long)i,
                  ref::readOutput(out, y.data(), i), want[i]);
  }
  stats.report(cmp.ok(), what, detail);
}

/// quantize(dequantize(q)) == q when q is representable: every block holds
/// a code of the largest magnitude (6; 4 or 6 for MXFP4), and in the
/// two-level case the global scale is a power of two and some scale is 448.
void checkRequantize(Stats &stats, std::mt19937_64 &rng,
                     const QuantizeVariant &v, int64_t rows, int64_t k,
                     int64_t l) {
  const int64_t bs = ref::blockSize(v.format), cols = k / bs;
  std::vector<uint8_t> codes(l * rows * k), linear(l * rows * cols);
  for (auto &c : codes)
    c = static_cast<uint8_t>(rng() % 16);
  for (int64_t blk = 0; blk < l * rows * cols; ++blk) {
    bool six = v.format == ScaleFormat::NVFP4 || rng() % 2;
    codes[blk * bs + rng() % bs] =
        static_cast<uint8_t>((six ? 7 : 6) | (rng() % 2 ? 8 : 0));
    // NVFP4: any positive finite e4m3, subnormals included. MXFP4: 2^-127
    // up to 2^125 (6 * 2^126 would overflow f32).
    linear[blk] = v.format == ScaleFormat::NVFP4
                      ? static_cast<uint8_t>(1 + rng() % 0x7E)
                      : static_cast<uint8_t>(rng() % 253);
  }
  float gs = 1.0f;
  if (v.twoLevel) {
    gs = std::ldexp(1.0f, static_cast<int>(rng() % 16) - 4);
    linear[rng() % linear.size()] = 0x7E;
  }
  std::vector<uint8_t> data(codes.size() / 2);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<uint8_t>(codes[2 * i] | (codes[2 * i + 1] << 4));
  std::vector<uint8_t> scales = ref::convertScaleLayout(
      ScaleLayout::Linear, v.layout, linear.data(), rows, cols, l);

  std::vector<uint8_t> y =
      runDequantize(v.format, v.layout, v.twoLevel, ElementType::F32, data,
                    scales, gs, rows, k, l);
  std::vector<float> x(codes.size());
  std::memcpy(x.data(), y.data(), y.size());
  std::vector<uint8_t> input = inputStorage(x, InputType::F32);
  ref::Quantized q = runQuantize(v, input, rows, k, l);
  stats.damage(q.data, 1);
  std::string detail;
  if (int64_t i = firstDifference(q.data, data); i >= 0)
    detail += strf("data byte %lld is 0x%02X, expected 0x%02X; ", (long long)i,
                   q.data[i], data[i]);
  if (int64_t i = firstDifference(q.scales, scales); i >= 0)
    detail += strf("scale byte %lld is 0x%02X, expected 0x%02X; ", (long long)i,
                   q.scales[i], scales[i]);
  if (q.globalScale != gs)
    detail += strf("global scale %.9g, expected %.9g", q.globalScale, gs);
  stats.report(
      detail.empty(),
      quantizeName("round trip quantize(dequantize(q))", v, rows, k, l),
      detail.empty() ? "q reproduced" : detail);
}

//===----------------------------------------------------------------------===//
// convert_scale_layout
//===----------------------------------------------------------------------===//

void runConvert(bool e8m0, ScaleLayout from, ScaleLayout to,
                std::vector<uint8_t> &src, std::vector<uint8_t> &dst,
                int64_t rows, int64_t cols, int64_t l) {
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

void checkConvert(Stats &stats, std::mt19937_64 &rng, bool e8m0, int64_t rows,
                  int64_t cols, int64_t l) {
  const ScaleLayout lin = ScaleLayout::Linear, blk = ScaleLayout::Blocked128x4;
  std::vector<uint8_t> linear(scaleBytes(lin, l, rows, cols));
  for (auto &byte : linear)
    byte = static_cast<uint8_t>(rng());
  auto convert = [&](ScaleLayout from, ScaleLayout to,
                     std::vector<uint8_t> &src) {
    std::vector<uint8_t> dst(scaleBytes(to, l, rows, cols), 0xAB);
    runConvert(e8m0, from, to, src, dst, rows, cols, l);
    return dst;
  };
  std::string what = strf("convert_scale_layout %s rows=%lld cols=%lld L=%lld",
                          e8m0 ? "ue8m0" : "e4m3 ", (long long)rows,
                          (long long)cols, (long long)l);
  std::string detail;
  auto expectEqual = [&](const char *step, const std::vector<uint8_t> &got,
                         const std::vector<uint8_t> &want) {
    if (int64_t i = firstDifference(got, want); i >= 0)
      detail += strf("%s: byte %lld is 0x%02X, expected 0x%02X; ", step,
                     (long long)i, got[i], want[i]);
  };
  // linear -> blocked (padding zero), and back.
  std::vector<uint8_t> blocked = convert(lin, blk, linear);
  stats.damage(blocked, 1);
  expectEqual("linear->blocked", blocked,
              ref::convertScaleLayout(lin, blk, linear.data(), rows, cols, l));
  expectEqual("linear->blocked->linear", convert(blk, lin, blocked), linear);
  // A blocked source with garbage padding: padding is not read.
  std::vector<uint8_t> noisy = blocked;
  std::vector<uint8_t> mask = ref::convertScaleLayout(
      lin, blk, std::vector<uint8_t>(linear.size(), 1).data(), rows, cols, l);
  for (size_t i = 0; i < noisy.size(); ++i)
    if (!mask[i])
      noisy[i] = static_cast<uint8_t>(rng() | 1);
  std::vector<uint8_t> fromNoisy = convert(blk, lin, noisy);
  expectEqual("blocked->linear", fromNoisy,
              ref::convertScaleLayout(blk, lin, noisy.data(), rows, cols, l));
  expectEqual("blocked->linear->blocked", convert(lin, blk, fromNoisy),
              blocked);
  // Same layout: copies, padding included.
  expectEqual("linear->linear", convert(lin, lin, linear), linear);
  expectEqual("blocked->blocked", convert(blk, blk, noisy), noisy);
  stats.report(detail.empty(), what,
               detail.empty() ? "matches the reference, round trips" : detail);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

void usage() {
  std::fprintf(
      stderr,
      "usage: nvfp4-cpu-check [--seed N] [--quick] [--small] [--corrupt]\n"
      "  --seed N   seed of every random choice (default: from the clock)\n"
      "  --quick    large GEMV shapes only with f16 output and f32 with "
      "alpha\n"
      "  --small    leave out the large shapes\n"
      "  --corrupt  damage one element of every result before checking it: "
      "every case must fail\n");
}

} // namespace

int main(int argc, char **argv) {
  uint64_t seed = static_cast<uint64_t>(
      std::chrono::system_clock::now().time_since_epoch().count());
  bool quick = false, small = false, corrupt = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--seed" && i + 1 < argc) {
      char *end = nullptr;
      seed = std::strtoull(argv[++i], &end, 0);
      if (!end || *end) {
        usage();
        return 2;
      }
    } else if (arg == "--quick") {
      quick = true;
    } else if (arg == "--small") {
      small = true;
    } else if (arg == "--corrupt") {
      corrupt = true;
    } else {
      usage();
      return 2;
    }
  }
  std::printf("nvfp4-cpu-check: seed %llu (rerun with --seed %llu)\n",
              (unsigned long long)seed, (unsigned long long)seed);
  auto start = std::chrono::steady_clock::now();
  std::mt19937_64 rng(seed);
  Stats stats;
  stats.corrupt = corrupt;
  stats.corruptRng.seed(seed ^ 0x9E3779B97F4A7C15ull);
  // Shapes above this many matrix elements are "large".
  const int64_t largeElements = int64_t(1) << 20;

  // GEMV: the nine competition test shapes and odd ones (one row, rows and
  // scale columns that do not fill a 128x4 atom, K = 64, three batches).
  const std::vector<Shape> shapes = {
      {128, 256, 1},   {128, 1536, 1}, {128, 3072, 1}, {256, 7168, 1},
      {2432, 4608, 2}, {384, 7168, 2}, {512, 512, 2},  {512, 4096, 2},
      {512, 1536, 2},  {1, 64, 1},     {1, 4096, 3},   {130, 64, 3},
      {130, 96, 2},    {3, 160, 1},    {257, 1024, 3}};
  for (const Shape &s : shapes)
    for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
      if (s.k % ref::blockSize(f) != 0)
        continue;
      for (ScaleLayout lay : {ScaleLayout::Linear, ScaleLayout::Blocked128x4})
        for (ref::Distribution d :
             {ref::Distribution::Full, ref::Distribution::Weak}) {
          // alpha: 1 / (gs_a * gs_b) of realistic two-level global scales.
          float alpha =
              std::ldexp(std::uniform_real_distribution<float>(1.0f, 2.0f)(rng),
                         -static_cast<int>(rng() % 12));
          uint64_t caseSeed = rng();
          bool large = s.m * s.k * s.l > largeElements;
          if (large && small)
            continue;
          checkGemv(stats, s, f, lay, d, caseSeed, alpha, !(large && quick));
        }
    }

  // Quantize (exact bytes, error bound) and quantize(dequantize(q)) == q.
  struct QShape {
    int64_t rows, k, l;
  };
  const std::vector<QShape> qshapes = {
      {130, 256, 2}, {1, 64, 3}, {3, 96, 2}, {256, 7168, 1}};
  const std::vector<QuantizeVariant> qvariants = {
      {ScaleFormat::NVFP4, ScaleLayout::Linear, false, InputType::F32},
      {ScaleFormat::NVFP4, ScaleLayout::Blocked128x4, false, InputType::F32},
      {ScaleFormat::NVFP4, ScaleLayout::Linear, true, InputType::F32},
      {ScaleFormat::NVFP4, ScaleLayout::Blocked128x4, true, InputType::F32},
      {ScaleFormat::MXFP4, ScaleLayout::Linear, false, InputType::F32},
      {ScaleFormat::MXFP4, ScaleLayout::Blocked128x4, false, InputType::F32},
      {ScaleFormat::NVFP4, ScaleLayout::Linear, true, InputType::F16},
      {ScaleFormat::NVFP4, ScaleLayout::Linear, false, InputType::BF16},
      {ScaleFormat::MXFP4, ScaleLayout::Linear, false, InputType::BF16}};
  for (const QShape &s : qshapes)
    for (const QuantizeVariant &v : qvariants) {
      if (s.k % ref::blockSize(v.format) != 0 ||
          (small && s.rows * s.k * s.l > largeElements))
        continue;
      checkQuantize(stats, rng, v, s.rows, s.k, s.l);
      if (v.input == InputType::F32)
        checkRequantize(stats, rng, v, s.rows, s.k, s.l);
    }

  // Dequantize, every variant.
  for (const QShape &s : qshapes)
    for (ScaleFormat f : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
      for (bool withGs : {false, true}) {
        if (withGs && f == ScaleFormat::MXFP4)
          continue;
        if (s.k % ref::blockSize(f) != 0 ||
            (small && s.rows * s.k * s.l > largeElements))
          continue;
        for (ScaleLayout lay : {ScaleLayout::Linear, ScaleLayout::Blocked128x4})
          for (ElementType t :
               {ElementType::F16, ElementType::BF16, ElementType::F32})
            checkDequantize(stats, rng, f, lay, withGs, t, s.rows, s.k, s.l);
      }

  // convert_scale_layout: sfa and sfb shapes of the test shapes.
  struct CShape {
    int64_t rows, cols, l;
  };
  for (CShape s : {CShape{130, 6, 2}, CShape{1, 448, 3}, CShape{257, 3, 1},
                   CShape{128, 4, 1}, CShape{2432, 288, 2}, CShape{1, 2, 1}})
    for (bool e8m0 : {false, true})
      if (!small || s.rows * s.cols * s.l <= largeElements / 16)
        checkConvert(stats, rng, e8m0, s.rows, s.cols, s.l);

  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("nvfp4-cpu-check: %lld cases, %lld passed, %lld failed (seed "
              "%llu, %.1f s)\n",
              (long long)stats.cases, (long long)(stats.cases - stats.failed),
              (long long)stats.failed, (unsigned long long)seed, seconds);
  return stats.failed ? 1 : 0;
}
