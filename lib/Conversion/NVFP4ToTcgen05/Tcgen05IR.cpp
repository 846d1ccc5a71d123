//===- Tcgen05IR.cpp - IR helpers of the tcgen05 GEMV lowering ------------===//

#include "Tcgen05IR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace mlir::nvfp4::tc5 {

Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}
Value constI64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 64);
}
Value toI32(OpBuilder &b, Location loc, Value index) {
  return b.createOrFold<arith::IndexCastOp>(loc, b.getI32Type(), index);
}
Value toI64(OpBuilder &b, Location loc, Value index) {
  return b.createOrFold<arith::IndexCastOp>(loc, b.getI64Type(), index);
}

//===----------------------------------------------------------------------===//
// Pointers, copies, descriptors
//===----------------------------------------------------------------------===//

Value globalBase(OpBuilder &b, Location loc, Value memref) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value addr = toI64(b, loc, base);
  auto generic = LLVM::LLVMPointerType::get(b.getContext());
  Value ptr = LLVM::IntToPtrOp::create(b, loc, generic, addr);
  // cvta.to.global: cp.async takes a global-window address.
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), ptr);
}

Value byteAddress(OpBuilder &b, Location loc, Value ptr, Value offset) {
  return LLVM::GEPOp::create(b, loc, ptr.getType(), b.getI8Type(), ptr,
                             ArrayRef<LLVM::GEPArg>{toI64(b, loc, offset)});
}

void cpAsync(OpBuilder &b, Location loc, Value dst, Value src, int64_t size,
             Value srcBytes, bool streaming) {
  auto modifier = streaming && size == 16 ? NVVM::LoadCacheModifierKind::CG
                                          : NVVM::LoadCacheModifierKind::CA;
  Value cpSize = srcBytes ? toI32(b, loc, srcBytes) : Value();
  NVVM::CpAsyncOp::create(
      b, loc, dst, src, b.getI32IntegerAttr(size),
      NVVM::LoadCacheModifierKindAttr::get(b.getContext(), modifier), cpSize);
}

Value smemDescriptor(OpBuilder &b, Location loc, uint64_t constant,
                     Value address) {
  Value shifted = arith::ShRUIOp::create(b, loc, address, constI32(b, loc, 4));
  Value field =
      arith::AndIOp::create(b, loc, shifted, constI32(b, loc, 0x3FFF));
  Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), field);
  return arith::OrIOp::create(b, loc, wide,
                              constI64(b, loc, static_cast<int64_t>(constant)));
}

void mbarrierWaitParity(OpBuilder &b, Location loc, Value address,
                        Value parity) {
  // 10 ms suspend-time hint, as in public sm_100 kernels.
  static constexpr const char *kWait =
      "{\n\t.reg .pred p;\n"
      "WAIT_PARITY:\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1, 10000000;\n\t"
      "@!p bra WAIT_PARITY;\n}";
  LLVM::InlineAsmOp::create(b, loc, TypeRange(), ValueRange{address, parity},
                            kWait, "r,r,~{memory}", /*has_side_effects=*/true,
                            /*is_align_stack=*/false, LLVM::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

Value tmemPointer(OpBuilder &b, Location loc, Value base, Value offset) {
  Value addr = b.createOrFold<arith::AddIOp>(loc, base, offset);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 6), addr);
}

} // namespace mlir::nvfp4::tc5
