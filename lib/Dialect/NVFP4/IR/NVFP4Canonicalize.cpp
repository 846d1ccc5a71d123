//===- NVFP4Canonicalize.cpp - folding scale-layout conversions -----------===//
//
// A conversion to the layout the scales already have is a copy, and a
// linear -> blocked -> linear round trip is a copy of the original. The
// blocked -> linear -> blocked round trip is not folded: the second conversion
// zeroes the padding bytes, which the original blocked tensor may not have.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// True when no operation strictly between `first` and `second` (same block)
/// may write to memory: then `second` still sees what `first` saw and wrote.
bool noWritesBetween(Operation *first, Operation *second) {
  if (first->getBlock() != second->getBlock() ||
      !first->isBeforeInBlock(second))
    return false;
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
          op->getNumRegions() != 0 || !isPure(op))
        return false;
      continue;
    }
    if (effects.hasEffect<MemoryEffects::Write>() ||
        effects.hasEffect<MemoryEffects::Free>())
      return false;
  }
  return true;
}

struct FoldSameLayoutConversion
    : public OpRewritePattern<ConvertScaleLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertScaleLayoutOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getFrom() != op.getTo())
      return rewriter.notifyMatchFailure(op, "layouts differ");
    if (op.getSource() == op.getDest()) {
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.replaceOpWithNewOp<memref::CopyOp>(op, op.getSource(),
                                                op.getDest());
    return success();
  }
};

struct FoldLinearRoundTrip : public OpRewritePattern<ConvertScaleLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertScaleLayoutOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getFrom() != ScaleLayout::Blocked128x4 ||
        op.getTo() != ScaleLayout::Linear)
      return rewriter.notifyMatchFailure(op, "not blocked -> linear");
    auto producer = dyn_cast_or_null<ConvertScaleLayoutOp>(findProducer(op));
    if (!producer)
      return rewriter.notifyMatchFailure(op, "no linear -> blocked producer");
    Value original = producer.getSource();
    if (cast<MemRefType>(original.getType()).getShape() !=
        op.getDest().getType().getShape())
      return rewriter.notifyMatchFailure(op, "shapes differ");
    if (original == op.getDest())
      rewriter.eraseOp(op);
    else
      rewriter.replaceOpWithNewOp<memref::CopyOp>(op, original, op.getDest());
    return success();
  }

private:
  /// The linear -> blocked conversion that last wrote `op`'s source in the
  /// same block, if nothing wrote memory since.
  static Operation *findProducer(ConvertScaleLayoutOp op) {
    for (Operation *prev = op->getPrevNode(); prev;
         prev = prev->getPrevNode()) {
      auto conv = dyn_cast<ConvertScaleLayoutOp>(prev);
      if (conv && conv.getDest() == op.getSource() &&
          conv.getFrom() == ScaleLayout::Linear &&
          conv.getTo() == ScaleLayout::Blocked128x4)
        return noWritesBetween(conv, op) ? conv.getOperation() : nullptr;
    }
    return nullptr;
  }
};

} // namespace

void ConvertScaleLayoutOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<FoldSameLayoutConversion, FoldLinearRoundTrip>(context);
}
