//===- SimCheck.h - nvfp4-sim-check: kernels and bookkeeping ----*- C++ -*-===//
//
// The compiled kernels (one SimKernel a function of variants.py's table),
// guarded buffers and the case counter the checks share.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SIM_CHECK_SIMCHECK_H
#define NVFP4_SIM_CHECK_SIMCHECK_H

#include "nvfp4/Support/Reference.h"
#include "nvfp4/Support/StringFormat.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace nvfp4::simcheck {

using ::nvfp4::checkSummary;
using ::nvfp4::strf;
using ref::ElementType;
using ref::ScaleFormat;
using ref::ScaleLayout;
using ref::VectorElement;

// The entry points take one pointer a buffer: a, sfa, b, sfb, c for packed
// b, a, sfa, b, c for 16-bit b; then alpha when the op has one.
using GemvFn = void (*)(void *, void *, void *, void *, void *);
using GemvAlphaFn = void (*)(void *, void *, void *, void *, void *, float);
using WideGemvFn = void (*)(void *, void *, void *, void *);
using WideGemvAlphaFn = void (*)(void *, void *, void *, void *, float);
using ConvertFn = void (*)(void *, void *);
// quantize: input, data, scales[, global scale]; dequantize: data, scales,
// output[, global scale].
using QuantizeFn = void (*)(void *, void *, void *);
using QuantizeGsFn = void (*)(void *, void *, void *, void *);

/// What a SimKernel computes (a gemv or a conversion unless set).
enum class SimOp { GemvOrConvert, Quantize, Dequantize };

/// One compiled function: a gemv (m, k, l, format, layout, output, alpha; n
/// vectors, in a vector dimension of b and c or not, of `vector` elements)
/// or a layout conversion (rows = m, cols = k, from = layout, to =
/// dstLayout). Exactly one function pointer is set, that of its signature.
struct SimKernel {
  const char *variant, *options, *spec;
  ConvertFn convert;
  GemvFn gemv;
  GemvAlphaFn gemvAlpha;
  WideGemvFn wide;
  WideGemvAlphaFn wideAlpha;
  int64_t m, k, l;
  ScaleFormat format;
  ScaleLayout layout, dstLayout;
  ElementType output;
  bool alpha;
  int64_t n;
  bool vectorDim;
  VectorElement vector;
  /// A quantize or dequantize (`kind`): one of the two entry points, with
  /// or without the global scale (`twoLevel`), set; `output` is the type of
  /// the values, read or written.
  SimOp kind;
  QuantizeFn quantize;
  QuantizeGsFn quantizeGs;
  bool twoLevel;
  /// A gemv kernel that sums each product on its own (the tensor cores).
  bool productSums;
  /// A gemv kernel that reads a's codes tiled (nvfp4/Support/CodeLayout.h).
  bool tiledCodes;
};

/// Bytes with guard zones on both sides, to catch writes out of bounds.
class Guarded {
public:
  static constexpr size_t kGuard = 256;
  static constexpr uint8_t kPattern = 0xA5;
  Guarded(const std::vector<uint8_t> &init)
      : bytes(init.size() + 2 * kGuard, kPattern) {
    std::memcpy(data(), init.data(), init.size());
    size = init.size();
  }
  Guarded(size_t n, uint8_t fill) : bytes(n + 2 * kGuard, kPattern), size(n) {
    std::memset(data(), fill, n);
  }
  uint8_t *data() { return bytes.data() + kGuard; }
  std::vector<uint8_t> contents() {
    return std::vector<uint8_t>(data(), data() + size);
  }
  bool guardsIntact() const {
    for (size_t i = 0; i < kGuard; ++i)
      if (bytes[i] != kPattern || bytes[bytes.size() - 1 - i] != kPattern)
        return false;
    return true;
  }

private:
  std::vector<uint8_t> bytes;
  size_t size;
};

struct Stats {
  int64_t cases = 0, failed = 0;
  bool corrupt = false;
  /// --loads: count the global loads of each gemv's first case.
  bool loads = false;
  void report(bool ok, const std::string &what, const std::string &detail) {
    ++cases;
    failed += !ok;
    std::printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", what.c_str(),
                detail.empty() ? "" : ": ", detail.c_str());
    std::fflush(stdout);
  }
};

/// Fails with the runtime's first error (and clears it for the next case).
bool simulationOk(std::string &detail);

/// quantize: data and scales byte for byte as ref::quantize, and the
/// global scale bit for bit, outputs first filled with `fill`
/// (QuantizeCheck.cpp).
void checkQuantize(Stats &stats, const SimKernel &kernel, uint64_t seed,
                   uint8_t fill);
/// dequantize: every value the correctly rounded ref::dequantize.
void checkDequantize(Stats &stats, const SimKernel &kernel, uint64_t seed,
                     uint8_t fill);

} // namespace nvfp4::simcheck

#endif // NVFP4_SIM_CHECK_SIMCHECK_H
