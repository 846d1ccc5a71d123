//===- ReferenceQuantizeInputsTest.cpp - Quantizer and dequantizer inputs -===//
//
// generateQuantizeInputs and generateDequantizeInputs: a seed gives the same
// inputs every time, the values are those of the element type, and the
// cases the kernels must get right (all-zero blocks, NaN and arbitrary
// scales, every code) are present.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Formats.h"
#include "nvfp4/Support/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

using namespace nvfp4;
using namespace nvfp4::ref;

namespace {

uint32_t bitsOf(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  return bits;
}

/// Element `i` of the stored input, as a float.
float storedValue(ElementType type, const std::vector<uint8_t> &stored,
                  size_t i) {
  if (type == ElementType::F32) {
    float x;
    std::memcpy(&x, stored.data() + 4 * i, 4);
    return x;
  }
  uint16_t h;
  std::memcpy(&h, stored.data() + 2 * i, 2);
  return type == ElementType::F16 ? formats::decodeF16(h)
                                  : formats::decodeBF16(h);
}

TEST(ReferenceQuantizeInputs, SameSeedSameInputs) {
  for (ElementType type :
       {ElementType::F32, ElementType::F16, ElementType::BF16}) {
    QuantizeInputs a =
        generateQuantizeInputs(type, ScaleFormat::NVFP4, 3, 64, 2, 5);
    QuantizeInputs b =
        generateQuantizeInputs(type, ScaleFormat::NVFP4, 3, 64, 2, 5);
    QuantizeInputs c =
        generateQuantizeInputs(type, ScaleFormat::NVFP4, 3, 64, 2, 6);
    EXPECT_EQ(a.stored, b.stored);
    EXPECT_NE(a.stored, c.stored);
    ASSERT_EQ(a.values.size(), size_t(2 * 3 * 64));
    EXPECT_EQ(a.stored.size(), a.values.size() * elementBytes(type));
  }
}

TEST(ReferenceQuantizeInputs, ValuesAreOfTheElementType) {
  for (ElementType type :
       {ElementType::F32, ElementType::F16, ElementType::BF16})
    for (ScaleFormat format : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
      QuantizeInputs in = generateQuantizeInputs(type, format, 16, 256, 2, 9);
      for (size_t i = 0; i < in.values.size(); ++i) {
        float x = in.values[i];
        // The stored element is the value, bit for bit (signed zeros too).
        ASSERT_EQ(bitsOf(storedValue(type, in.stored, i)), bitsOf(x))
            << name(type) << " " << i;
        ASSERT_TRUE(std::isfinite(x));
        if (type == ElementType::F16) {
          ASSERT_EQ(formats::decodeF16(formats::encodeF16(x)), x);
          // f16 values keep to the normal binades (no overflow to inf).
          ASSERT_LT(std::fabs(x), 65504.0f);
        }
        if (type == ElementType::BF16)
          ASSERT_EQ(formats::decodeBF16(formats::encodeBF16(x)), x);
      }
    }
}

TEST(ReferenceQuantizeInputs, CoversZeroAndExactBlocks) {
  for (ScaleFormat format : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
    const int64_t block = blockSize(format);
    QuantizeInputs in =
        generateQuantizeInputs(ElementType::F32, format, 32, 512, 1, 3);
    int64_t zeroBlocks = 0, exactBlocks = 0, negativeZeros = 0;
    for (size_t first = 0; first < in.values.size(); first += block) {
      bool zero = true;
      float amax = 0;
      for (int64_t i = 0; i < block; ++i) {
        float x = in.values[first + i];
        zero &= x == 0.0f;
        amax = std::fmax(amax, std::fabs(x));
        negativeZeros += x == 0.0f && std::signbit(x);
      }
      zeroBlocks += zero;
      // A block whose largest magnitude is 6 * 2^e: its scale is exact.
      int e;
      exactBlocks += amax > 0 && std::frexp(amax / 6.0f, &e) == 0.5f;
    }
    EXPECT_GT(zeroBlocks, 0) << name(format);
    EXPECT_GT(exactBlocks, 0) << name(format);
    EXPECT_GT(negativeZeros, 0) << name(format);
  }
}

TEST(ReferenceDequantizeInputs, SameSeedSameInputs) {
  DequantizeInputs a = generateDequantizeInputs(
      ScaleFormat::NVFP4, ScaleLayout::Blocked128x4, true, 130, 64, 2, 4);
  DequantizeInputs b = generateDequantizeInputs(
      ScaleFormat::NVFP4, ScaleLayout::Blocked128x4, true, 130, 64, 2, 4);
  DequantizeInputs c = generateDequantizeInputs(
      ScaleFormat::NVFP4, ScaleLayout::Blocked128x4, true, 130, 64, 2, 8);
  EXPECT_EQ(a.data, b.data);
  EXPECT_EQ(a.scales, b.scales);
  EXPECT_EQ(bitsOf(a.globalScale), bitsOf(b.globalScale));
  EXPECT_NE(a.data, c.data);
  EXPECT_NE(a.scales, c.scales);
  EXPECT_NE(a.globalScale, c.globalScale);
}

TEST(ReferenceDequantizeInputs, SizesLayoutAndGlobalScale) {
  for (ScaleFormat format : {ScaleFormat::NVFP4, ScaleFormat::MXFP4})
    for (ScaleLayout layout :
         {ScaleLayout::Linear, ScaleLayout::Blocked128x4}) {
      const int64_t rows = 130, k = 256, l = 2, cols = k / blockSize(format);
      DequantizeInputs in =
          generateDequantizeInputs(format, layout, false, rows, k, l, 1);
      EXPECT_EQ(in.data.size(), size_t(l * rows * k / 2));
      EXPECT_EQ(in.scales.size(),
                size_t(l * scaleBatchBytes(layout, rows, cols)));
      EXPECT_EQ(in.globalScale, 1.0f);
      // The padding of a blocked layout is zero: a round trip through the
      // linear layout gives the same bytes.
      std::vector<uint8_t> linear = convertScaleLayout(
          layout, ScaleLayout::Linear, in.scales.data(), rows, cols, l);
      EXPECT_EQ(convertScaleLayout(ScaleLayout::Linear, layout, linear.data(),
                                   rows, cols, l),
                in.scales);
    }
  // Mostly 2688 / amax with amax in [2^-12, 2^12), sometimes anywhere.
  int realistic = 0, tiny = 0, huge = 0, negative = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    float gs = generateDequantizeInputs(ScaleFormat::NVFP4, ScaleLayout::Linear,
                                        true, 1, 16, 1, seed)
                   .globalScale;
    EXPECT_TRUE(std::isfinite(gs)) << seed;
    realistic += gs > 2688.0f / 4096.0f && gs <= 2688.0f * 4096.0f;
    tiny += std::fabs(gs) < 0x1p-100f;
    huge += std::fabs(gs) > 0x1p100f;
    negative += gs < 0;
  }
  EXPECT_GE(realistic, 120);
  EXPECT_GT(tiny, 0);
  EXPECT_GT(huge, 0);
  EXPECT_GT(negative, 0);
}

TEST(ReferenceDequantizeInputs, EveryCodeAndArbitraryScales) {
  for (ScaleFormat format : {ScaleFormat::NVFP4, ScaleFormat::MXFP4}) {
    DequantizeInputs in = generateDequantizeInputs(format, ScaleLayout::Linear,
                                                   false, 512, 512, 1, 2);
    std::set<uint8_t> codes;
    for (uint8_t byte : in.data) {
      codes.insert(byte & 0xF);
      codes.insert(byte >> 4);
    }
    EXPECT_EQ(codes.size(), 16u);
    int64_t nans = 0, realistic = 0;
    for (uint8_t byte : in.scales) {
      double s = decodeScale(format, byte);
      nans += std::isnan(s);
      realistic += s >= std::ldexp(1.0, -10) && s <= std::ldexp(1.0, 10);
    }
    EXPECT_GT(nans, 0) << name(format);
    // Most scales are realistic, not all.
    EXPECT_GT(realistic, int64_t(in.scales.size()) / 2) << name(format);
    EXPECT_LT(realistic, int64_t(in.scales.size())) << name(format);
  }
}

} // namespace
