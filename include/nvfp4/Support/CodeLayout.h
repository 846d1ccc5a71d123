//===- CodeLayout.h - Where a's packed codes live when tiled ----*- C++ -*-===//
//
// The one place that knows the tiled order of a gemv's matrix codes
// (nvfp4.gemv's `tiled_codes`): the order the tensor-core kernel reads, so
// that each warp-wide load is 512 consecutive bytes. Used by the CPU and GPU
// lowerings (with IR index values), the reference library, the runner and
// the tests. Plain C++, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_SUPPORT_CODELAYOUT_H
#define NVFP4_SUPPORT_CODELAYOUT_H

#include <cstdint>

namespace nvfp4::codes {

/// A tile is 16 rows (an m16n8k16 MMA's); its codes are stored in blocks of
/// 64 bytes of each of its rows (a step of the tensor-core kernel), so a
/// tiled a needs M a multiple of 16 and rows a multiple of 64 bytes.
inline constexpr int64_t kTileRows = 16;
inline constexpr int64_t kStepRowBytes = 64;
inline constexpr int64_t kStepBytes = kTileRows * kStepRowBytes;
/// Inside a block: the 16 bytes a lane loads, quads of lanes on a row, the
/// rows 0-7 of the tile before the rows 8-15 (the halves of a fragment).
inline constexpr int64_t kPieceBytes = 16;
inline constexpr int64_t kHalfRows = 8;

/// Whether an [M, rowBytes] matrix can be tiled.
inline constexpr bool tileable(int64_t rows, int64_t rowBytes) {
  return rows % kTileRows == 0 && rowBytes % kStepRowBytes == 0;
}

/// Where byte `byte` of row `row` of a row-major matrix with `rowBytes`
/// bytes a row lives in the tiled one, as an offset from the matrix's
/// start: the tile's rows hold its blocks one after another. Any
/// integer-like type: int64_t here and in the reference, the IR index
/// values of nvfp4/Conversion/Common/IndexValue.h in the lowerings.
template <class Int>
constexpr Int tiledOffset(Int row, Int byte, int64_t rowBytes) {
  Int inTile = row % kTileRows;
  return (row - inTile) * rowBytes + byte / kStepRowBytes * kStepBytes +
         inTile / kHalfRows * (kHalfRows * kStepRowBytes) +
         inTile % kHalfRows * kStepRowBytes +
         byte % kStepRowBytes / kPieceBytes * kPieceBytes + byte % kPieceBytes;
}

} // namespace nvfp4::codes

#endif // NVFP4_SUPPORT_CODELAYOUT_H
