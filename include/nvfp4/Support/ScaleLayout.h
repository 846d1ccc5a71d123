//===- ScaleLayout.h - Scale-factor layout arithmetic -----------*- C++ -*-===//
//
// The one place that knows where a scale factor lives in each layout. Used by
// the CPU and GPU lowerings (which instantiate these templates with IR index
// values), the reference library, the runner and the unit tests. Plain C++,
// no MLIR.
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

// The blocked formula, written once. The templates take any integer-like
// type: int64_t here and in the reference, runner and tests, and the IR index
// values of nvfp4/Conversion/Common/IndexValue.h in the lowerings.

/// Byte of column 0 of `row`'s 4-byte word inside its 512-byte atom: rows r
/// and r + 32k share the 16-byte line r % 32.
template <class Int> constexpr Int atomWordOffset(Int row) {
  return (row % kLaneRows) * kLineBytes +
         (row % kAtomRows) / kLaneRows * kAtomCols;
}

/// Where scale (row, col) lives in the blocked layout: the atom's row block
/// and column block, and the byte inside the atom.
template <class Int> struct BlockedCoord { Int rowBlock, colBlock, inAtom; };
template <class Int>
constexpr BlockedCoord<Int> blockedCoord(Int row, Int col) {
  Int inAtom = atomWordOffset(row) + col % kAtomCols;
  Int rowBlock = row / kAtomRows;
  Int colBlock = col / kAtomCols;
  return {rowBlock, colBlock, inAtom};
}

/// The inverse of blockedCoord: (row, col) of the scale stored at byte
/// `inAtom` of atom (rowBlock, colBlock).
template <class Int> struct RowCol { Int row, col; };
template <class Int>
constexpr RowCol<Int> blockedRowCol(Int rowBlock, Int colBlock, Int inAtom) {
  Int row = rowBlock * kAtomRows + inAtom % kLineBytes / kAtomCols * kLaneRows +
            inAtom / kLineBytes;
  Int col = colBlock * kAtomCols + inAtom % kAtomCols;
  return {row, col};
}

/// (row, col) of the scale at byte `offset` of one batch of the blocked
/// layout of a matrix with `colBlocks` column blocks.
template <class Int>
constexpr RowCol<Int> blockedRowColAt(Int offset, int64_t colBlocks) {
  Int atom = offset / kAtomBytes;
  return blockedRowCol(atom / colBlocks, atom % colBlocks, offset % kAtomBytes);
}

/// Destination bytes a thread of the GPU scale-layout conversion writes:
/// scales (row, 4 j .. 4 j + 3) are 4 contiguous bytes in either layout,
/// word-aligned when a row has a multiple of 4 columns; else one byte.
inline constexpr int64_t conversionBytesPerThread(int64_t cols) {
  return cols % kAtomCols == 0 ? kAtomCols : 1;
}

/// Byte offset of scale (row, col) inside one batch of the blocked 128x4
/// layout of a matrix with `cols` scale columns (docs/problem.md section 2).
inline constexpr int64_t blockedOffset(int64_t row, int64_t col, int64_t cols) {
  BlockedCoord<int64_t> c = blockedCoord(row, col);
  return (c.rowBlock * colBlocks(cols) + c.colBlock) * kAtomBytes + c.inAtom;
}

/// Byte offset of scale (row, col) inside one batch of the linear layout.
inline constexpr int64_t linearOffset(int64_t row, int64_t col, int64_t cols) {
  return row * cols + col;
}

} // namespace nvfp4::layout

#endif // NVFP4_SUPPORT_SCALELAYOUT_H
