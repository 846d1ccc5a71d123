//===- QuantizeCheck.cpp - nvfp4-cpu-check: quantize and dequantize -------===//

#include "Check.h"
#include "Kernels.h"
#include "nvfp4/Support/Formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace nvfp4;
using namespace nvfp4::cpucheck;
using ref::ElementType;
using ref::ScaleFormat;
using ref::ScaleLayout;

namespace {

std::string quantizeName(const char *op, const QuantizeVariant &v, int64_t rows,
                         int64_t k, int64_t l) {
  return strf("%s %s%s %s %s rows=%lld K=%lld L=%lld", op, name(v.format),
              v.twoLevel ? " two-level" : "", name(v.layout), name(v.input),
              (long long)rows, (long long)k, (long long)l);
}

/// Runs the compiled dequantize on `data` and `scales` and reports whether
/// every output is ref::dequantize correctly rounded to `out`.
void checkDequantizeOf(Stats &stats, ScaleFormat format, ScaleLayout layout,
                       bool withGs, ElementType out, std::vector<uint8_t> &data,
                       std::vector<uint8_t> &scales, float gs, int64_t rows,
                       int64_t k, int64_t l, const std::string &what) {
  std::vector<uint8_t> y =
      runDequantize(format, layout, withGs, out, data, scales, gs, rows, k, l);
  stats.damage(y, ref::elementBytes(out));
  std::vector<double> want = ref::dequantize(format, layout, data.data(),
                                             scales.data(), gs, rows, k, l);
  ref::Comparison cmp = ref::compare(out, y.data(), want, 0.0, 0.0);
  std::string detail = "correctly rounded";
  if (!cmp.ok()) {
    int64_t i = std::max<int64_t>(cmp.firstMismatch, 0);
    detail = strf("%lld NaN; element %lld is %.9g, reference %.17g",
                  (long long)cmp.nanCount, (long long)i,
                  ref::readOutput(out, y.data(), i), want[i]);
  }
  stats.report(cmp.ok(), what, detail);
}

} // namespace

/// quantize(x) equals ref::quantize(x) byte for byte, and dequantizing it
/// stays within the documented error bound.
void nvfp4::cpucheck::checkQuantize(Stats &stats, std::mt19937_64 &rng,
                                    const QuantizeVariant &v, int64_t rows,
                                    int64_t k, int64_t l) {
  const int64_t bs = ref::blockSize(v.format), cols = k / bs;
  ref::QuantizeInputs in =
      ref::generateQuantizeInputs(v.input, v.format, rows, k, l, rng());
  const std::vector<float> &x = in.values;
  std::vector<uint8_t> input = in.stored;
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
void nvfp4::cpucheck::checkDequantize(Stats &stats, std::mt19937_64 &rng,
                                      ScaleFormat format, ScaleLayout layout,
                                      bool withGs, ElementType out,
                                      int64_t rows, int64_t k, int64_t l) {
  ref::DequantizeInputs in =
      ref::generateDequantizeInputs(format, layout, withGs, rows, k, l, rng());
  checkDequantizeOf(stats, format, layout, withGs, out, in.data, in.scales,
                    in.globalScale, rows, k, l,
                    strf("dequantize %s%s %s %-4s rows=%lld K=%lld L=%lld",
                         name(format), withGs ? " gs" : "", name(layout),
                         name(out), (long long)rows, (long long)k,
                         (long long)l));
}

/// dequantize with a global scale over every (code, scale byte) pair, for
/// global scales across the whole f32 range: the quotients that take the
/// f32 residual route and those near under- or overflow that take the f64
/// one must all round once, as ref::dequantize does.
void nvfp4::cpucheck::checkDequantizeGlobalScales(Stats &stats,
                                                  std::mt19937_64 &rng) {
  // Row r: scale byte r, codes 0..15.
  const int64_t rows = 256, k = 16;
  std::vector<uint8_t> data(rows * k / 2), scales(rows);
  for (int64_t r = 0; r < rows; ++r) {
    scales[r] = static_cast<uint8_t>(r);
    for (int64_t j = 0; j < k / 2; ++j)
      data[r * k / 2 + j] = static_cast<uint8_t>(2 * j | (2 * j + 1) << 4);
  }
  std::vector<float> globalScales = {
      0x1p-149f, 0x1p-126f, 0x1.8p-120f, 0x1p-100f, 3e-30f,   0.45692527f,
      1.0f,      -2.5f,     0x1p100f,    3e30f,     0x1p120f, 0x1.fffffep127f,
      0.0f,      -0.0f,     INFINITY,    -INFINITY, NAN};
  std::uniform_int_distribution<uint32_t> anyBits;
  for (int i = 0; i < 48; ++i) {
    uint32_t bits = anyBits(rng);
    float gs;
    std::memcpy(&gs, &bits, sizeof gs);
    if (std::isfinite(gs))
      globalScales.push_back(gs);
  }
  // Near ties: x / gs close to a midpoint of the output's grid, which an
  // f32 quotient rounded to nearest would turn into a tie.
  std::uniform_int_distribution<int> code(1, 7), scale(1, 0x7E), exp(-8, 8);
  for (int bits : {11, 8})
    for (int i = 0; i < 24; ++i) {
      double x = formats::decodeE2M1(static_cast<uint8_t>(code(rng))) *
                 formats::decodeE4M3FN(static_cast<uint8_t>(scale(rng)));
      int64_t odd = 2 * int64_t(anyBits(rng) % (1u << (bits - 1))) + 1;
      double midpoint = std::ldexp(double((1 << bits) + odd), exp(rng) - bits);
      globalScales.push_back(static_cast<float>(x / midpoint));
    }
  for (ElementType out : {ElementType::F16, ElementType::BF16})
    for (float gs : globalScales)
      checkDequantizeOf(stats, ScaleFormat::NVFP4, ScaleLayout::Linear, true,
                        out, data, scales, gs, rows, k, 1,
                        strf("dequantize nvfp4 gs=%a linear %-4s, every code "
                             "and scale",
                             gs, name(out)));
}

/// quantize(dequantize(q)) == q when q is representable: every block holds
/// a code of the largest magnitude (6; 4 or 6 for MXFP4), and in the
/// two-level case the global scale is a power of two and some scale is 448.
void nvfp4::cpucheck::checkRequantize(Stats &stats, std::mt19937_64 &rng,
                                      const QuantizeVariant &v, int64_t rows,
                                      int64_t k, int64_t l) {
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
  // The f32 output is the f32 input of the quantizer.
  std::vector<uint8_t> &input = y;
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
