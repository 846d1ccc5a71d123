//===- ConvertScaleLayoutKernel.cpp - scale layout conversion kernel ------===//
//
// One thread per destination word: thread i of batch l writes bytes 4 i to
// 4 i + 3 of that batch of `dest`, so a warp's stores are 128 consecutive
// bytes. A word holds scales (row, col .. col + 3) of one row with col a
// multiple of 4 in either layout, so with a multiple of 4 columns it is one
// aligned word of the source too; other matrices take a thread a byte. The
// thread finds the scale (row, col) its first byte holds, reads the piece
// from `source` at buildScaleIndices(from, row, col) and stores it; a piece
// of a blocked destination whose (row, col) lies outside the matrix is
// padding and gets zero, so no separate fill is needed. The reads gather (a
// conversion is a permutation), which costs little: scales are 1/8 of the
// matrix bytes.
//
//===----------------------------------------------------------------------===//

#include "ConvertScaleLayoutKernel.h"

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/Common/GemvOutlining.h"
#include "nvfp4/Conversion/Common/IndexValue.h"
#include "nvfp4/Support/ScaleLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;
namespace lay = ::nvfp4::layout;

std::pair<int64_t, int64_t>
mlir::nvfp4::convertMatrixSize(ConvertScaleLayoutOp op) {
  MemRefType src = op.getSource().getType(), dst = op.getDest().getType();
  if (op.getFrom() == ScaleLayout::Linear)
    return {src.getDimSize(1), src.getDimSize(2)};
  if (op.getTo() == ScaleLayout::Linear)
    return {dst.getDimSize(1), dst.getDimSize(2)};
  return {src.getDimSize(1) * lay::kAtomRows,
          src.getDimSize(2) * lay::kAtomCols};
}

int64_t mlir::nvfp4::convertBytesPerThread(ConvertScaleLayoutOp op) {
  return lay::conversionBytesPerThread(convertMatrixSize(op).second);
}

FailureOr<ConvertLaunch>
mlir::nvfp4::resolveConvertLaunch(ConvertScaleLayoutOp op) {
  for (Value v : {op.getSource(), op.getDest()}) {
    auto t = cast<MemRefType>(v.getType());
    if (!t.hasStaticShape() || !t.getLayout().isIdentity())
      return op.emitOpError("needs static, identity-layout memrefs for the "
                            "GPU lowering");
  }
  MemRefType dst = op.getDest().getType();
  int64_t batchBytes = dst.getNumElements() / dst.getDimSize(0);
  ConvertLaunch launch;
  launch.gridX =
      lay::ceilDiv(batchBytes / convertBytesPerThread(op), kConvertThreads);
  launch.gridY = dst.getDimSize(0);
  if (failed(checkGridSize(op, launch.gridX, launch.gridY)))
    return failure();
  return launch;
}

void mlir::nvfp4::buildConvertScaleLayoutKernelBody(OpBuilder &b,
                                                    gpu::GPUFuncOp kernel,
                                                    ConvertScaleLayoutOp op) {
  Block &entry = kernel.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&entry);
  Location loc = op.getLoc();
  Value src = entry.getArgument(0), dst = entry.getArgument(1);
  MemRefType dstType = op.getDest().getType();
  auto [rows, cols] = convertMatrixSize(op);
  int64_t batchBytes = dstType.getNumElements() / dstType.getDimSize(0);
  int64_t width = convertBytesPerThread(op);

  IV tid(b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  IV cta(b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  Value batch = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  // First byte of this batch of dest the thread writes.
  IV byte = (cta * kConvertThreads + tid) * width;

  // The last CTA of a batch runs past the end unless the batch is a whole
  // number of CTAs (a blocked destination always is a byte a thread, and a
  // word a thread when it has an even number of 512-byte atoms).
  if (batchBytes % (kConvertThreads * width) != 0) {
    auto inBounds = scf::IfOp::create(b, loc, vult(byte, batchBytes), false);
    b.setInsertionPointToStart(inBounds.thenBlock());
  }

  SmallVector<Value> dstIndices;
  Value bytes;
  if (op.getTo() == ScaleLayout::Linear) {
    // dest[batch, row, col], read from wherever `from` keeps it.
    Value row = byte / cols, col = byte % cols;
    dstIndices = {batch, row, col};
    bytes = buildLoadScaleBytes(b, loc, src,
                                buildScaleIndices(b, loc, op.getFrom(),
                                                  /*isVector=*/false, batch,
                                                  row, col),
                                width);
  } else {
    // dest[batch, rowBlock, colBlock, inAtom], read from its (row, col).
    int64_t colBlocks = dstType.getDimSize(2);
    IV inAtom = byte % lay::kAtomBytes;
    IV atom = byte / lay::kAtomBytes;
    IV rowBlock = atom / colBlocks, colBlock = atom % colBlocks;
    dstIndices = {batch, rowBlock, colBlock, inAtom};
    if (op.getFrom() == ScaleLayout::Blocked128x4) {
      // Same layout: a copy, padding included.
      bytes = buildLoadScaleBytes(b, loc, src, dstIndices, width);
    } else {
      lay::RowCol<IV> rc = lay::blockedRowCol(rowBlock, colBlock, inAtom);
      // Padding reads an in-bounds piece (no branch) and stores zero.
      Value inside =
          arith::AndIOp::create(b, loc, vult(rc.row, rows), vult(rc.col, cols));
      Value scales = buildLoadScaleBytes(
          b, loc, src,
          buildScaleIndices(b, loc, ScaleLayout::Linear, /*isVector=*/false,
                            batch, vminu(rc.row, rows - 1),
                            vminu(rc.col, cols - width)),
          width);
      auto type = VectorType::get({width}, b.getI8Type());
      Value zero = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(type, b.getI8IntegerAttr(0)));
      bytes = arith::SelectOp::create(b, loc, inside, scales, zero);
    }
  }
  buildStoreScaleBytes(b, loc, bytes, dst, dstIndices, width);
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
}
