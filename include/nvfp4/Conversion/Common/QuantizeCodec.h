//===- QuantizeCodec.h - IR for the quantizers' arithmetic ------*- C++ -*-===//
//
// The f32 operations of quantization and dequantization in the order
// docs/numerics.md (sections 5 and 6) defines them, built once for every
// lowering: the CPU loops and the GPU kernels produce the same bytes because
// they are built by these functions.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_CONVERSION_COMMON_QUANTIZECODEC_H
#define NVFP4_CONVERSION_COMMON_QUANTIZECODEC_H

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"

#include "mlir/IR/Builders.h"

namespace mlir::nvfp4 {

/// The two-level global scale of a tensor whose max |x| is the f32 `amax`:
/// 2688 / amax, or 1 when amax is 0.
Value buildGlobalScale(OpBuilder &b, Location loc, Value amax);

/// What quantization decides once a block.
struct BlockQuantizer {
  Value scaleBits;  // i8: the block's scale byte
  Value multiplier; // f32: a value x is encoded as e2m1(x * multiplier)
  Value isZero;     // i1: every code of the block is +0
};

/// The scale, multiplier and zero test of a block whose max |x| is the f32
/// `amax`; `gs` is the f32 global scale (1 when single-level; unused for
/// MXFP4).
BlockQuantizer buildBlockQuantizer(OpBuilder &b, Location loc,
                                   ScaleFormat format, Value amax, Value gs);

/// Codes of a block are built a word at a time: up to eight values' code
/// magnitudes (buildQuantizeMagnitudes), OR their sign bits (from the f32
/// values, or from 16-bit values as loaded), AND the block's zero mask
/// (buildKeepMask). A value's sign is the input's, which is the sign of
/// x * multiplier for every input (multiplier > 0).

/// The e2m1 code magnitudes (0 to 7, no sign) of the f32 `xs` (at most
/// eight) of a block, code i in nibble i of an i32, bit 3 of every nibble
/// clear. NaN (outside the definition) gives 7.
Value buildQuantizeMagnitudes(OpBuilder &b, Location loc,
                              const BlockQuantizer &q, ArrayRef<Value> xs);
/// Bit 3 of nibble i: the sign bit of the f32 `xs[i]` (at most eight).
Value buildSignNibbles(OpBuilder &b, Location loc, ArrayRef<Value> xs);
/// The same for eight 16-bit floats (a vector<8xbf16> or vector<8xf16> as
/// loaded), by byte permutes instead of two operations a value.
Value buildSignNibblesOf16Bit(OpBuilder &b, Location loc, Value vector);
/// All ones, or 0 for a block whose codes are all +0.
Value buildKeepMask(OpBuilder &b, Location loc, const BlockQuantizer &q);

/// The dequantized value of an e2m1 value (f32) with its block's decoded
/// `scale`, divided by `gs` when given (null: single-level), rounded once to
/// `outType` (f32, f16 or bf16).
Value buildDequantizeValue(OpBuilder &b, Location loc, Value value, Value scale,
                           Value gs, Type outType);
/// buildDequantizeValue of the eight code magnitudes 0 to 7 with one
/// `scale`, as a table: with `gs`, by two divisions, not seven.
SmallVector<Value> buildDequantizeMagnitudes(OpBuilder &b, Location loc,
                                             Value scale, Value gs,
                                             Type outType);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_COMMON_QUANTIZECODEC_H
