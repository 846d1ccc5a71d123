//===- ConvertCheck.cpp - nvfp4-cpu-check: convert_scale_layout -----------===//

#include "Check.h"
#include "Kernels.h"

using namespace nvfp4;
using namespace nvfp4::cpucheck;
using ref::ScaleLayout;

void nvfp4::cpucheck::checkConvert(Stats &stats, std::mt19937_64 &rng,
                                   bool e8m0, int64_t rows, int64_t cols,
                                   int64_t l) {
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
