//===- FormatsTest.cpp - Scalar number format encoders and decoders -------===//
//
// Decoders are compared with formulas written from the format definitions;
// encoders with a brute-force nearest search over the representable values
// (ties to the even encoding).
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Formats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace nvfp4::formats;

namespace {

/// Generic sign/exponent/mantissa decode of a minifloat without inf (the
/// NaN case is handled by the callers).
double minifloat(uint32_t bits, int expBits, int manBits, int bias) {
  uint32_t man = bits & ((1u << manBits) - 1);
  uint32_t exp = (bits >> manBits) & ((1u << expBits) - 1);
  bool neg = (bits >> (manBits + expBits)) & 1;
  double frac = static_cast<double>(man) / (1u << manBits);
  double mag = exp == 0 ? std::ldexp(frac, 1 - bias)
                        : std::ldexp(1.0 + frac, static_cast<int>(exp) - bias);
  return neg ? -mag : mag;
}

/// Whether `a` and `b` are the same double, distinguishing -0 from +0.
bool sameValue(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

/// Index of the value nearest to `x` in the ascending `values`, ties to the
/// candidate whose encoding `codes[i]` is even. `x` must be >= values[0].
size_t nearestEven(const std::vector<double> &values,
                   const std::vector<uint32_t> &codes, double x) {
  auto it = std::lower_bound(values.begin(), values.end(), x);
  if (it == values.end())
    return values.size() - 1;
  size_t hi = it - values.begin();
  if (*it == x || hi == 0)
    return hi;
  size_t lo = hi - 1;
  double dLo = x - values[lo], dHi = values[hi] - x;
  if (dLo < dHi)
    return lo;
  if (dHi < dLo)
    return hi;
  return (codes[lo] % 2 == 0) ? lo : hi;
}

TEST(FormatsTest, DecodeE2M1AllCodes) {
  for (int code = 0; code < 16; ++code) {
    // sign | 2 exponent bits | 1 mantissa bit, bias 1, no specials.
    double expected = minifloat(code, 2, 1, 1);
    EXPECT_TRUE(sameValue(decodeE2M1(code), expected)) << "code " << code;
  }
  const double table[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (int code = 0; code < 8; ++code) {
    EXPECT_EQ(decodeE2M1(code), table[code]);
    EXPECT_EQ(decodeE2M1(code | 8), -table[code]);
  }
  EXPECT_TRUE(std::signbit(decodeE2M1(8)));
  // Only the low nibble counts.
  EXPECT_EQ(decodeE2M1(0xF7), 6.0);
}

TEST(FormatsTest, DecodeE4M3FNAllBytes) {
  for (int bits = 0; bits < 256; ++bits) {
    double got = decodeE4M3FN(bits);
    if ((bits & 0x7F) == 0x7F) {
      EXPECT_TRUE(std::isnan(got)) << bits;
      continue;
    }
    EXPECT_TRUE(sameValue(got, minifloat(bits, 4, 3, 7))) << bits;
  }
  EXPECT_EQ(decodeE4M3FN(0x7E), 448.0);
  EXPECT_EQ(decodeE4M3FN(0x01), std::pow(2.0, -9));
  EXPECT_EQ(decodeE4M3FN(0x08), std::pow(2.0, -6));
  EXPECT_EQ(decodeE4M3FN(0x38), 1.0);
  EXPECT_EQ(decodeE4M3FN(0xB8), -1.0);
}

TEST(FormatsTest, DecodeUE8M0AllBytes) {
  for (int bits = 0; bits < 256; ++bits) {
    double got = decodeUE8M0(bits);
    if (bits == 0xFF) {
      EXPECT_TRUE(std::isnan(got));
      continue;
    }
    EXPECT_EQ(got, std::pow(2.0, bits - 127)) << bits;
  }
}

TEST(FormatsTest, E2M1RoundTrip) {
  for (int code = 0; code < 16; ++code)
    EXPECT_EQ(encodeE2M1(static_cast<float>(decodeE2M1(code))), code);
}

TEST(FormatsTest, E2M1TiesToEvenAndSaturation) {
  struct Case {
    float x;
    double expected;
  } cases[] = {{0.25f, 0.0},   {0.75f, 1.0},  {1.25f, 1.0}, {1.75f, 2.0},
               {2.5f, 2.0},    {3.5f, 4.0},   {5.0f, 4.0},  {7.0f, 6.0},
               {6.5f, 6.0},    {100.0f, 6.0}, {0.26f, 0.5}, {0.24f, 0.0},
               {2.51f, 3.0},   {4.99f, 4.0},  {5.01f, 6.0}, {-2.5f, -2.0},
               {-0.75f, -1.0}, {-7.0f, -6.0}};
  for (const Case &c : cases)
    EXPECT_EQ(decodeE2M1(encodeE2M1(c.x)), c.expected) << c.x;
  EXPECT_EQ(encodeE2M1(std::numeric_limits<float>::infinity()), 0x7);
  EXPECT_EQ(encodeE2M1(-std::numeric_limits<float>::infinity()), 0xF);
  // Sign kept: small negatives give -0 (code 8); NaN gives +0.
  EXPECT_EQ(encodeE2M1(-0.1f), 0x8);
  EXPECT_EQ(encodeE2M1(-0.0f), 0x8);
  EXPECT_EQ(encodeE2M1(0.1f), 0x0);
  EXPECT_EQ(encodeE2M1(std::numeric_limits<float>::quiet_NaN()), 0x0);
}

TEST(FormatsTest, E2M1MatchesBruteForce) {
  std::vector<double> values;
  std::vector<uint32_t> codes;
  for (uint32_t c = 0; c < 8; ++c) {
    values.push_back(minifloat(c, 2, 1, 1));
    codes.push_back(c);
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> dist(0.0f, 8.0f);
  for (int i = 0; i < 20000; ++i) {
    float x = dist(rng);
    uint32_t expected = codes[nearestEven(values, codes, x)];
    ASSERT_EQ(encodeE2M1(x), expected) << x;
    ASSERT_EQ(encodeE2M1(-x), expected | 8) << -x;
  }
}

TEST(FormatsTest, E4M3FNRoundTripAndSaturation) {
  for (int bits = 0; bits < 256; ++bits) {
    if ((bits & 0x7F) == 0x7F)
      continue;
    EXPECT_EQ(encodeE4M3FN(static_cast<float>(decodeE4M3FN(bits))), bits)
        << bits;
  }
  EXPECT_EQ(encodeE4M3FN(449.0f), 0x7E);
  EXPECT_EQ(encodeE4M3FN(464.0f), 0x7E);
  EXPECT_EQ(encodeE4M3FN(1e30f), 0x7E);
  EXPECT_EQ(encodeE4M3FN(-1e30f), 0xFE);
  EXPECT_EQ(encodeE4M3FN(std::numeric_limits<float>::infinity()), 0x7E);
  EXPECT_EQ(encodeE4M3FN(-std::numeric_limits<float>::infinity()), 0xFE);
  EXPECT_TRUE(std::isnan(
      decodeE4M3FN(encodeE4M3FN(std::numeric_limits<float>::quiet_NaN()))));
  // Ties: 1 + 1/16 lies between 1 (0x38, even) and 1.125 (0x39).
  EXPECT_EQ(encodeE4M3FN(1.0625f), 0x38);
  EXPECT_EQ(encodeE4M3FN(1.1875f), 0x3A); // between 0x39 and 0x3A (even)
  // Subnormal ties: 2^-10 is halfway between 0 and 2^-9.
  EXPECT_EQ(encodeE4M3FN(std::ldexp(1.0f, -10)), 0x00);
  EXPECT_EQ(encodeE4M3FN(std::ldexp(3.0f, -10)), 0x02);
  // Largest subnormal rounds up into the smallest normal.
  EXPECT_EQ(encodeE4M3FN(std::ldexp(15.0f, -10)), 0x08);
  EXPECT_EQ(encodeE4M3FN(1e-30f), 0x00);
  EXPECT_EQ(encodeE4M3FN(-1e-30f), 0x80);
}

TEST(FormatsTest, E4M3FNMatchesBruteForce) {
  std::vector<double> values;
  std::vector<uint32_t> codes;
  for (uint32_t b = 0; b < 0x7F; ++b) { // ascending with the byte
    values.push_back(minifloat(b, 4, 3, 7));
    codes.push_back(b);
  }
  std::mt19937_64 rng(11);
  for (int i = 0; i < 50000; ++i) {
    // Log-uniform magnitudes from far below the subnormals to above 448.
    float x = std::ldexp(std::uniform_real_distribution<float>(1, 2)(rng),
                         static_cast<int>(rng() % 26) - 16);
    uint32_t expected = codes[nearestEven(values, codes, x)];
    ASSERT_EQ(encodeE4M3FN(x), expected) << x;
    ASSERT_EQ(encodeE4M3FN(-x), expected | 0x80) << -x;
  }
  // Every midpoint between neighbours is a tie.
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    float mid = static_cast<float>(0.5 * (values[i] + values[i + 1]));
    ASSERT_EQ(mid, 0.5 * (values[i] + values[i + 1]));
    uint32_t even = codes[i] % 2 == 0 ? codes[i] : codes[i + 1];
    ASSERT_EQ(encodeE4M3FN(mid), even) << mid;
  }
}

/// Ascending non-negative values of a 16-bit IEEE-style format followed by
/// the value one step beyond the largest finite one (where rounding
/// overflows to infinity), with the matching bit patterns.
struct Grid16 {
  std::vector<double> values;
  std::vector<uint32_t> codes;
};

Grid16 makeGrid(int expBits, int manBits) {
  Grid16 g;
  int bias = (1 << (expBits - 1)) - 1;
  uint32_t infBits = ((1u << expBits) - 1) << manBits;
  for (uint32_t b = 0; b < infBits; ++b) {
    g.values.push_back(minifloat(b, expBits, manBits, bias));
    g.codes.push_back(b);
  }
  g.values.push_back(std::ldexp(1.0, bias + 1)); // "2^(emax+1)": infinity
  g.codes.push_back(infBits);
  return g;
}

uint16_t bruteForce16(const Grid16 &g, double x, int signShift) {
  if (std::isnan(x))
    return 0xFFFF;
  double a = std::fabs(x);
  uint32_t bits = std::isinf(a) ? g.codes.back()
                                : g.codes[nearestEven(g.values, g.codes, a)];
  if (std::signbit(x))
    bits |= 1u << signShift;
  return static_cast<uint16_t>(bits);
}

TEST(FormatsTest, DecodeF16AndBF16AllBits) {
  for (uint32_t b = 0; b < 65536; ++b) {
    float h = decodeF16(b);
    if (((b >> 10) & 0x1F) == 0x1F) {
      EXPECT_TRUE((b & 0x3FF) ? std::isnan(h) : std::isinf(h)) << b;
    } else {
      ASSERT_TRUE(sameValue(h, minifloat(b, 5, 10, 15))) << b;
    }
    float bf = decodeBF16(b);
    if (((b >> 7) & 0xFF) == 0xFF) {
      EXPECT_TRUE((b & 0x7F) ? std::isnan(bf) : std::isinf(bf)) << b;
    } else {
      ASSERT_TRUE(sameValue(bf, minifloat(b, 8, 7, 127))) << b;
    }
  }
}

TEST(FormatsTest, F16MatchesBruteForce) {
  Grid16 g = makeGrid(5, 10);
  std::mt19937_64 rng(13);
  for (int i = 0; i < 100000; ++i) {
    // Random floats whose exponent spans f16's range and a bit beyond.
    uint32_t exp = 127 - 28 + rng() % 47; // 2^-28 .. 2^18
    uint32_t bits = (static_cast<uint32_t>(rng() & 1) << 31) | (exp << 23) |
                    static_cast<uint32_t>(rng() & 0x7FFFFF);
    float x;
    std::memcpy(&x, &bits, 4);
    ASSERT_EQ(encodeF16(x), bruteForce16(g, x, 15)) << x;
    ASSERT_EQ(encodeF16FromDouble(x), bruteForce16(g, x, 15)) << x;
  }
  // Exact ties between neighbouring halves (all finite ones, both signs).
  for (size_t i = 0; i + 1 < g.values.size(); ++i) {
    float mid = static_cast<float>(0.5 * (g.values[i] + g.values[i + 1]));
    uint32_t even = g.codes[i] % 2 == 0 ? g.codes[i] : g.codes[i + 1];
    ASSERT_EQ(encodeF16(mid), even) << mid;
    ASSERT_EQ(encodeF16(-mid), even | 0x8000) << -mid;
  }
}

TEST(FormatsTest, F16FromDoubleIsCorrectlyRounded) {
  Grid16 g = makeGrid(5, 10);
  std::mt19937_64 rng(17);
  for (int i = 0; i < 100000; ++i) {
    double x = std::ldexp(std::uniform_real_distribution<double>(1, 2)(rng),
                          static_cast<int>(rng() % 46) - 28);
    if (rng() & 1)
      x = -x;
    ASSERT_EQ(encodeF16FromDouble(x), bruteForce16(g, x, 15)) << x;
  }
  // Just above a tie in double, but a tie once rounded to float: rounding
  // through float would give 1.0.
  double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(encodeF16FromDouble(x), 0x3C01);
  EXPECT_EQ(encodeF16(static_cast<float>(x)), 0x3C00);
  // The same just below the tie rounds down.
  EXPECT_EQ(
      encodeF16FromDouble(1.0 + std::ldexp(1.0, -11) - std::ldexp(1.0, -40)),
      0x3C00);
}

TEST(FormatsTest, F16OverflowUnderflowSpecials) {
  EXPECT_EQ(encodeF16(65504.0f), 0x7BFF);
  EXPECT_EQ(encodeF16(65519.0f), 0x7BFF);
  EXPECT_EQ(encodeF16(65520.0f), 0x7C00); // tie with 2^16 -> even -> inf
  EXPECT_EQ(encodeF16(1e6f), 0x7C00);
  EXPECT_EQ(encodeF16(-1e6f), 0xFC00);
  EXPECT_EQ(encodeF16FromDouble(1e300), 0x7C00);
  EXPECT_EQ(encodeF16FromDouble(-1e300), 0xFC00);
  EXPECT_EQ(encodeF16(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(encodeF16(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(encodeF16(std::ldexp(1.0f, -25)), 0x0000); // tie -> even (0)
  EXPECT_EQ(encodeF16(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(encodeF16(-std::ldexp(1.0f, -26)), 0x8000);
  EXPECT_EQ(encodeF16FromDouble(1e-300), 0x0000);
  EXPECT_EQ(encodeF16(-0.0f), 0x8000);
  uint16_t nan = encodeF16(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(std::isnan(decodeF16(nan)));
  EXPECT_TRUE(std::isnan(decodeF16(encodeF16FromDouble(-NAN))));
}

TEST(FormatsTest, BF16MatchesBruteForce) {
  Grid16 g = makeGrid(8, 7);
  std::mt19937_64 rng(19);
  for (int i = 0; i < 100000; ++i) {
    uint32_t bits = static_cast<uint32_t>(rng());
    float x;
    std::memcpy(&x, &bits, 4);
    if (std::isnan(x)) {
      ASSERT_TRUE(std::isnan(decodeBF16(encodeBF16(x))));
      continue;
    }
    ASSERT_EQ(encodeBF16(x), bruteForce16(g, x, 15)) << x;
    ASSERT_EQ(encodeBF16FromDouble(x), bruteForce16(g, x, 15)) << x;
  }
  for (size_t i = 0; i + 1 < g.values.size(); i += 97) {
    double mid = 0.5 * (g.values[i] + g.values[i + 1]);
    uint32_t even = g.codes[i] % 2 == 0 ? g.codes[i] : g.codes[i + 1];
    ASSERT_EQ(encodeBF16FromDouble(mid), even) << mid;
  }
  EXPECT_EQ(encodeBF16(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(encodeBF16(-std::numeric_limits<float>::infinity()), 0xFF80);
  EXPECT_EQ(encodeBF16(1.0f), 0x3F80);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: even is 1.
  EXPECT_EQ(encodeBF16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(encodeBF16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
  // Double rounding hazard for bf16 as for f16.
  double x = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  EXPECT_EQ(encodeBF16FromDouble(x), 0x3F81);
  EXPECT_EQ(encodeBF16FromDouble(1e300), 0x7F80);
  EXPECT_EQ(encodeBF16FromDouble(std::ldexp(1.0, -134)), 0x0000); // tie->0
  EXPECT_EQ(encodeBF16FromDouble(std::ldexp(1.5, -134)), 0x0001);
}

} // namespace
