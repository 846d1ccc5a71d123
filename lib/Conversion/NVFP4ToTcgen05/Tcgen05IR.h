//===- Tcgen05IR.h - IR helpers of the tcgen05 GEMV lowering ----*- C++ -*-===//
//
// Small builders the kernel emitter uses: pointers into global,
// shared and tensor memory, cp.async, and the run-time part of the
// shared-memory descriptors.
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
/// at shared-window address `address` (i32) has completed:
/// mbarrier.try_wait.parity in a loop, with acquire semantics for the CTA.
/// (nvvm.mbarrier.try_wait.parity in LLVM 22 loops with `bra.uni`, which
/// asserts that the warp's threads agree; this loop uses a plain `bra` so
/// that ptxas reconverges the warp before the `.sync.aligned` tcgen05
/// instructions that follow.)
void mbarrierWaitParity(OpBuilder &b, Location loc, Value address,
                        Value parity);

/// `!llvm.ptr<6>` for tensor-memory address `base` (i32) + `offset`
/// (i32 value: lane << 16 | column).
Value tmemPointer(OpBuilder &b, Location loc, Value base, Value offset);

} // namespace mlir::nvfp4::tc5

#endif // NVFP4_LIB_CONVERSION_NVFP4TOTCGEN05_TCGEN05IR_H
