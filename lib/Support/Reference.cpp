//===- Reference.cpp - Plain-loop reference for the nvfp4 ops -------------===//
//
// Straightforward loops, written for clarity rather than speed. The semantics
// (including the f32 operation order of quantize) are those of
// docs/numerics.md.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Reference.h"

#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/ScaleLayout.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

using namespace nvfp4;
using namespace nvfp4::ref;

namespace {

[[noreturn]] void fatal(const char *msg) {
  std::fprintf(stderr, "nvfp4 reference: %s\n", msg);
  std::abort();
}

void checkShape(ScaleFormat format, int64_t rows, int64_t k, int64_t l) {
  if (rows < 0 || k < 0 || l < 0)
    fatal("negative dimension");
  if (k % blockSize(format) != 0)
    fatal("k must be a multiple of the scale block size");
}

/// e2m1 code `i` (0-based along k) of a packed row: element 2j is the low
/// nibble of byte j.
uint8_t codeAt(const uint8_t *row, int64_t i) {
  uint8_t byte = row[i / 2];
  return (i % 2) ? (byte >> 4) : (byte & 0xF);
}

/// An integer uniformly distributed in [0, n), by rejection so that the
/// mapping from engine output is fully specified (unlike
/// std::uniform_int_distribution, whose algorithm varies by library).
uint64_t uniformBelow(std::mt19937_64 &rng, uint64_t n) {
  // Largest multiple of n representable in 64 bits is 2^64 - (2^64 mod n).
  const uint64_t rem = (0 - n) % n; // 2^64 mod n
  for (;;) {
    uint64_t v = rng();
    if (v >= rem) // accept the top 2^64 - rem values: a multiple of n
      return (v - rem) % n;
  }
}

} // namespace

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

const char *ref::name(Distribution dist) {
  switch (dist) {
  case Distribution::Full:
    return "full";
  case Distribution::Weak:
    return "weak";
  case Distribution::Extreme:
    return "extreme";
  }
  return "?";
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

double ref::decodeScale(ScaleFormat format, uint8_t bits) {
  return format == ScaleFormat::NVFP4 ? formats::decodeE4M3FN(bits)
                                      : formats::decodeUE8M0(bits);
}

std::vector<double> ref::gemvExact(const GemvProblem &p, const uint8_t *a,
                                   const uint8_t *sfa, const uint8_t *b,
                                   const uint8_t *sfb) {
  checkShape(p.format, p.m, p.k, p.l);
  const int64_t bs = blockSize(p.format);
  const int64_t cols = p.k / bs;
  const int64_t rowBytes = p.k / 2;
  const int64_t sfaBatch = scaleBatchBytes(p.layout, p.m, cols);
  const int64_t sfbBatch = scaleBatchBytes(p.layout, 1, cols);

  // Decoded pairs per packed byte, so the inner loop is two multiplies.
  double lo[256], hi[256];
  for (int v = 0; v < 256; ++v) {
    lo[v] = formats::decodeE2M1(v & 0xF);
    hi[v] = formats::decodeE2M1(v >> 4);
  }

  std::vector<double> c(p.l * p.m);
  for (int64_t l = 0; l < p.l; ++l) {
    const uint8_t *bRow = b + l * rowBytes;
    for (int64_t m = 0; m < p.m; ++m) {
      const uint8_t *aRow = a + (l * p.m + m) * rowBytes;
      double acc = 0.0;
      for (int64_t kb = 0; kb < cols; ++kb) {
        double sa = decodeScale(
            p.format, sfa[l * sfaBatch + scaleOffset(p.layout, m, kb, cols)]);
        double sb = decodeScale(
            p.format, sfb[l * sfbBatch + scaleOffset(p.layout, 0, kb, cols)]);
        // Products and block sums of e2m1 values are exact in double.
        double dot = 0.0;
        for (int64_t j = kb * bs / 2; j < (kb + 1) * bs / 2; ++j)
          dot += lo[aRow[j]] * lo[bRow[j]] + hi[aRow[j]] * hi[bRow[j]];
        acc += (sa * sb) * dot;
      }
      c[l * p.m + m] = static_cast<double>(p.alpha) * acc;
    }
  }
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
            (formats::decodeE2M1(codeAt(dRow, i)) * s) / gs;
      }
    }
  return x;
}

Comparison ref::compare(ElementType type, const uint8_t *out,
                        const std::vector<double> &ref, double rtol,
                        double atol) {
  Comparison cmp;
  std::vector<uint8_t> rounded = roundOutput(type, ref);
  double errSq = 0.0, refSq = 0.0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double o = readOutput(type, out, i);
    double r = ref[i];
    double rr = readOutput(type, rounded.data(), i);
    bool pass;
    if (std::isnan(r)) {
      pass = std::isnan(o);
    } else if (std::isnan(o)) {
      pass = false;
      ++cmp.nanCount;
    } else {
      // Equality first so that matching infinities pass.
      pass = o == rr || std::fabs(o - rr) <= atol + rtol * std::fabs(rr);
    }
    if (!pass && cmp.firstMismatch < 0)
      cmp.firstMismatch = static_cast<int64_t>(i);

    if (std::isnan(o) != std::isnan(r))
      cmp.maxAbsError = std::numeric_limits<double>::infinity();
    else if (!std::isnan(o) && o != r)
      cmp.maxAbsError = std::fmax(cmp.maxAbsError, std::fabs(o - r));
    if (std::isfinite(o) && std::isfinite(r)) {
      errSq += (o - r) * (o - r);
      refSq += r * r;
    }
  }
  if (refSq > 0.0)
    cmp.relError = std::sqrt(errSq / refSq);
  else
    cmp.relError = errSq > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
  return cmp;
}

GemvInputs ref::generateGemvInputs(const GemvProblem &p, Distribution dist,
                                   uint64_t seed) {
  checkShape(p.format, p.m, p.k, p.l);
  if (p.k % 2 != 0)
    fatal("k must be even");
  const int64_t cols = p.k / blockSize(p.format);
  std::mt19937_64 rng(seed);

  // Weak follows the GPU MODE "nvfp4_gemv" generator: there every packed
  // byte is an integer drawn from [0, 4), so the even element of each pair
  // is one of the codes 0..3 (0, 0.5, 1, 1.5) and the odd element is +0;
  // scales are the integers 0, 1 or 2 converted to e4m3 (0x00, 0x38, 0x40).
  // For MXFP4 the same three choices become the ue8m0 bytes 0 (2^-127, the
  // closest to zero), 127 (1) and 128 (2).
  auto dataByte = [&]() -> uint8_t {
    return static_cast<uint8_t>(
        uniformBelow(rng, dist == Distribution::Weak ? 4 : 256));
  };
  // Extreme: NaN scales are rare enough that most rows stay finite (about
  // one row in four has a NaN sfa, one batch in sixteen a NaN sfb).
  auto extremeScale = [&](uint64_t nanOdds) -> uint8_t {
    bool nv = p.format == ScaleFormat::NVFP4;
    if (uniformBelow(rng, nanOdds) == 0)
      return nv ? (uniformBelow(rng, 2) ? 0xFF : 0x7F) : 0xFF;
    uint64_t kind = uniformBelow(rng, 16);
    if (kind < 8) // realistic, as Full
      return nv ? static_cast<uint8_t>(0x08 +
                                       uniformBelow(rng, 0x48 - 0x08 + 1))
                : static_cast<uint8_t>(123 + uniformBelow(rng, 129 - 123 + 1));
    if (kind < 14) { // any finite scale
      if (!nv)
        return static_cast<uint8_t>(uniformBelow(rng, 255));
      uint8_t byte = static_cast<uint8_t>(uniformBelow(rng, 0x7F));
      return uniformBelow(rng, 2) ? byte | 0x80 : byte;
    }
    // The edges: e4m3 subnormals (2^-9..7 * 2^-9) and +-448; ue8m0 2^-127
    // to 2^-125 and 2^125 to 2^127.
    uint64_t pick = uniformBelow(rng, 8);
    if (!nv)
      return static_cast<uint8_t>(pick < 4 ? pick % 3 : 252 + pick % 3);
    uint8_t byte = static_cast<uint8_t>(pick < 7 ? 1 + pick : 0x7E);
    return uniformBelow(rng, 2) ? byte | 0x80 : byte;
  };
  auto scaleByte = [&]() -> uint8_t {
    if (dist == Distribution::Weak) {
      static const uint8_t nv[3] = {0x00, 0x38, 0x40};
      static const uint8_t mx[3] = {0, 127, 128};
      uint64_t i = uniformBelow(rng, 3);
      return p.format == ScaleFormat::NVFP4 ? nv[i] : mx[i];
    }
    // e4m3 0x08 (2^-6) ... 0x48 (2^2): every positive code in between.
    // ue8m0 123 (2^-4) ... 129 (2^2). Two such scales and all 16 codes keep
    // a GEMV with K = 16384 inside the f16 range, so overflow to inf cannot
    // hide a wrong element.
    if (p.format == ScaleFormat::NVFP4)
      return static_cast<uint8_t>(0x08 + uniformBelow(rng, 0x48 - 0x08 + 1));
    return static_cast<uint8_t>(123 + uniformBelow(rng, 129 - 123 + 1));
  };
  auto fill = [&](std::vector<uint8_t> &v, int64_t n, auto draw) {
    v.resize(n);
    for (auto &byte : v)
      byte = draw();
  };

  // Draw order (a, sfa, b, sfb; scales in linear order) is fixed so that
  // both layouts get the same logical values for a seed.
  GemvInputs in;
  std::vector<uint8_t> sfaLinear, sfbLinear;
  auto sfaByte = [&]() {
    return dist == Distribution::Extreme ? extremeScale(4 * cols) : scaleByte();
  };
  auto sfbByte = [&]() {
    return dist == Distribution::Extreme ? extremeScale(16 * cols)
                                         : scaleByte();
  };
  fill(in.a, p.l * p.m * (p.k / 2), dataByte);
  fill(sfaLinear, p.l * p.m * cols, sfaByte);
  fill(in.b, p.l * (p.k / 2), dataByte);
  fill(sfbLinear, p.l * cols, sfbByte);
  in.sfa = convertScaleLayout(ScaleLayout::Linear, p.layout, sfaLinear.data(),
                              p.m, cols, p.l);
  in.sfb = convertScaleLayout(ScaleLayout::Linear, p.layout, sfbLinear.data(),
                              1, cols, p.l);
  return in;
}
