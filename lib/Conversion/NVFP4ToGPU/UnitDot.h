//===- UnitDot.h - dot products of 16 e2m1 pairs on CUDA cores --*- C++ -*-===//
//
// A thread's work is cut into 8-byte units: 16 e2m1 values of a against the
// same 16 of b, one NVFP4 scale block (half an MXFP4 one). Each decode method
// prepares the b side once (shared by every row a thread handles) and then
// forms the exact f32 dot product of each unit of a.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_LIB_CONVERSION_NVFP4TOGPU_UNITDOT_H
#define NVFP4_LIB_CONVERSION_NVFP4TOGPU_UNITDOT_H

#include "KernelConfig.h"

#include "mlir/IR/Builders.h"

namespace mlir::nvfp4 {

/// The constant words the byte-permute decodes look codes up in (dp4a: two,
/// f32: four), made once at the kernel's start. Each is a prmt that picks
/// all four bytes of the constant but names a per-thread register as its
/// other source: ptxas cannot fold it, so the word stays in a register of
/// its own instead of being copied from a uniform register before most
/// lookups.
struct DecodeTables {
  SmallVector<Value> words;
};
DecodeTables buildDecodeTables(OpBuilder &b, Location loc, DecodeMethod method,
                               Value threadId);

/// A unit (two i32 words) of b, or of a when several vectors share it, in
/// the form `buildUnitDot` (b) and `buildPreparedUnitDot` (both) consume.
/// For dp4a these are `kPreparedWordsPerUnit` i32 words of signed bytes
/// (twice the values), which a kernel may also keep in shared memory.
SmallVector<Value> buildPrepareUnit(OpBuilder &b, Location loc,
                                    DecodeMethod method,
                                    const DecodeTables &tables,
                                    ArrayRef<Value> words);
/// The exact f32 dot product of a's unit (two i32 words) with a prepared b
/// unit, whatever the method. One vector: a's codes are decoded on the way
/// (dp4a: looked up, never prepared).
Value buildUnitDot(OpBuilder &b, Location loc, DecodeMethod method,
                   const DecodeTables &tables, ArrayRef<Value> words,
                   ArrayRef<Value> prepared);
/// The same dot from a's prepared unit: for several vectors, which share
/// it (dp4a: four 4-way products instead of eight).
Value buildPreparedUnitDot(OpBuilder &b, Location loc, DecodeMethod method,
                           ArrayRef<Value> preparedA,
                           ArrayRef<Value> preparedB);

/// The 16 f32 values of a unit of a 16-bit vector (`element` f16 or bf16;
/// eight i32 words, two values each, the lower half first): the prepared b
/// of DecodeMethod::F32, every value exact.
SmallVector<Value> buildWideVectorUnit(OpBuilder &b, Location loc, Type element,
                                       ArrayRef<Value> words);

/// i32 words buildPrepareUnit makes of one unit (8 bytes) of b under
/// dp4a.
inline constexpr int64_t kPreparedWordsPerUnit = 4;

} // namespace mlir::nvfp4

#endif // NVFP4_LIB_CONVERSION_NVFP4TOGPU_UNITDOT_H
