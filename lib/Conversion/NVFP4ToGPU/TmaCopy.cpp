//===- TmaCopy.cpp - a's tensor map and boxes (tma) -----------------------===//

#include "TmaCopy.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// Bytes of one element of the map: two 16-byte chunks' halves, so that a
/// box row of lanes-per-row chunks stays within the 256 elements of a box.
constexpr int64_t kElementBytes = 8;

/// 8-byte elements of one step of a row: a box place's row.
int64_t stepElements(const KernelConfig &cfg) {
  return cfg.lanesPerRow * cfg.bytesPerLoad / kElementBytes;
}

/// Box sizes, innermost first: chunks of a row, rows, one batch. A box
/// may not exceed the tensor: with fewer rows than a block there is one row
/// block, whose rows past M nobody stores; with fewer chunks than a step
/// there is no whole step, and no copy.
SmallVector<int64_t> boxSizes(GemvOp op, const KernelConfig &cfg) {
  MemRefType a = op.getA().getType();
  return {std::min(stepElements(cfg), a.getDimSize(2) / kElementBytes),
          std::min(cfg.rowsPerBlock, a.getDimSize(1)), 1};
}

} // namespace

SmallVector<int64_t> mlir::nvfp4::tmaStageShape(const KernelConfig &cfg) {
  return {cfg.asyncCopyStages * cfg.splitK, cfg.rowsPerBlock,
          stepElements(cfg)};
}

SmallVector<int64_t> mlir::nvfp4::tmaBoxShape(GemvOp op,
                                              const KernelConfig &cfg) {
  SmallVector<int64_t> box = boxSizes(op, cfg);
  return {box[2], box[1], box[0]};
}

nvgpu::TensorMapDescriptorType
mlir::nvfp4::tmaDescriptorType(MLIRContext *ctx, GemvOp op,
                               const KernelConfig &cfg) {
  auto workgroup = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  auto tile = MemRefType::get(tmaBoxShape(op, cfg), IntegerType::get(ctx, 64),
                              MemRefLayoutAttrInterface(), workgroup);
  return nvgpu::TensorMapDescriptorType::get(
      ctx, tile, nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE,
      nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

DictionaryAttr mlir::nvfp4::tmaManifestEntry(OpBuilder &b, GemvOp op,
                                             const KernelConfig &cfg) {
  MemRefType a = op.getA().getType();
  int64_t rowBytes = a.getDimSize(2), rows = a.getDimSize(1);
  SmallVector<int64_t> box = boxSizes(op, cfg);
  // The same choices as tmaDescriptorType, in the manifest's spelling.
  NamedAttrList entry;
  entry.append("param", b.getStringAttr(kTmaParamName));
  entry.append("tensor", b.getStringAttr("a"));
  entry.append("data_type", b.getStringAttr("uint64"));
  entry.append("dims", b.getI64ArrayAttr(
                           {rowBytes / kElementBytes, rows, a.getDimSize(0)}));
  entry.append("strides", b.getI64ArrayAttr({rowBytes, rows * rowBytes}));
  entry.append("box", b.getI64ArrayAttr(box));
  entry.append("element_strides", b.getI64ArrayAttr({1, 1, 1}));
  entry.append("swizzle", b.getStringAttr("none"));
  entry.append("l2_promotion", b.getStringAttr("256b"));
  entry.append("oob_fill", b.getStringAttr("zero"));
  return entry.getDictionary(b.getContext());
}
