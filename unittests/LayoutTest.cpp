//===- LayoutTest.cpp - Blocked 128x4 scale layout arithmetic -------------===//
//
// blockedOffset is checked against two independent derivations: the
// reference problem's 6-D view of the storage, and the index arithmetic of
// the seed's Triton kernel.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/ScaleLayout.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

using namespace nvfp4::layout;

namespace {

/// Row-major linear index of `idx` in a contiguous array of shape `shape`.
template <size_t N>
int64_t rowMajorIndex(const std::array<int64_t, N> &shape,
                      const std::array<int64_t, N> &idx) {
  int64_t flat = 0;
  for (size_t d = 0; d < N; ++d) {
    EXPECT_GE(idx[d], 0);
    EXPECT_LT(idx[d], shape[d]);
    flat = flat * shape[d] + idx[d];
  }
  return flat;
}

/// The reference problem allocates the scales contiguously with shape
/// [rb][cb][32][4][4] per batch (batch outermost) and exposes them through a
/// permuted view (32, 4, rb, 4, cb). Entry (r, c) of the logical matrix sits
/// at view index (r % 32, (r % 128) / 32, r / 128, c % 4, c / 4).
int64_t sixDimOffset(int64_t r, int64_t c, int64_t rows, int64_t cols) {
  int64_t rb = (rows + 127) / 128, cb = (cols + 3) / 4;
  std::array<int64_t, 5> shape = {rb, cb, 32, 4, 4};
  // Undo the permutation: storage dim order is (rb, cb, 32, 4[row], 4[col]).
  std::array<int64_t, 5> idx = {r / 128, c / 4, r % 32, (r % 128) / 32, c % 4};
  return rowMajorIndex(shape, idx);
}

/// The seed kernel's arithmetic: first a row-block/col-block tiling with
/// 128x4 tiles stored row-major inside (perm), then each 512-byte chunk is
/// viewed as [4][32][4] and transposed to [32][4][4].
int64_t seedOffset(int64_t r, int64_t c, int64_t cols) {
  int64_t numColBlocks = (cols + 3) / 4;
  int64_t rowBlock = r / 128, rowInBlock = r % 128;
  int64_t colBlock = c / 4, colInBlock = c % 4;
  int64_t tiled = rowBlock * numColBlocks * 512 + colBlock * 512 +
                  rowInBlock * 4 + colInBlock;
  int64_t chunk = tiled / 512;
  int64_t within = tiled % 512;
  int64_t quarter = within / 128;    // which group of 32 rows
  int64_t lane = (within % 128) / 4; // row inside the group
  int64_t col = within % 4;
  return chunk * 512 + lane * 16 + quarter * 4 + col;
}

TEST(LayoutTest, SizesAndPadding) {
  EXPECT_EQ(rowBlocks(1), 1);
  EXPECT_EQ(rowBlocks(128), 1);
  EXPECT_EQ(rowBlocks(129), 2);
  EXPECT_EQ(colBlocks(4), 1);
  EXPECT_EQ(colBlocks(5), 2);
  EXPECT_EQ(paddedRows(130), 256);
  EXPECT_EQ(paddedCols(9), 12);
  EXPECT_EQ(blockedBatchBytes(1, 1), 512);
  EXPECT_EQ(blockedBatchBytes(130, 9), 2 * 3 * 512);
  EXPECT_EQ(blockedBatchBytes(7168, 1024), 56 * 256 * 512);
  EXPECT_EQ(linearOffset(3, 2, 7), 23);
}

TEST(LayoutTest, MatchesSixDimViewExhaustiveSmall) {
  for (int64_t rows : {1, 31, 32, 33, 127, 128, 129, 130, 256, 300})
    for (int64_t cols = 1; cols <= 13; ++cols)
      for (int64_t r = 0; r < paddedRows(rows); ++r)
        for (int64_t c = 0; c < paddedCols(cols); ++c) {
          ASSERT_EQ(blockedOffset(r, c, cols), sixDimOffset(r, c, rows, cols))
              << "rows=" << rows << " cols=" << cols << " r=" << r
              << " c=" << c;
          ASSERT_EQ(blockedOffset(r, c, cols), seedOffset(r, c, cols))
              << "rows=" << rows << " cols=" << cols << " r=" << r
              << " c=" << c;
        }
}

TEST(LayoutTest, MatchesSixDimViewRandomLarge) {
  std::mt19937_64 rng(1234);
  for (int trial = 0; trial < 20000; ++trial) {
    int64_t rows = 1 + rng() % 20000;
    int64_t cols = 1 + rng() % 2000;
    int64_t r = rng() % rows, c = rng() % cols;
    ASSERT_EQ(blockedOffset(r, c, cols), sixDimOffset(r, c, rows, cols))
        << "rows=" << rows << " cols=" << cols << " r=" << r << " c=" << c;
    ASSERT_EQ(blockedOffset(r, c, cols), seedOffset(r, c, cols));
  }
}

TEST(LayoutTest, SpecFormulaSpotChecks) {
  // Hand-derived from the atom picture: rows r and r + 32 share a 16-byte
  // line; the 4 columns of a line are contiguous; atoms follow row-block
  // major order.
  EXPECT_EQ(blockedOffset(0, 0, 8), 0);
  EXPECT_EQ(blockedOffset(0, 3, 8), 3);
  EXPECT_EQ(blockedOffset(32, 0, 8), 4);
  EXPECT_EQ(blockedOffset(96, 2, 8), 14);
  EXPECT_EQ(blockedOffset(1, 0, 8), 16);
  EXPECT_EQ(blockedOffset(31, 0, 8), 496);
  EXPECT_EQ(blockedOffset(127, 3, 8), 511);
  EXPECT_EQ(blockedOffset(0, 4, 8), 512);
  EXPECT_EQ(blockedOffset(128, 0, 8), 1024);
  EXPECT_EQ(blockedOffset(128, 0, 9), 1536); // 3 column blocks per row block
}

TEST(LayoutTest, BijectionOntoPaddedBatch) {
  for (int64_t rows : {1, 2, 100, 128, 129, 130, 256, 385})
    for (int64_t cols = 1; cols <= 9; ++cols) {
      int64_t bytes = blockedBatchBytes(rows, cols);
      ASSERT_EQ(bytes, paddedRows(rows) * paddedCols(cols));
      std::vector<int> hits(bytes, 0);
      for (int64_t r = 0; r < paddedRows(rows); ++r)
        for (int64_t c = 0; c < paddedCols(cols); ++c) {
          int64_t off = blockedOffset(r, c, cols);
          ASSERT_GE(off, 0);
          ASSERT_LT(off, bytes);
          ++hits[off];
        }
      for (int64_t i = 0; i < bytes; ++i)
        ASSERT_EQ(hits[i], 1)
            << "rows=" << rows << " cols=" << cols << " offset=" << i;
    }
}

TEST(LayoutTest, BlockedRowColAtInvertsOffset) {
  for (int64_t rows : {1, 128, 129, 385})
    for (int64_t cols = 1; cols <= 9; ++cols)
      for (int64_t off = 0; off < blockedBatchBytes(rows, cols); ++off) {
        RowCol<int64_t> rc = blockedRowColAt(off, colBlocks(cols));
        ASSERT_LT(rc.row, paddedRows(rows));
        ASSERT_LT(rc.col, paddedCols(cols));
        ASSERT_EQ(blockedOffset(rc.row, rc.col, cols), off)
            << "rows=" << rows << " cols=" << cols;
      }
}

TEST(LayoutTest, ScalesOfOneRowVector) {
  // rows = 1 (the vector's scales): one atom row block; only lane 0, group 0
  // is used, so column c of block cb sits at cb * 512 + c % 4.
  for (int64_t cols = 1; cols <= 40; ++cols)
    for (int64_t c = 0; c < cols; ++c)
      EXPECT_EQ(blockedOffset(0, c, cols), (c / 4) * 512 + c % 4);
}

} // namespace
