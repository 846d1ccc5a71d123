//===- Reference.cpp - Plain-loop reference for the nvfp4 ops -------------===//
//
// Straightforward loops, written for clarity rather than speed. The semantics
// (including the f32 operation order of quantize) are those of
// docs/numerics.md.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Reference.h"

#include "ReferenceChecks.h"

#include "nvfp4/Support/CodeLayout.h"
#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/ParallelFor.h"
#include "nvfp4/Support/ScaleLayout.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace nvfp4;
using namespace nvfp4::ref;
using nvfp4::ref::detail::checkShape;
using nvfp4::ref::detail::fatal;

namespace {} // namespace

void ref::detail::fatal(const char *msg) {
  std::fprintf(stderr, "nvfp4 reference: %s\n", msg);
  std::abort();
}

void ref::detail::checkShape(ScaleFormat format, int64_t rows, int64_t k,
                             int64_t l) {
  if (rows < 0 || k < 0 || l < 0)
    fatal("negative dimension");
  if (k % blockSize(format) != 0)
    fatal("k must be a multiple of the scale block size");
}

void ref::detail::checkGemvShape(const GemvProblem &p) {
  checkShape(p.format, p.m, p.k, p.l);
  if (p.n < 1 || p.n > formats::kMaxGemvVectors)
    fatal("a gemv takes 1 to 16 vectors");
}

const char *ref::name(ScaleFormat format) {
  return format == ScaleFormat::NVFP4 ? "nvfp4" : "mxfp4";
}

const char *ref::name(ScaleLayout layout) {
  return layout == ScaleLayout::Linear ? "linear" : "blocked128x4";
}

const char *ref::name(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  }
  return "?";
}

const char *ref::name(VectorElement type) {
  switch (type) {
  case VectorElement::E2M1:
    return "e2m1";
  case VectorElement::F16:
    return "f16";
  case VectorElement::BF16:
    return "bf16";
  }
  return "?";
}

const char *ref::name(GemvSums sums) {
  return sums == GemvSums::Products ? "products" : "units";
}

int64_t ref::vectorBatchBytes(const GemvProblem &p) {
  return p.vector == VectorElement::E2M1 ? p.n * (p.k / 2) : p.n * p.k * 2;
}

int64_t ref::vectorScaleBatchBytes(const GemvProblem &p) {
  if (p.vector != VectorElement::E2M1)
    return 0;
  return scaleBatchBytes(p.layout, p.n, p.k / blockSize(p.format));
}

double ref::vectorValue(const GemvProblem &p, const uint8_t *b, int64_t vec,
                        int64_t i) {
  if (p.vector == VectorElement::E2M1)
    return formats::decodeE2M1(e2m1Code(b + vec * (p.k / 2), i));
  const uint8_t *at = b + (vec * p.k + i) * 2;
  uint16_t bits = static_cast<uint16_t>(at[0] | at[1] << 8);
  return p.vector == VectorElement::F16 ? formats::decodeF16(bits)
                                        : formats::decodeBF16(bits);
}

int64_t ref::blockSize(ScaleFormat format) {
  return format == ScaleFormat::NVFP4 ? formats::kNVFP4BlockSize
                                      : formats::kMXFP4BlockSize;
}

int64_t ref::scaleBatchBytes(ScaleLayout layout, int64_t rows,
                             int64_t scaleCols) {
  if (layout == ScaleLayout::Linear)
    return rows * scaleCols;
  return layout::blockedBatchBytes(rows, scaleCols);
}

int64_t ref::scaleOffset(ScaleLayout layout, int64_t row, int64_t col,
                         int64_t scaleCols) {
  if (layout == ScaleLayout::Linear)
    return layout::linearOffset(row, col, scaleCols);
  return layout::blockedOffset(row, col, scaleCols);
}

int64_t ref::elementBytes(ElementType type) {
  return type == ElementType::F32 ? 4 : 2;
}

std::array<double, 256> ref::detail::scaleValues(ScaleFormat format) {
  std::array<double, 256> values;
  for (int bits = 0; bits < 256; ++bits)
    values[bits] = decodeScale(format, bits);
  return values;
}

double ref::decodeScale(ScaleFormat format, uint8_t bits) {
  return format == ScaleFormat::NVFP4 ? formats::decodeE4M3FN(bits)
                                      : formats::decodeUE8M0(bits);
}

std::vector<double> ref::gemvExact(const GemvProblem &p, const uint8_t *a,
                                   const uint8_t *sfa, const uint8_t *b,
                                   const uint8_t *sfb) {
  detail::checkGemvShape(p);
  const int64_t bs = blockSize(p.format);
  const int64_t cols = p.k / bs;
  const int64_t rowBytes = p.k / 2;
  const int64_t sfaBatch = scaleBatchBytes(p.layout, p.m, cols);
  const int64_t bBatch = vectorBatchBytes(p);
  const int64_t sfbBatch = vectorScaleBatchBytes(p);
  const bool packed = p.vector == VectorElement::E2M1;

  // Decoded pairs per packed byte, so the inner loop is two multiplies, and
  // decoded scale bytes.
  double lo[256], hi[256];
  for (int v = 0; v < 256; ++v) {
    lo[v] = formats::decodeE2M1(v & 0xF);
    hi[v] = formats::decodeE2M1(v >> 4);
  }
  const std::array<double, 256> scales = detail::scaleValues(p.format);

  std::vector<double> c(p.l * p.n * p.m);
  // c[(l * N + n) * M + m]: each element on its own, so any thread may take it.
  auto element = [&](int64_t index) {
    auto [l, n, m] = detail::gemvElementIndex(p, index);
    const uint8_t *bBatchData = b + l * bBatch;
    const uint8_t *bRow = bBatchData + n * rowBytes;
    const uint8_t *aRow = a + (l * p.m + m) * rowBytes;
    double acc = 0.0;
    for (int64_t kb = 0; kb < cols; ++kb) {
      double sa =
          scales[sfa[l * sfaBatch + scaleOffset(p.layout, m, kb, cols)]];
      if (!packed) {
        // Value by value, as the CPU lowering adds: each term is exact.
        for (int64_t i = kb * bs; i < (kb + 1) * bs; ++i)
          acc += sa * formats::decodeE2M1(e2m1Code(aRow, i)) *
                 vectorValue(p, bBatchData, n, i);
        continue;
      }
      double sb =
          scales[sfb[l * sfbBatch + scaleOffset(p.layout, n, kb, cols)]];
      // Products and block sums of e2m1 values are exact in double.
      double dot = 0.0;
      for (int64_t j = kb * bs / 2; j < (kb + 1) * bs / 2; ++j)
        dot += lo[aRow[j]] * lo[bRow[j]] + hi[aRow[j]] * hi[bRow[j]];
      acc += (sa * sb) * dot;
    }
    return static_cast<double>(p.alpha) * acc;
  };
  parallelFor(int64_t(c.size()), detail::kReferenceGrainValues / p.k + 1,
              [&](int64_t begin, int64_t end) {
                for (int64_t i = begin; i < end; ++i)
                  c[i] = element(i);
              });
  return c;
}

std::vector<uint8_t> ref::roundOutput(ElementType type,
                                      const std::vector<double> &values) {
  const int64_t eb = elementBytes(type);
  std::vector<uint8_t> out(values.size() * eb);
  for (size_t i = 0; i < values.size(); ++i) {
    uint8_t *dst = out.data() + i * eb;
    if (type == ElementType::F32) {
      float f = static_cast<float>(values[i]); // IEEE: correctly rounded
      std::memcpy(dst, &f, sizeof(f));
      continue;
    }
    uint16_t h = type == ElementType::F16
                     ? formats::encodeF16FromDouble(values[i])
                     : formats::encodeBF16FromDouble(values[i]);
    std::memcpy(dst, &h, sizeof(h));
  }
  return out;
}

double ref::readOutput(ElementType type, const uint8_t *c, int64_t i) {
  if (type == ElementType::F32) {
    float f;
    std::memcpy(&f, c + i * 4, sizeof(f));
    return f;
  }
  uint16_t h;
  std::memcpy(&h, c + i * 2, sizeof(h));
  return type == ElementType::F16 ? formats::decodeF16(h)
                                  : formats::decodeBF16(h);
}

std::vector<uint8_t> ref::relayCodes(bool toTiled, const uint8_t *a,
                                     int64_t rows, int64_t rowBytes,
                                     int64_t l) {
  if (!codes::tileable(rows, rowBytes))
    fatal("a's rows and row bytes are no whole tiles (CodeLayout.h)");
  std::vector<uint8_t> out(l * rows * rowBytes);
  const int64_t batch = rows * rowBytes;
  for (int64_t b = 0; b < l; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < rowBytes; ++j) {
        int64_t plain = b * batch + r * rowBytes + j;
        int64_t tiled = b * batch + codes::tiledOffset(r, j, rowBytes);
        out[toTiled ? tiled : plain] = a[toTiled ? plain : tiled];
      }
  return out;
}

namespace {
std::vector<uint8_t> relayProblemCodes(const GemvProblem &p, bool toTiled,
                                       const uint8_t *a) {
  if (p.tiledCodes)
    return relayCodes(toTiled, a, p.m, p.k / 2, p.l);
  return std::vector<uint8_t>(a, a + p.l * p.m * (p.k / 2));
}
} // namespace

std::vector<uint8_t> ref::storedCodes(const GemvProblem &p,
                                      const uint8_t *rowMajor) {
  return relayProblemCodes(p, true, rowMajor);
}

std::vector<uint8_t> ref::rowMajorCodes(const GemvProblem &p,
                                        const uint8_t *stored) {
  return relayProblemCodes(p, false, stored);
}

std::vector<uint8_t> ref::convertScaleLayout(ScaleLayout from, ScaleLayout to,
                                             const uint8_t *src, int64_t rows,
                                             int64_t cols, int64_t l) {
  const int64_t srcBatch = scaleBatchBytes(from, rows, cols);
  const int64_t dstBatch = scaleBatchBytes(to, rows, cols);
  if (from == to)
    return std::vector<uint8_t>(src, src + l * srcBatch);
  std::vector<uint8_t> dst(l * dstBatch, 0);
  for (int64_t b = 0; b < l; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        dst[b * dstBatch + scaleOffset(to, r, c, cols)] =
            src[b * srcBatch + scaleOffset(from, r, c, cols)];
  return dst;
}

Quantized ref::quantize(ScaleFormat format, ScaleLayout layout, bool twoLevel,
                        const float *x, int64_t rows, int64_t k, int64_t l) {
  checkShape(format, rows, k, l);
  if (k % 2 != 0)
    fatal("k must be even");
  if (format == ScaleFormat::MXFP4 && twoLevel)
    fatal("MXFP4 has no two-level quantization");
  const int64_t bs = blockSize(format);
  const int64_t cols = k / bs;
  const int64_t total = l * rows * k;

  Quantized q;
  q.data.assign(l * rows * (k / 2), 0);
  std::vector<uint8_t> linear(l * rows * cols, 0);

  // Maxima use fmax (IEEE maxNum): a NaN element does not win.
  float gs = 1.0f;
  if (twoLevel) {
    float amax = 0.0f;
    for (int64_t i = 0; i < total; ++i)
      amax = std::fmax(amax, std::fabs(x[i]));
    if (amax != 0.0f)
      gs = 2688.0f / amax; // 448 * 6, exact in f32; one f32 division
  }
  q.globalScale = gs;

  for (int64_t row = 0; row < l * rows; ++row) {
    const float *xRow = x + row * k;
    uint8_t *dRow = q.data.data() + row * (k / 2);
    for (int64_t kb = 0; kb < cols; ++kb) {
      const float *blk = xRow + kb * bs;
      float bmax = 0.0f;
      for (int64_t i = 0; i < bs; ++i)
        bmax = std::fmax(bmax, std::fabs(blk[i]));

      uint8_t scaleByte = 0;
      float inv = 0.0f; // multiplier into the e2m1 range; 0: all codes +0
      if (format == ScaleFormat::NVFP4) {
        float prod = bmax * gs;     // f32 multiply
        float target = prod / 6.0f; // f32 divide
        scaleByte = formats::encodeE4M3FN(target);
        float sv = static_cast<float>(formats::decodeE4M3FN(scaleByte));
        if (sv != 0.0f)
          inv = gs / sv; // f32 divide
      } else if (bmax != 0.0f) {
        int e2;
        std::frexp(bmax, &e2); // floor(log2(bmax)) == e2 - 1, exactly
        int e = e2 - 1 - 2;    // 2 = exponent of e2m1's largest value (6)
        e = e < -127 ? -127 : (e > 127 ? 127 : e);
        scaleByte = static_cast<uint8_t>(e + 127);
        inv = std::ldexp(1.0f, -e); // 2^-e, a float for every e in range
      }
      linear[row * cols + kb] = scaleByte;
      if (inv == 0.0f)
        continue; // codes stay +0
      for (int64_t i = 0; i < bs; ++i) {
        uint8_t code = formats::encodeE2M1(blk[i] * inv); // f32 multiply
        int64_t e = kb * bs + i;
        dRow[e / 2] |= (e % 2) ? static_cast<uint8_t>(code << 4) : code;
      }
    }
  }

  q.scales = convertScaleLayout(ScaleLayout::Linear, layout, linear.data(),
                                rows, cols, l);
  return q;
}

std::vector<double> ref::dequantize(ScaleFormat format, ScaleLayout layout,
                                    const uint8_t *data, const uint8_t *scales,
                                    float globalScale, int64_t rows, int64_t k,
                                    int64_t l) {
  checkShape(format, rows, k, l);
  const int64_t bs = blockSize(format);
  const int64_t cols = k / bs;
  const int64_t batch = scaleBatchBytes(layout, rows, cols);
  const double gs = globalScale;
  std::vector<double> x(l * rows * k);
  for (int64_t b = 0; b < l; ++b)
    for (int64_t r = 0; r < rows; ++r) {
      const uint8_t *dRow = data + (b * rows + r) * (k / 2);
      for (int64_t i = 0; i < k; ++i) {
        double s = decodeScale(
            format, scales[b * batch + scaleOffset(layout, r, i / bs, cols)]);
        x[(b * rows + r) * k + i] =
            (formats::decodeE2M1(e2m1Code(dRow, i)) * s) / gs;
      }
    }
  return x;
}

namespace {
/// Whether `o` is the rounding to `type` of some value within `tol` of `r`.
/// A kernel rounds its f32 sum to the output type once; where the exact
/// result lies near the midpoint of two bf16 (or f16) neighbours, a sum
/// correct to well within the tolerance may round to either of them.
bool roundsFromWithin(ElementType type, double o, double r, double tol) {
  std::vector<uint8_t> ends = roundOutput(type, {r - tol, r + tol});
  return readOutput(type, ends.data(), 0) <= o &&
         o <= readOutput(type, ends.data(), 1);
}
} // namespace

Comparison ref::compare(ElementType type, const uint8_t *out,
                        const std::vector<double> &ref, double rtol,
                        double atol, const std::vector<Verdict> *decided) {
  Comparison cmp;
  std::vector<uint8_t> rounded = roundOutput(type, ref);
  double errSq = 0.0, refSq = 0.0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double o = readOutput(type, out, i);
    double r = ref[i];
    double rr = readOutput(type, rounded.data(), i);
    bool pass;
    Verdict verdict = decided ? (*decided)[i] : Verdict::ByTolerance;
    if (verdict != Verdict::ByTolerance) {
      pass = verdict == Verdict::Pass;
      cmp.nanCount += !pass && std::isnan(o) && !std::isnan(r);
    } else if (std::isnan(r)) {
      pass = std::isnan(o);
    } else if (std::isnan(o)) {
      pass = false;
      ++cmp.nanCount;
    } else if (std::isinf(rr)) {
      pass = o == rr; // the same infinity; no tolerance reaches it
    } else {
      pass = std::isfinite(o) &&
             (o == rr || std::fabs(o - rr) <= atol + rtol * std::fabs(rr) ||
              roundsFromWithin(type, o, r, atol + rtol * std::fabs(r)));
    }
    if (!pass && cmp.firstMismatch < 0)
      cmp.firstMismatch = static_cast<int64_t>(i);

    // Errors against the unrounded reference, where both sides are finite;
    // an element that fails on a NaN or an infinity makes the error
    // infinite, a matching one adds nothing.
    if (std::isfinite(o) && std::isfinite(rr)) {
      cmp.maxAbsError = std::fmax(cmp.maxAbsError, std::fabs(o - r));
      errSq += (o - r) * (o - r);
      refSq += r * r;
    } else if (!pass) {
      cmp.maxAbsError = std::numeric_limits<double>::infinity();
    }
  }
  if (refSq > 0.0)
    cmp.relError = std::sqrt(errSq / refSq);
  else
    cmp.relError = errSq > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
  return cmp;
}
