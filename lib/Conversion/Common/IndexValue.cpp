//===- IndexValue.cpp - index arithmetic that builds IR -------------------===//

#include "nvfp4/Conversion/Common/IndexValue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace mlir::nvfp4 {

IV IV::index(OpBuilder &builder, Location l, int64_t c) {
  return IV(builder, l, arith::ConstantIndexOp::create(builder, l, c));
}

IV IV::constant(int64_t c) const {
  return IV(*b, loc, arith::ConstantIndexOp::create(*b, loc, c));
}

namespace {
template <class Op> IV binary(IV x, IV y) {
  return IV(*x.b, x.loc, x.b->createOrFold<Op>(x.loc, x.v, y.v));
}
} // namespace

IV operator+(IV x, IV y) { return binary<arith::AddIOp>(x, y); }
IV operator+(IV x, int64_t c) { return c ? x + x.constant(c) : x; }
IV operator+(int64_t c, IV x) { return x + c; }
IV operator-(IV x, IV y) { return binary<arith::SubIOp>(x, y); }
IV operator-(IV x, int64_t c) { return c ? x - x.constant(c) : x; }
IV operator-(int64_t c, IV x) { return x.constant(c) - x; }
IV operator*(IV x, IV y) { return binary<arith::MulIOp>(x, y); }
IV operator*(IV x, int64_t c) {
  if (c == 1)
    return x;
  if (c == 0)
    return x.constant(0);
  return x * x.constant(c);
}
IV operator*(int64_t c, IV x) { return x * c; }
IV operator/(IV x, int64_t c) {
  return c == 1 ? x : binary<arith::DivUIOp>(x, x.constant(c));
}
IV operator%(IV x, int64_t c) {
  return c == 1 ? x.constant(0) : binary<arith::RemUIOp>(x, x.constant(c));
}
IV vmin(IV x, int64_t c) { return binary<arith::MinSIOp>(x, x.constant(c)); }
IV vminu(IV x, int64_t c) { return binary<arith::MinUIOp>(x, x.constant(c)); }
Value vult(IV x, int64_t c) {
  return x.b->createOrFold<arith::CmpIOp>(x.loc, arith::CmpIPredicate::ult, x.v,
                                          x.constant(c).v);
}
IV vclamp(IV x, int64_t lo, int64_t hi) {
  IV low = binary<arith::MaxSIOp>(x, x.constant(lo));
  return binary<arith::MinSIOp>(low, x.constant(hi));
}
IV vconst(IV like, int64_t c) { return like.constant(c); }

} // namespace mlir::nvfp4
