//===- Tcgen05IR.cpp - IR helpers of the tcgen05 GEMV lowering ------------===//

#include "Tcgen05IR.h"

#include "nvfp4/Conversion/Common/TensorMapIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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

void mbarrierWaitParity(OpBuilder &b, Location loc, Value barrier,
                        Value parity) {
  Value ticks = constI32(b, loc, kTryWaitTicks);
  auto loop = scf::WhileOp::create(b, loc, TypeRange(), ValueRange());
  OpBuilder::InsertionGuard guard(b);
  b.createBlock(&loop.getBefore());
  Value done = NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(), barrier,
                                               parity, ticks);
  Value notDone = arith::XOrIOp::create(
      b, loc, done, arith::ConstantIntOp::create(b, loc, 1, 1));
  scf::ConditionOp::create(b, loc, notDone, ValueRange());
  b.createBlock(&loop.getAfter());
  scf::YieldOp::create(b, loc);
}

/// The descriptor the LLVM lowering gives a row-major memref of `shape`
/// whose data starts at `ptr`: both pointers, offset 0, sizes, strides.
static Value memrefDescriptor(OpBuilder &b, Location loc, Value ptr,
                              ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
  auto i64 = b.getI64Type();
  auto array = LLVM::LLVMArrayType::get(i64, rank);
  auto structType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), {ptr.getType(), ptr.getType(), i64, array, array});
  Value desc = LLVM::UndefOp::create(b, loc, structType);
  desc = LLVM::InsertValueOp::create(b, loc, desc, ptr, ArrayRef<int64_t>{0});
  desc = LLVM::InsertValueOp::create(b, loc, desc, ptr, ArrayRef<int64_t>{1});
  desc = LLVM::InsertValueOp::create(b, loc, desc, constI64(b, loc, 0),
                                     ArrayRef<int64_t>{2});
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    desc = LLVM::InsertValueOp::create(b, loc, desc, constI64(b, loc, shape[d]),
                                       ArrayRef<int64_t>{3, d});
    desc = LLVM::InsertValueOp::create(b, loc, desc, constI64(b, loc, stride),
                                       ArrayRef<int64_t>{4, d});
    stride *= shape[d];
  }
  return desc;
}

Value sharedMemRef(OpBuilder &b, Location loc, Value ptr, MemRefType type) {
  Value desc = memrefDescriptor(b, loc, ptr, type.getShape());
  return UnrealizedConversionCastOp::create(b, loc, type, desc).getResult(0);
}

Value sharedBarrierGroup(OpBuilder &b, Location loc, Value ptr, int64_t count) {
  MLIRContext *ctx = b.getContext();
  auto workgroup = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  // convert-nvgpu-to-nvvm lowers the group as a memref of one i64 a
  // barrier.
  Value desc = memrefDescriptor(b, loc, ptr, {count});
  return UnrealizedConversionCastOp::create(
             b, loc, nvgpu::MBarrierGroupType::get(ctx, workgroup, count), desc)
      .getResult(0);
}

Value tmemPointer(OpBuilder &b, Location loc, Value base, Value offset) {
  Value addr = b.createOrFold<arith::AddIOp>(loc, base, offset);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 6), addr);
}

} // namespace mlir::nvfp4::tc5
