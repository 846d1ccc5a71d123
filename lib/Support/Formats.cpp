//===- Formats.cpp - e2m1, e4m3fn, ue8m0, f16 and bf16 encodings ----------===//
//
// All encoders work on exact values: a float converts to double exactly, and
// scaling a double by a power of two is exact in the ranges used here, so the
// only rounding is the explicit round-to-nearest-even step.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Formats.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace nvfp4;

namespace {

/// Magnitudes of the e2m1 codes 0..7.
constexpr double kE2M1Magnitudes[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};

/// Rounds a non-negative double to an integer, ties to even. Used on values
/// that are exact multiples of a power of two, so `v - fl` is exact.
double roundHalfEven(double v) {
  double fl = std::floor(v);
  double diff = v - fl;
  if (diff > 0.5)
    return fl + 1.0;
  if (diff < 0.5)
    return fl;
  return std::fmod(fl, 2.0) == 0.0 ? fl : fl + 1.0;
}

/// Encodes `x` in an IEEE-style binary format with `expBits` exponent bits and
/// `manBits` mantissa bits (f16: 5/10, bf16: 8/7): nearest even, subnormals,
/// overflow to infinity, NaN to the quiet NaN of the same sign.
uint32_t roundToBinary(double x, int expBits, int manBits) {
  const uint32_t signBit = std::signbit(x) ? 1u << (expBits + manBits) : 0u;
  const uint32_t expAllOnes = (1u << expBits) - 1;
  const uint32_t infBits = expAllOnes << manBits;
  if (std::isnan(x))
    return signBit | infBits | (1u << (manBits - 1));
  double a = std::fabs(x);
  if (std::isinf(a))
    return signBit | infBits;
  if (a == 0.0)
    return signBit;

  const int bias = (1 << (expBits - 1)) - 1;
  const int minExp = 1 - bias;
  int e2;
  std::frexp(a, &e2); // a = f * 2^e2, f in [0.5, 1)
  int exp = e2 - 1;   // a = 1.xxx * 2^exp
  // Beyond the largest binade everything overflows (even the carry below
  // would), and very large doubles must not reach the integer arithmetic.
  if (exp + bias >= static_cast<int>(expAllOnes))
    return signBit | infBits;
  bool subnormal = exp < minExp;
  if (subnormal)
    exp = minExp;
  // Count of units in the last place: an integer after rounding. Exact: the
  // scaling is by a power of two and stays inside the double range.
  double units = roundHalfEven(std::ldexp(a, manBits - exp));
  int64_t n = static_cast<int64_t>(units);
  int64_t bits;
  if (subnormal)
    bits = n; // n == 2^manBits carries into the smallest normal, as it should
  else
    bits = (static_cast<int64_t>(exp + bias) << manBits) + n -
           (int64_t(1) << manBits);
  if (bits >= static_cast<int64_t>(infBits))
    return signBit | infBits;
  return signBit | static_cast<uint32_t>(bits);
}

} // namespace

double formats::decodeE2M1(uint8_t code) {
  double mag = kE2M1Magnitudes[code & 0x7];
  return (code & 0x8) ? -mag : mag;
}

double formats::decodeE4M3FN(uint8_t bits) {
  if ((bits & 0x7F) == 0x7F)
    return std::numeric_limits<double>::quiet_NaN();
  int exp = (bits >> 3) & 0xF;
  int man = bits & 0x7;
  double mag =
      exp == 0 ? std::ldexp(man, -9) : std::ldexp(8 + man, exp - 7 - 3);
  return (bits & 0x80) ? -mag : mag;
}

double formats::decodeUE8M0(uint8_t bits) {
  if (bits == 0xFF)
    return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, static_cast<int>(bits) - 127);
}

uint8_t formats::encodeE2M1(float x) {
  if (std::isnan(x))
    return 0;
  uint8_t sign = std::signbit(x) ? 0x8 : 0x0;
  double a = std::fabs(static_cast<double>(x));
  // Walk the grid; the midpoints are exact, so comparisons decide the ties.
  for (uint8_t code = 0; code < 7; ++code) {
    double mid = 0.5 * (kE2M1Magnitudes[code] + kE2M1Magnitudes[code + 1]);
    if (a < mid)
      return sign | code;
    if (a == mid) // The even code has mantissa bit (bit 0) clear.
      return sign | ((code & 1) ? code + 1 : code);
  }
  return sign | 0x7; // 6, or saturated from above (including infinity).
}

uint8_t formats::encodeE4M3FN(float x) {
  uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  if (std::isnan(x))
    return sign | 0x7F;
  double a = std::fabs(static_cast<double>(x));
  // Saturating conversion: anything above the largest finite value maps to
  // it, so a finite input never produces NaN.
  if (a >= 448.0)
    return sign | 0x7E;
  if (a == 0.0)
    return sign;
  int e2;
  std::frexp(a, &e2);
  int exp = e2 - 1;
  if (exp < -6) {
    // Subnormal: units of 2^-9. Eight units carry into 0x08, the smallest
    // normal, which is the right encoding.
    return sign | static_cast<uint8_t>(roundHalfEven(std::ldexp(a, 9)));
  }
  int n = static_cast<int>(roundHalfEven(std::ldexp(a, 3 - exp)));
  // n in [8, 16]; 16 carries into the next exponent. a < 448 keeps the result
  // at or below 0x7E (448).
  return sign | static_cast<uint8_t>(((exp + 7) << 3) + n - 8);
}

uint16_t formats::encodeF16(float x) {
  return static_cast<uint16_t>(roundToBinary(x, 5, 10));
}

uint16_t formats::encodeBF16(float x) {
  return static_cast<uint16_t>(roundToBinary(x, 8, 7));
}

uint16_t formats::encodeF16FromDouble(double x) {
  return static_cast<uint16_t>(roundToBinary(x, 5, 10));
}

uint16_t formats::encodeBF16FromDouble(double x) {
  return static_cast<uint16_t>(roundToBinary(x, 8, 7));
}

float formats::decodeF16(uint16_t bits) {
  int exp = (bits >> 10) & 0x1F;
  int man = bits & 0x3FF;
  float mag;
  if (exp == 0x1F)
    mag = man ? std::numeric_limits<float>::quiet_NaN()
              : std::numeric_limits<float>::infinity();
  else if (exp == 0)
    mag = std::ldexp(static_cast<float>(man), -24);
  else
    mag = std::ldexp(static_cast<float>(1024 + man), exp - 15 - 10);
  return (bits & 0x8000) ? -mag : mag;
}

float formats::decodeBF16(uint16_t bits) {
  // bf16 is the top half of a float.
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof(f));
  return f;
}
