//===- ReferenceTestUtil.h - Independent decoders for the tests -*- C++ -*-===//
//
// The values of the number formats written out from their definitions
// (docs/numerics.md section 1), so that the reference's tests do not check
// the library against itself.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_UNITTESTS_REFERENCETESTUTIL_H
#define NVFP4_UNITTESTS_REFERENCETESTUTIL_H

#include "nvfp4/Support/Reference.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace nvfp4::reftest {

using ref::ScaleFormat;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline double e2m1Value(int code) {
  static const double mag[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return (code & 8) ? -mag[code & 7] : mag[code & 7];
}

inline double e4m3Value(uint8_t b) {
  if ((b & 0x7F) == 0x7F)
    return kNaN;
  int e = (b >> 3) & 15, m = b & 7;
  double v = e ? (1 + m / 8.0) * std::pow(2.0, e - 7) : m * std::pow(2.0, -9);
  return (b & 0x80) ? -v : v;
}

inline double ue8m0Value(uint8_t b) {
  return b == 0xFF ? kNaN : std::pow(2.0, b - 127);
}

inline double scaleValue(ScaleFormat f, uint8_t b) {
  return f == ScaleFormat::NVFP4 ? e4m3Value(b) : ue8m0Value(b);
}

inline int bs(ScaleFormat f) { return f == ScaleFormat::NVFP4 ? 16 : 32; }

} // namespace nvfp4::reftest

#endif // NVFP4_UNITTESTS_REFERENCETESTUTIL_H
