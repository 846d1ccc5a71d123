//===- ScaleLayout.h - Scale-factor layout arithmetic -----------*- C++ -*-===//
//
// The one place that knows where a scale factor lives in each layout. Used by
// the CPU and GPU lowerings (which mirror these formulas in IR), the reference
// library, the runner and the unit tests. Plain C++, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_SUPPORT_SCALELAYOUT_H
#define NVFP4_SUPPORT_SCALELAYOUT_H

#include <cstdint>

namespace nvfp4::layout {

/// The blocked layout is made of 512-byte atoms of 128 rows x 4 columns.
inline constexpr int64_t kAtomRows = 128;
inline constexpr int64_t kAtomCols = 4;
inline constexpr int64_t kAtomBytes = kAtomRows * kAtomCols;
/// Inside an atom, rows r and r + 32k share one 16-byte line.
inline constexpr int64_t kLaneRows = 32;
inline constexpr int64_t kLineBytes = 16;

inline constexpr int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

/// Number of 128-row atom blocks covering `rows`.
inline constexpr int64_t rowBlocks(int64_t rows) {
  return ceilDiv(rows, kAtomRows);
}
/// Number of 4-column atom blocks covering `cols`.
inline constexpr int64_t colBlocks(int64_t cols) {
  return ceilDiv(cols, kAtomCols);
}
inline constexpr int64_t paddedRows(int64_t rows) {
  return rowBlocks(rows) * kAtomRows;
}
inline constexpr int64_t paddedCols(int64_t cols) {
  return colBlocks(cols) * kAtomCols;
}

/// Bytes of one batch of a `rows` x `cols` scale matrix in the blocked layout.
inline constexpr int64_t blockedBatchBytes(int64_t rows, int64_t cols) {
  return rowBlocks(rows) * colBlocks(cols) * kAtomBytes;
}

/// Byte offset of scale (row, col) inside one batch of the blocked 128x4
/// layout of a matrix with `cols` scale columns (docs/problem.md section 2).
inline constexpr int64_t blockedOffset(int64_t row, int64_t col, int64_t cols) {
  int64_t atom = (row / kAtomRows) * colBlocks(cols) + col / kAtomCols;
  return atom * kAtomBytes + (row % kLaneRows) * kLineBytes +
         ((row % kAtomRows) / kLaneRows) * kAtomCols + (col % kAtomCols);
}

/// Byte offset of scale (row, col) inside one batch of the linear layout.
inline constexpr int64_t linearOffset(int64_t row, int64_t col, int64_t cols) {
  return row * cols + col;
}

} // namespace nvfp4::layout

#endif // NVFP4_SUPPORT_SCALELAYOUT_H
