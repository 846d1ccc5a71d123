//===- Check.h - nvfp4-cpu-check: cases and their bookkeeping ---*- C++ -*-===//
//
// Each check runs one compiled kernel on random data and compares its result
// with the float64 reference (nvfp4/Support/Reference.h), printing one line.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_CPU_CHECK_CHECK_H
#define NVFP4_CPU_CHECK_CHECK_H

#include "nvfp4/Support/Reference.h"
#include "nvfp4/Support/StringFormat.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace nvfp4::cpucheck {

/// Counts cases and prints one line for each.
struct Stats {
  int64_t cases = 0, failed = 0;
  /// --corrupt: damage one element of every result before it is checked,
  /// to show that every check can fail.
  bool corrupt = false;
  std::mt19937_64 corruptRng{0};
  /// Flips a high exponent bit of one random element of `elementBytes`
  /// bytes (bit 0 of one random byte for byte buffers).
  void damage(std::vector<uint8_t> &buf, int64_t elementBytes);
  /// Records one case and prints its line.
  void report(bool ok, const std::string &what, const std::string &detail);
};

using ::nvfp4::strf;

/// Index of the first differing byte, or -1.
int64_t firstDifference(const std::vector<uint8_t> &x,
                        const std::vector<uint8_t> &y);

uint32_t floatToBits(float f);

struct Shape {
  int64_t m, k, l;
};

struct QuantizeVariant {
  ref::ScaleFormat format;
  ref::ScaleLayout layout;
  bool twoLevel;
  ref::ElementType input; // the quantizer's input element type
};

/// Which form of nvfp4.gemv a case runs: the one-vector form with packed b
/// (the default), or `n` vectors of `vector` elements, with a vector
/// dimension (b [L, N, ...], c [L, N, M]) or, for one 16-bit vector, without.
struct GemvForm {
  int64_t n = 1;
  ref::VectorElement vector = ref::VectorElement::E2M1;
  bool vectorDim = false;
};

/// A kernel of TiledKernels.mlir, called with a's tiled codes, the other
/// inputs, the poisoned c and alpha.
using TiledKernel = void (*)(uint8_t *a, ref::GemvInputs &in, uint8_t *c,
                             float alpha);

/// A kernel of TiledKernels.mlir (all of tiledShape()): its format, layout,
/// form, output type, whether it takes alpha, and its entry point.
struct TiledCase {
  ref::ScaleFormat format;
  ref::ScaleLayout layout;
  GemvForm form;
  ref::ElementType output;
  bool alpha;
  TiledKernel kernel;
};
std::vector<TiledCase> tiledCases();
Shape tiledShape();

/// One GEMV case: every requested output type and alpha variant on one set
/// of generated inputs (GemvCheck.cpp).
void checkGemv(Stats &stats, const Shape &s, ref::ScaleFormat format,
               ref::ScaleLayout layout, ref::Distribution dist, uint64_t seed,
               float alpha, bool allVariants, const GemvForm &form = {});
/// One case of a tiled kernel (`tiled`, at tiledShape()).
void checkTiledGemv(Stats &stats, const TiledCase &tiled,
                    ref::Distribution dist, uint64_t seed, float alpha);

/// quantize(x) equals ref::quantize(x) byte for byte, and dequantizing it
/// stays within the documented error bound (QuantizeCheck.cpp).
void checkQuantize(Stats &stats, std::mt19937_64 &rng, const QuantizeVariant &v,
                   int64_t rows, int64_t k, int64_t l);
/// quantize(dequantize(q)) == q for representable q.
void checkRequantize(Stats &stats, std::mt19937_64 &rng,
                     const QuantizeVariant &v, int64_t rows, int64_t k,
                     int64_t l);
/// dequantize equals the correctly rounded ref::dequantize exactly.
void checkDequantize(Stats &stats, std::mt19937_64 &rng,
                     ref::ScaleFormat format, ref::ScaleLayout layout,
                     bool withGs, ref::ElementType out, int64_t rows, int64_t k,
                     int64_t l);

/// The quantizers' e4m3 scale byte for block maxima near every e4m3 value
/// and midpoint equals formats::encodeE4M3FN (EncodeCheck.cpp).
void checkE4M3ScaleEncoder(Stats &stats);

/// dequantize with a global scale, every code and scale byte, for global
/// scales across the f32 range (both division routes).
void checkDequantizeGlobalScales(Stats &stats, std::mt19937_64 &rng);

/// The quantizers' e2m1 encoding of every f32 near a grid value or midpoint
/// equals formats::encodeE2M1 (EncodeCheck.cpp).
void checkE2M1Encoder(Stats &stats, std::mt19937_64 &rng);

/// convert_scale_layout equals ref::convertScaleLayout and round trips
/// (ConvertCheck.cpp).
void checkConvert(Stats &stats, std::mt19937_64 &rng, bool e8m0, int64_t rows,
                  int64_t cols, int64_t l);

} // namespace nvfp4::cpucheck

#endif // NVFP4_CPU_CHECK_CHECK_H
