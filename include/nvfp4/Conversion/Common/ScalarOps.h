//===- ScalarOps.h - i32, f32 and index arithmetic that builds IR -*- C++
//-*-===//
//
// The small builders the decode and encode formulas are written with (Codec,
// the CUDA-core dot products), so that they read like the reference. Index
// arithmetic of layouts and kernels goes through IV (IndexValue.h).
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_COMMON_SCALAROPS_H
#define NVFP4_CONVERSION_COMMON_SCALAROPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::nvfp4 {

struct ScalarOps {
  OpBuilder &b;
  Location loc;
  Value i32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value f32(float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value andi(Value x, int64_t m) {
    return arith::AndIOp::create(b, loc, x, i32(m));
  }
  Value ori(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value ori(Value x, int64_t m) { return ori(x, i32(m)); }
  Value xori(Value x, int64_t m) {
    return arith::XOrIOp::create(b, loc, x, i32(m));
  }
  Value shl(Value x, int64_t s) {
    return arith::ShLIOp::create(b, loc, x, i32(s));
  }
  Value shr(Value x, int64_t s) {
    return arith::ShRUIOp::create(b, loc, x, i32(s));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value cmpf(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value zext32(Value x) {
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), x);
  }
  Value trunc8(Value x) {
    return arith::TruncIOp::create(b, loc, b.getI8Type(), x);
  }
  Value asF32(Value bits) {
    return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
  }
  Value asI32(Value f) {
    return arith::BitcastOp::create(b, loc, b.getI32Type(), f);
  }
  Value boolToI32(Value c) { return zext32(c); }
  /// |x| of an f32 by clearing the sign bit (the GPU lowering takes no
  /// fabs).
  Value absf(Value x) { return asF32(andi(asI32(x), 0x7FFFFFFF)); }
};

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_COMMON_SCALAROPS_H
