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

/// The i8 e2m1 code (low four bits) of the f32 `x` of a block.
Value buildQuantizeValue(OpBuilder &b, Location loc, const BlockQuantizer &q,
                         Value x);

/// The dequantized value of an e2m1 value (f32) with its block's decoded
/// `scale`, divided by `gs` when given (null: single-level), rounded once to
/// `outType` (f32, f16 or bf16).
Value buildDequantizeValue(OpBuilder &b, Location loc, Value value, Value scale,
                           Value gs, Type outType);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_COMMON_QUANTIZECODEC_H
