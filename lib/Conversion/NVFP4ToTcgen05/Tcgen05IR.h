//===- Tcgen05IR.h - IR helpers of the tcgen05 GEMV lowering ----*- C++ -*-===//
//
// Small builders the kernel emitter uses: pointers into global,
// shared and tensor memory, views of shared memory for nvgpu ops, cp.async,
// mbarrier waits, and the run-time part of the shared-memory descriptors.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_LIB_CONVERSION_NVFP4TOTCGEN05_TCGEN05IR_H
#define NVFP4_LIB_CONVERSION_NVFP4TOTCGEN05_TCGEN05IR_H

#include "nvfp4/Conversion/Common/IndexValue.h"

#include "mlir/IR/Builders.h"

namespace mlir::nvfp4::tc5 {

using ::mlir::nvfp4::IV;

Value constIndex(OpBuilder &b, Location loc, int64_t v);
Value constI32(OpBuilder &b, Location loc, int64_t v);
Value constI64(OpBuilder &b, Location loc, int64_t v);
Value toI32(OpBuilder &b, Location loc, Value index);
Value toI64(OpBuilder &b, Location loc, Value index);

/// `!llvm.ptr<1>` to the first element of a global memref (a kernel
/// argument; bare-pointer calling convention).
Value globalBase(OpBuilder &b, Location loc, Value memref);
/// `ptr + offset` bytes; `offset` is an index value.
Value byteAddress(OpBuilder &b, Location loc, Value ptr, Value offset);

/// cp.async of `size` bytes (4, 8 or 16) from global `src` to shared `dst`;
/// `srcBytes` (index, may be null) is the number of bytes read, the rest is
/// zero-filled. `.cg` (L2 only) when `streaming` and size is 16, else `.ca`.
void cpAsync(OpBuilder &b, Location loc, Value dst, Value src, int64_t size,
             Value srcBytes, bool streaming);

/// A tcgen05 shared-memory descriptor: `constant` (all fields but the start
/// address, from the Tcgen05Descriptors.h encoder) ORed with
/// matrix-descriptor-encode(address) = (address >> 4) & 0x3FFF in bits 0-13.
/// `address` is the i32 shared-window address.
Value smemDescriptor(OpBuilder &b, Location loc, uint64_t constant,
                     Value address);

/// Blocks until the phase with parity `parity` (i32, 0 or 1) of the mbarrier
/// at `barrier` (!llvm.ptr<3>) has completed: nvvm.mbarrier.try_wait (with
/// acquire semantics for the CTA) in an scf.while. (nvgpu's and NVVM's
/// try_wait.parity ops loop inside inline PTX with `bra.uni`, which asserts
/// that the warp's threads agree; this loop is a plain branch, so that
/// ptxas reconverges the warp before the `.sync.aligned` instructions that
/// follow.)
void mbarrierWaitParity(OpBuilder &b, Location loc, Value barrier,
                        Value parity);

/// A memref of `type` (static shape, identity layout, workgroup memory)
/// whose data starts at `ptr` (!llvm.ptr<3>): the operand nvgpu ops take
/// for a piece of the kernel's dynamic shared memory.
Value sharedMemRef(OpBuilder &b, Location loc, Value ptr, MemRefType type);

/// The `count` mbarriers at `ptr` (!llvm.ptr<3>) as an nvgpu barrier group.
Value sharedBarrierGroup(OpBuilder &b, Location loc, Value ptr, int64_t count);

/// `!llvm.ptr<6>` for tensor-memory address `base` (i32) + `offset`
/// (i32 value: lane << 16 | column).
Value tmemPointer(OpBuilder &b, Location loc, Value base, Value offset);

} // namespace mlir::nvfp4::tc5

#endif // NVFP4_LIB_CONVERSION_NVFP4TOTCGEN05_TCGEN05IR_H
