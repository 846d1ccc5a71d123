//===- Codec.cpp - IR for FP4 and scale encodings and scale indexing ------===//

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/IndexValue.h"
#include "nvfp4/Conversion/Common/ScalarOps.h"
#include "nvfp4/Support/CodeLayout.h"
#include "nvfp4/Support/ScaleLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;

Value mlir::nvfp4::buildMaxNum(OpBuilder &b, Location loc, Value x, Value y) {
  return LLVM::MaxNumOp::create(b, loc, x, y);
}

Value mlir::nvfp4::buildMinNum(OpBuilder &b, Location loc, Value x, Value y) {
  return LLVM::MinNumOp::create(b, loc, x, y);
}

Value mlir::nvfp4::buildDecodeE2M1(OpBuilder &b, Location loc, Value code) {
  // Twice the magnitude is an integer: m for e == 0, (2 + m) << (e - 1)
  // otherwise; the sign is bit 3. Build the f32 from that exactly.
  ScalarOps o{b, loc};
  Value c = o.zext32(code);
  Value mant = o.andi(c, 1);
  Value exp = o.andi(o.shr(c, 1), 3);
  Value isSub = o.cmp(arith::CmpIPredicate::eq, exp, o.i32(0));
  Value expM1 = o.select(isSub, o.i32(0), o.sub(exp, o.i32(1)));
  Value normal = arith::ShLIOp::create(b, loc, o.add(o.i32(2), mant), expM1);
  Value twice = o.select(isSub, mant, normal);
  Value mag = arith::UIToFPOp::create(b, loc, b.getF32Type(), twice);
  Value half = arith::MulFOp::create(b, loc, mag, o.f32(0.5f));
  Value sign = o.shl(o.andi(c, 8), 28);
  return o.asF32(o.ori(o.asI32(half), sign));
}

std::pair<Value, Value>
mlir::nvfp4::buildDecodeE2M1Pair(OpBuilder &b, Location loc, Value byte) {
  Value lo = buildDecodeE2M1(b, loc, byte);
  Value hi = buildDecodeE2M1(
      b, loc,
      arith::ShRUIOp::create(b, loc, byte,
                             arith::ConstantIntOp::create(b, loc, 4, 8)));
  return {lo, hi};
}

Value mlir::nvfp4::buildPermute(OpBuilder &b, Location loc, Value lo, Value hi,
                                Value selector) {
  return NVVM::PermuteOp::create(
      b, loc, b.getI32Type(), lo, hi, selector,
      NVVM::PermuteModeAttr::get(b.getContext(), NVVM::PermuteMode::DEFAULT));
}

Value mlir::nvfp4::buildTruncF32(OpBuilder &b, Location loc, Value x,
                                 Type type) {
  if (type.isF32())
    return x;
  return arith::TruncFOp::create(b, loc, type, x);
}

Value mlir::nvfp4::buildDecodeScale(OpBuilder &b, Location loc, Value bits,
                                    ScaleFormat format) {
  ScalarOps o{b, loc};
  Value x = o.zext32(bits);
  Value nan = o.f32(std::numeric_limits<float>::quiet_NaN());
  if (format == ScaleFormat::MXFP4) {
    // 2^(x - 127): the byte is the f32 exponent field; 0 is the subnormal
    // 2^-127 and 0xFF is NaN.
    Value normal = o.asF32(o.shl(x, 23));
    Value isZero = o.cmp(arith::CmpIPredicate::eq, x, o.i32(0));
    Value value = o.select(isZero, o.asF32(o.i32(0x00400000)), normal);
    Value isNaN = o.cmp(arith::CmpIPredicate::eq, x, o.i32(0xFF));
    return o.select(isNaN, nan, value);
  }
  // e4m3fn: placing the 7 magnitude bits at f32 bit 20 gives the value times
  // 2^-120 for normals and subnormals alike; 0x7F/0xFF are NaN.
  Value mag = o.andi(x, 0x7F);
  Value scaled = o.asF32(o.shl(mag, 20));
  Value value = arith::MulFOp::create(b, loc, scaled, o.f32(0x1p120f));
  Value signed_ = o.asF32(o.ori(o.asI32(value), o.shl(o.andi(x, 0x80), 24)));
  Value isNaN = o.cmp(arith::CmpIPredicate::eq, mag, o.i32(0x7F));
  return o.select(isNaN, nan, signed_);
}

Value mlir::nvfp4::buildEncodeE4M3FN(OpBuilder &b, Location loc, Value x) {
  ScalarOps o{b, loc};
  Value bits = o.andi(o.asI32(x), 0x7FFFFFFF);
  Value absX = o.asF32(bits);
  // Subnormal range (< 2^-6): units of 2^-9 rounded to nearest even by
  // adding 2^23 (one rounding of the exact |x| * 512 + 2^23); the sum's low
  // bits are the code, no float-to-integer conversion needed.
  Value biased =
      LLVM::FMAOp::create(b, loc, absX, o.f32(512.0f), o.f32(8388608.0f));
  Value subCode = o.sub(o.asI32(biased), o.i32(0x4B000000));
  // Normal range: round the f32 mantissa to 3 bits (ties to even) and rebias
  // the exponent from 127 to 7.
  Value lsb = o.andi(o.shr(bits, 20), 1);
  Value roundedBits = o.add(o.add(bits, o.i32(0x7FFFF)), lsb);
  Value normCode = o.sub(o.shr(roundedBits, 20), o.i32(120 << 3));
  Value isSub = o.cmpf(arith::CmpFPredicate::OLT, absX, o.f32(0x1p-6f));
  Value code = o.select(isSub, subCode, normCode);
  // Saturate at 448 (0x7E): the codes grow with |x|, so every |x| above the
  // midpoint 464, infinity included, gives more than 0x7E.
  code = arith::MinSIOp::create(b, loc, code, o.i32(0x7E));
  return o.trunc8(code);
}

Value mlir::nvfp4::buildEncodeUE8M0ForE2M1(OpBuilder &b, Location loc,
                                           Value amax) {
  ScalarOps o{b, loc};
  // floor(log2(amax)) + 127 is the f32 exponent field for normals; the e2m1
  // maximum exponent (2) is subtracted, clamped to the ue8m0 range [0, 254].
  Value field = o.andi(o.shr(o.asI32(amax), 23), 0xFF);
  Value biased = o.sub(field, o.i32(2));
  Value clamped = arith::MaxSIOp::create(b, loc, biased, o.i32(0));
  clamped = arith::MinSIOp::create(b, loc, clamped, o.i32(254));
  return o.trunc8(clamped);
}

Value mlir::nvfp4::buildLoadScaleBits(OpBuilder &b, Location loc, Value memref,
                                      ValueRange indices) {
  Value v = memref::LoadOp::create(b, loc, memref, indices);
  return arith::BitcastOp::create(b, loc, b.getI8Type(), v);
}

Value mlir::nvfp4::buildLoadScaleBytes(OpBuilder &b, Location loc, Value memref,
                                       ValueRange indices, int64_t width) {
  Type f8 = cast<MemRefType>(memref.getType()).getElementType();
  Value v = vector::LoadOp::create(b, loc, VectorType::get({width}, f8), memref,
                                   indices, /*nontemporal=*/false,
                                   llvm::MaybeAlign(width));
  return vector::BitCastOp::create(b, loc,
                                   VectorType::get({width}, b.getI8Type()), v);
}

void mlir::nvfp4::buildStoreScaleBytes(OpBuilder &b, Location loc, Value bytes,
                                       Value memref, ValueRange indices,
                                       int64_t width) {
  Type f8 = cast<MemRefType>(memref.getType()).getElementType();
  Value v =
      vector::BitCastOp::create(b, loc, VectorType::get({width}, f8), bytes);
  vector::StoreOp::create(b, loc, v, memref, indices, /*nontemporal=*/false,
                          llvm::MaybeAlign(width));
}

void mlir::nvfp4::buildStoreScaleBits(OpBuilder &b, Location loc, Value bits,
                                      Value memref, ValueRange indices) {
  Type elem = cast<MemRefType>(memref.getType()).getElementType();
  Value v = arith::BitcastOp::create(b, loc, elem, bits);
  memref::StoreOp::create(b, loc, v, memref, indices);
}

SmallVector<Value> mlir::nvfp4::buildScaleIndices(OpBuilder &b, Location loc,
                                                  ScaleLayout layout,
                                                  bool isVector, Value batch,
                                                  Value row, Value col) {
  if (layout == ScaleLayout::Linear) {
    if (isVector)
      return {batch, col};
    return {batch, row, col};
  }
  ::nvfp4::layout::BlockedCoord<IV> c =
      ::nvfp4::layout::blockedCoord(IV(b, loc, row), IV(b, loc, col));
  return {batch, c.rowBlock, c.colBlock, c.inAtom};
}

Value mlir::nvfp4::buildFlatCodes(OpBuilder &b, Location loc, Value a) {
  return memref::CollapseShapeOp::create(
      b, loc, a, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
}

SmallVector<Value>
mlir::nvfp4::buildTiledCodeIndices(OpBuilder &b, Location loc, int64_t rowBytes,
                                   Value batch, Value row, Value byte) {
  return {batch, ::nvfp4::codes::tiledOffset(IV(b, loc, row), IV(b, loc, byte),
                                             rowBytes)};
}

Value mlir::nvfp4::buildLoadScale(OpBuilder &b, Location loc, Value memref,
                                  ScaleLayout layout, ScaleFormat format,
                                  bool isVector, Value batch, Value row,
                                  Value col) {
  SmallVector<Value> indices =
      buildScaleIndices(b, loc, layout, isVector, batch, row, col);
  return buildDecodeScale(b, loc, buildLoadScaleBits(b, loc, memref, indices),
                          format);
}
