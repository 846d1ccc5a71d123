//===- EncodeCheck.cpp - nvfp4-cpu-check: the compiled e2m1 encoder -------===//
//
// The quantizers' e2m1 encoder (buildQuantizeMagnitudes and the sign
// nibbles) rounds by a magic-number addition rather than by comparisons, so
// its ties and saturation are checked against formats::encodeE2M1 element
// by element, where a mistake would hide: every f32 within 4096 ulps of each
// grid value and each midpoint, and random values of the whole [-6, 6] range. A
// block whose first element is 6 has scale 1 and inv 1, so the kernel encodes
// the other fifteen values unchanged.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "Kernels.h"

#include "nvfp4/Support/Formats.h"

#include <cstring>

using namespace nvfp4;
using namespace nvfp4::cpucheck;

namespace {

float bitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/// The values the encoder is checked on, both signs of each.
std::vector<float> encoderInputs(std::mt19937_64 &rng) {
  const float anchors[] = {0.25f, 0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 1.75f,
                           2.0f,  2.5f, 3.0f,  3.5f, 4.0f,  5.0f, 6.0f};
  constexpr int64_t kUlps = 4096;
  std::vector<float> values = {0.0f, bitsToFloat(1), 1e-30f};
  for (float anchor : anchors)
    for (int64_t d = -kUlps; d <= kUlps; ++d) {
      float v = bitsToFloat(static_cast<uint32_t>(floatToBits(anchor) + d));
      if (v <= 6.0f)
        values.push_back(v);
    }
  // Random bit patterns of [0, 6]: every binade below 0.25 too.
  for (int i = 0; i < (1 << 18); ++i)
    values.push_back(
        bitsToFloat(static_cast<uint32_t>(rng() % (floatToBits(6.0f) + 1))));
  std::vector<float> both;
  both.reserve(2 * values.size());
  for (float v : values) {
    both.push_back(v);
    both.push_back(-v);
  }
  return both;
}

} // namespace

void nvfp4::cpucheck::checkE2M1Encoder(Stats &stats, std::mt19937_64 &rng) {
  constexpr int64_t kBlock = 16, kPerBlock = kBlock - 1;
  std::vector<float> values = encoderInputs(rng);
  int64_t rows =
      (static_cast<int64_t>(values.size()) + kPerBlock - 1) / kPerBlock;
  std::vector<float> x(rows * kBlock, 0.0f);
  for (int64_t r = 0; r < rows; ++r)
    x[r * kBlock] = r % 2 ? 6.0f : -6.0f;
  for (size_t i = 0; i < values.size(); ++i)
    x[(i / kPerBlock) * kBlock + 1 + i % kPerBlock] = values[i];
  std::vector<uint8_t> input(x.size() * sizeof(float));
  std::memcpy(input.data(), x.data(), input.size());
  QuantizeVariant v{ref::ScaleFormat::NVFP4, ref::ScaleLayout::Linear,
                    /*twoLevel=*/false, ref::ElementType::F32};
  ref::Quantized got = runQuantize(v, input, rows, kBlock, /*l=*/1);
  stats.damage(got.data, 1);
  std::string detail = strf("%zu values bit-exact", values.size());
  bool ok = true;
  for (int64_t r = 0; r < rows && ok; ++r) {
    if (got.scales[r] != formats::encodeE4M3FN(1.0f)) {
      ok = false;
      detail = strf("row %lld has scale byte 0x%02X, not 1.0", (long long)r,
                    got.scales[r]);
    }
    for (int64_t j = 0; j < kBlock && ok; ++j) {
      int64_t i = r * kBlock + j;
      uint8_t code = (got.data[i / 2] >> (4 * (i % 2))) & 0xF;
      if (code != formats::encodeE2M1(x[i])) {
        ok = false;
        detail = strf("%.9g (0x%08X) encoded as 0x%X, expected 0x%X", x[i],
                      floatToBits(x[i]), code, formats::encodeE2M1(x[i]));
      }
    }
  }
  stats.report(ok, "e2m1 encoder at every tie and grid value", detail);
}

void nvfp4::cpucheck::checkE4M3ScaleEncoder(Stats &stats) {
  // Blocks whose max |x| is 6 t for t within 8 ulps of every e4m3 value and
  // every midpoint between neighbours (subnormals, the saturation at 464
  // included): the scale byte is encodeE4M3FN(max / 6) as the reference
  // divides.
  constexpr int64_t kBlock = 16, kUlps = 8;
  std::vector<float> maxima;
  for (int code = 0; code < 0x7E; ++code) {
    double lo = formats::decodeE4M3FN(static_cast<uint8_t>(code));
    double hi = formats::decodeE4M3FN(static_cast<uint8_t>(code + 1));
    for (double anchor : {lo, (lo + hi) / 2, hi})
      for (int64_t d = -kUlps; d <= kUlps; ++d) {
        float t = bitsToFloat(
            static_cast<uint32_t>(floatToBits(static_cast<float>(anchor)) + d));
        if (t >= 0.0f)
          maxima.push_back(6.0f * t);
      }
  }
  maxima.push_back(6.0f * 1000.0f);
  const int64_t rows = static_cast<int64_t>(maxima.size());
  std::vector<float> x(rows * kBlock, 0.0f);
  for (int64_t r = 0; r < rows; ++r)
    x[r * kBlock] = maxima[r];
  std::vector<uint8_t> input(x.size() * sizeof(float));
  std::memcpy(input.data(), x.data(), input.size());
  QuantizeVariant v{ref::ScaleFormat::NVFP4, ref::ScaleLayout::Linear,
                    /*twoLevel=*/false, ref::ElementType::F32};
  ref::Quantized got = runQuantize(v, input, rows, kBlock, /*l=*/1);
  stats.damage(got.scales, 1);
  std::string detail = strf("%lld block maxima", (long long)rows);
  bool ok = true;
  for (int64_t r = 0; r < rows && ok; ++r) {
    uint8_t want = formats::encodeE4M3FN(maxima[r] / 6.0f);
    if (got.scales[r] != want) {
      ok = false;
      detail = strf("max %.9g: scale byte 0x%02X, expected 0x%02X", maxima[r],
                    got.scales[r], want);
    }
  }
  stats.report(ok, "e4m3 scale encoder at every value and midpoint", detail);
}
