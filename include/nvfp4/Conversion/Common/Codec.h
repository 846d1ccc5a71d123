//===- Codec.h - IR for FP4 and scale encodings and scale indexing -*- C++
//-*-===//
//
// Builders shared by the lowerings: decoding e2m1 codes and e4m3fn/ue8m0
// scales to f32, encoding f32 to them (round to nearest even), and the memref
// indices of a scale factor in each layout. The arithmetic mirrors
// nvfp4/Support/Formats.h and nvfp4/Support/ScaleLayout.h, whose unit tests
// pin down the same functions on the host.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_CONVERSION_COMMON_CODEC_H
#define NVFP4_CONVERSION_COMMON_CODEC_H

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"

#include "mlir/IR/Builders.h"

#include <utility>

namespace mlir::nvfp4 {

/// f32 value of the e2m1 code in the low four bits of the i8 `code`.
Value buildDecodeE2M1(OpBuilder &b, Location loc, Value code);
/// IEEE maxNum / minNum of two f32 values (a NaN operand gives the other).
/// Built as the LLVM intrinsics: arith.maxnumf would become a libdevice
/// call in the NVVM lowering, which neither the host simulation nor a
/// machine without a CUDA toolkit can resolve.
Value buildMaxNum(OpBuilder &b, Location loc, Value x, Value y);
Value buildMinNum(OpBuilder &b, Location loc, Value x, Value y);
/// f32 values of the low and high e2m1 codes of the i8 `byte`.
std::pair<Value, Value> buildDecodeE2M1Pair(OpBuilder &b, Location loc,
                                            Value byte);
/// prmt (default mode): the bytes of the pair (hi:lo) that the selector's
/// four nibbles pick; a nibble's bit 3 replicates the picked byte's sign.
Value buildPermute(OpBuilder &b, Location loc, Value lo, Value hi,
                   Value selector);
/// Rounds the f32 `x` to `type` (f16, bf16: nearest even; f32: itself).
Value buildTruncF32(OpBuilder &b, Location loc, Value x, Type type);
/// f32 value of a scale, given as its i8 storage byte.
Value buildDecodeScale(OpBuilder &b, Location loc, Value bits,
                       ScaleFormat format);
/// i8 e4m3fn byte nearest to the non-negative f32 `x`, ties to even,
/// saturating at 448 (0x7E; NaN, outside every use, gives 0x7E too).
Value buildEncodeE4M3FN(OpBuilder &b, Location loc, Value x);
/// i8 ue8m0 byte of 2^(floor(log2 amax) - 2), the OCP MX shared scale for
/// e2m1 (0 when amax is 0 or below 2^-125).
Value buildEncodeUE8M0ForE2M1(OpBuilder &b, Location loc, Value amax);

/// Reads the storage byte of an f8 memref element as i8.
Value buildLoadScaleBits(OpBuilder &b, Location loc, Value memref,
                         ValueRange indices);
/// Reads `width` consecutive f8 elements (aligned to `width` bytes) as
/// vector<width x i8>: bytes, since ue8m0 has no zero to select.
Value buildLoadScaleBytes(OpBuilder &b, Location loc, Value memref,
                          ValueRange indices, int64_t width);
/// Stores vector<width x i8> `bytes` into `width` consecutive f8 elements.
void buildStoreScaleBytes(OpBuilder &b, Location loc, Value bytes, Value memref,
                          ValueRange indices, int64_t width);
/// Stores the i8 `bits` into an f8 memref element.
void buildStoreScaleBits(OpBuilder &b, Location loc, Value bits, Value memref,
                         ValueRange indices);

/// Memref indices of scale (row, col) of batch `batch` in `layout`. For a
/// vector's scales (`isVector`) the linear layout has no row index and `row`
/// must be 0 in the blocked one.
SmallVector<Value> buildScaleIndices(OpBuilder &b, Location loc,
                                     ScaleLayout layout, bool isVector,
                                     Value batch, Value row, Value col);

/// Tiled codes (nvfp4/Support/CodeLayout.h) are addressed as flat runs:
/// `a` [L, M, K/2] viewed as [L, M * K/2], and the indices in that view of
/// byte `byte` of `row` of batch `batch` (rows of `rowBytes` bytes).
Value buildFlatCodes(OpBuilder &b, Location loc, Value a);
SmallVector<Value> buildTiledCodeIndices(OpBuilder &b, Location loc,
                                         int64_t rowBytes, Value batch,
                                         Value row, Value byte);

/// f32 value of scale (row, col) of batch `batch` of `memref` in `layout`
/// (see buildScaleIndices for `isVector`).
Value buildLoadScale(OpBuilder &b, Location loc, Value memref,
                     ScaleLayout layout, ScaleFormat format, bool isVector,
                     Value batch, Value row, Value col);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_COMMON_CODEC_H
