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

/// b's unit (two i32 words) in the form `buildUnitDot` consumes. For dp4a
/// these are `kPreparedWordsPerUnit` i32 words per unit of b, which a kernel
/// may also keep in shared memory.
SmallVector<Value> buildPrepareVectorUnit(OpBuilder &b, Location loc,
                                          DecodeMethod method,
                                          ArrayRef<Value> words);
/// The exact f32 dot product of a's unit (two i32 words) with a prepared b
/// unit, whatever the method.
Value buildUnitDot(OpBuilder &b, Location loc, DecodeMethod method,
                   ArrayRef<Value> words, ArrayRef<Value> prepared);

/// a's unit (two i32 words) decoded once for several vectors, in the form
/// buildPreparedUnitDot consumes (dp4a: signed bytes like b's, so a dot is
/// four 4-way products instead of eight).
SmallVector<Value> buildPrepareMatrixUnit(OpBuilder &b, Location loc,
                                          DecodeMethod method,
                                          ArrayRef<Value> words);
/// buildUnitDot of a's unit prepared by buildPrepareMatrixUnit.
Value buildPreparedUnitDot(OpBuilder &b, Location loc, DecodeMethod method,
                           ArrayRef<Value> preparedA,
                           ArrayRef<Value> preparedB);

/// The 16 f32 values of a unit of a 16-bit vector (`element` f16 or bf16;
/// eight i32 words, two values each, the lower half first): the prepared b
/// of DecodeMethod::F32, every value exact.
SmallVector<Value> buildWideVectorUnit(OpBuilder &b, Location loc, Type element,
                                       ArrayRef<Value> words);

/// i32 words buildPrepareVectorUnit makes of one unit (8 bytes) of b under
/// dp4a.
inline constexpr int64_t kPreparedWordsPerUnit = 4;

} // namespace mlir::nvfp4

#endif // NVFP4_LIB_CONVERSION_NVFP4TOGPU_UNITDOT_H
