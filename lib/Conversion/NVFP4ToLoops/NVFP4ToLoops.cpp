//===- NVFP4ToLoops.cpp - the convert-nvfp4-to-loops pass -----------------===//

#include "nvfp4/Conversion/Common/Codec.h"
#include "nvfp4/Conversion/NVFP4ToLoops/LoopsCommon.h"
#include "nvfp4/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_CONVERTNVFP4TOLOOPS
#include "nvfp4/Conversion/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

void mlir::nvfp4::buildLoopNest(
    OpBuilder &b, Location loc, ValueRange upperBounds,
    function_ref<void(OpBuilder &, ValueRange)> body) {
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lbs(upperBounds.size(), c0), steps(upperBounds.size(), c1);
  scf::buildLoopNest(
      b, loc, lbs, upperBounds, steps,
      [&](OpBuilder &b, Location, ValueRange iv) { body(b, iv); });
}

SmallVector<Value> mlir::nvfp4::buildDims(OpBuilder &b, Location loc,
                                          Value memref) {
  SmallVector<Value> dims;
  int64_t rank = cast<MemRefType>(memref.getType()).getRank();
  for (int64_t i = 0; i < rank; ++i)
    dims.push_back(memref::DimOp::create(b, loc, memref, i));
  return dims;
}

void mlir::nvfp4::populateNVFP4ToLoopsPatterns(RewritePatternSet &patterns) {
  populateGemvToLoopsPatterns(patterns);
  populateQuantizeToLoopsPatterns(patterns);
}

namespace {
struct ConvertNVFP4ToLoopsPass
    : public mlir::nvfp4::impl::ConvertNVFP4ToLoopsBase<
          ConvertNVFP4ToLoopsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateNVFP4ToLoopsPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    WalkResult left = getOperation()->walk([](Operation *op) {
      if (isa<NVFP4Dialect>(op->getDialect())) {
        op->emitOpError("could not be lowered to loops");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
