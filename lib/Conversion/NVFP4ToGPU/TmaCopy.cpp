//===- TmaCopy.cpp - a's tensor map and boxes (tma) -----------------------===//

#include "TmaCopy.h"

#include "nvfp4/Support/ManifestSchema.h"

using namespace mlir;
using namespace mlir::nvfp4;
namespace schema = ::nvfp4::manifest;

namespace {

/// The map's choices, once: written into the nvgpu descriptor type and, in
/// the schema's spelling, into the manifest. 8-byte elements (two per
/// 16-byte chunk) keep a box row of up to 32 lanes within the 256 elements
/// of a box dimension; no swizzle, whole 256-byte L2 lines, zeros past the
/// tensor.
constexpr schema::MapDataType kDataType = schema::MapDataType::UInt64;
constexpr schema::MapSwizzle kSwizzle = schema::MapSwizzle::None;
constexpr schema::MapL2Promotion kL2Promotion = schema::MapL2Promotion::B256;
constexpr schema::MapOobFill kOobFill = schema::MapOobFill::Zero;

/// Bytes of one element of the map.
int64_t elementBytes() { return schema::elementBytes(kDataType); }

/// 8-byte elements of one step of a row: a box place's row.
int64_t stepElements(const KernelConfig &cfg) {
  return cfg.lanesPerRow * cfg.bytesPerLoad / elementBytes();
}

/// Box sizes, innermost first: chunks of a row, rows, one batch. A box
/// may not exceed the tensor: with fewer rows than a block there is one row
/// block, whose rows past M nobody stores; with fewer chunks than a step
/// there is no whole step, and no copy.
SmallVector<int64_t> boxSizes(GemvOp op, const KernelConfig &cfg) {
  MemRefType a = op.getA().getType();
  return {std::min(stepElements(cfg), a.getDimSize(2) / elementBytes()),
          std::min(cfg.rowsPerBlock, a.getDimSize(1)), 1};
}

} // namespace

int64_t mlir::nvfp4::tmaElementBytes() { return elementBytes(); }

int64_t mlir::nvfp4::tmaBarrierCount(const KernelConfig &cfg) {
  return 2 * cfg.asyncCopyStages;
}

SmallVector<int64_t> mlir::nvfp4::tmaStageShape(const KernelConfig &cfg) {
  return {cfg.asyncCopyStages * cfg.splitK, cfg.rowsPerBlock,
          stepElements(cfg)};
}

SmallVector<int64_t> mlir::nvfp4::tmaBoxShape(GemvOp op,
                                              const KernelConfig &cfg) {
  SmallVector<int64_t> box = boxSizes(op, cfg);
  return {box[2], box[1], box[0]};
}

::nvfp4::tensormap::TiledMap mlir::nvfp4::tmaMap(GemvOp op,
                                                 const KernelConfig &cfg) {
  MemRefType a = op.getA().getType();
  int64_t rowBytes = a.getDimSize(2), rows = a.getDimSize(1);
  ::nvfp4::tensormap::TiledMap map;
  map.param = schema::Param::ATensorMap;
  map.tensor = schema::Param::A;
  map.dataType = kDataType;
  map.dims = {rowBytes / elementBytes(), rows, a.getDimSize(0)};
  map.strides = {rowBytes, rows * rowBytes};
  SmallVector<int64_t> box = boxSizes(op, cfg);
  map.box.assign(box.begin(), box.end());
  map.swizzle = kSwizzle;
  map.l2Promotion = kL2Promotion;
  map.oobFill = kOobFill;
  return map;
}
