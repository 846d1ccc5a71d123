//===- CodeLayoutTest.cpp - the tiled order of a gemv's codes -------------===//
//
// tiledOffset is checked against the loads it exists for (each warp-wide load
// of the tensor-core kernel is 512 consecutive bytes holding, lane by lane,
// the 16 bytes that lane's MMA fragment needs), as a bijection, and through
// ref::relayCodes.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/CodeLayout.h"
#include "nvfp4/Support/Reference.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace nvfp4;

namespace {

struct TileShape {
  int64_t rows, rowBytes;
};
const TileShape kShapes[] = {{16, 64}, {48, 128}, {32, 1472}, {144, 3584}};

TEST(CodeLayout, WarpLoadsAreRunsOfTheirLanesFragments) {
  // Tile `tile`, step `step`, half `h` (rows 0-7 or 8-15), lane (g, t):
  // row 16 tile + g + 8 h, bytes 64 step + 16 t .. + 15, which the
  // tiled order keeps at 512 (2 step + h) + 16 lane of the tile's run.
  for (TileShape s : kShapes)
    for (int64_t tile = 0; tile < s.rows / 16; ++tile)
      for (int64_t step = 0; step < s.rowBytes / 64; ++step)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t lane = 0; lane < 32; ++lane)
            for (int64_t i = 0; i < 16; ++i) {
              int64_t row = 16 * tile + lane / 4 + 8 * h;
              int64_t byte = 64 * step + 16 * (lane % 4) + i;
              EXPECT_EQ(codes::tiledOffset(row, byte, s.rowBytes),
                        16 * tile * s.rowBytes + 512 * (2 * step + h) +
                            16 * lane + i);
            }
}

TEST(CodeLayout, Bijection) {
  for (TileShape s : kShapes) {
    std::vector<int> hits(s.rows * s.rowBytes, 0);
    for (int64_t r = 0; r < s.rows; ++r)
      for (int64_t j = 0; j < s.rowBytes; ++j) {
        int64_t at = codes::tiledOffset(r, j, s.rowBytes);
        // A code stays in its tile's rows.
        ASSERT_EQ(at / (16 * s.rowBytes), r / 16);
        ++hits[at];
      }
    for (int h : hits)
      EXPECT_EQ(h, 1);
  }
}

TEST(CodeLayout, Tileable) {
  EXPECT_TRUE(codes::tileable(16, 64));
  EXPECT_TRUE(codes::tileable(4096, 3584));
  EXPECT_FALSE(codes::tileable(24, 64));
  EXPECT_FALSE(codes::tileable(16, 40));
}

TEST(CodeLayout, RelayCodes) {
  std::mt19937_64 rng(7);
  const int64_t rows = 48, rowBytes = 128, l = 2;
  std::vector<uint8_t> a(l * rows * rowBytes);
  for (uint8_t &x : a)
    x = static_cast<uint8_t>(rng());
  std::vector<uint8_t> tiled =
      ref::relayCodes(true, a.data(), rows, rowBytes, l);
  ASSERT_EQ(tiled.size(), a.size());
  for (int64_t b = 0; b < l; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < rowBytes; ++j)
        ASSERT_EQ(
            tiled[b * rows * rowBytes + codes::tiledOffset(r, j, rowBytes)],
            a[(b * rows + r) * rowBytes + j]);
  EXPECT_NE(tiled, a);
  EXPECT_EQ(ref::relayCodes(false, tiled.data(), rows, rowBytes, l), a);
}

} // namespace
