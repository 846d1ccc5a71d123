//===- TmaCopy.cpp - a's tensor map and boxes (tma) -----------------------===//

#include "TmaCopy.h"

#include "nvfp4/Support/ManifestSchema.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

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

/// The schema's spelling of `value` of the enumerated entry key `key`.
template <typename Enum>
StringAttr spelling(OpBuilder &b, const char *key, Enum value) {
  return b.getStringAttr(schema::spellings(key)[static_cast<size_t>(value)]);
}

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

StringRef mlir::nvfp4::tmaParamName() {
  return schema::name(schema::Param::ATensorMap);
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

nvgpu::TensorMapDescriptorType
mlir::nvfp4::tmaDescriptorType(MLIRContext *ctx, GemvOp op,
                               const KernelConfig &cfg) {
  auto workgroup = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  auto tile = MemRefType::get(tmaBoxShape(op, cfg),
                              IntegerType::get(ctx, 8 * elementBytes()),
                              MemRefLayoutAttrInterface(), workgroup);
  // nvgpu numbers its kinds in the schema's (and the driver's) order.
  return nvgpu::TensorMapDescriptorType::get(
      ctx, tile, nvgpu::TensorMapSwizzleKind(static_cast<uint32_t>(kSwizzle)),
      nvgpu::TensorMapL2PromoKind(static_cast<uint32_t>(kL2Promotion)),
      nvgpu::TensorMapOOBKind(static_cast<uint32_t>(kOobFill)),
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

DictionaryAttr mlir::nvfp4::tmaManifestEntry(OpBuilder &b, GemvOp op,
                                             const KernelConfig &cfg) {
  MemRefType a = op.getA().getType();
  int64_t rowBytes = a.getDimSize(2), rows = a.getDimSize(1);
  SmallVector<int64_t> box = boxSizes(op, cfg);
  namespace k = schema::map_key;
  NamedAttrList entry;
  entry.append(k::Param, b.getStringAttr(tmaParamName()));
  entry.append(k::Tensor, b.getStringAttr(schema::name(schema::Param::A)));
  entry.append(k::DataType, spelling(b, k::DataType, kDataType));
  entry.append(k::Dims, b.getI64ArrayAttr({rowBytes / elementBytes(), rows,
                                           a.getDimSize(0)}));
  entry.append(k::Strides, b.getI64ArrayAttr({rowBytes, rows * rowBytes}));
  entry.append(k::Box, b.getI64ArrayAttr(box));
  entry.append(k::ElementStrides, b.getI64ArrayAttr({1, 1, 1}));
  entry.append(k::Swizzle, spelling(b, k::Swizzle, kSwizzle));
  entry.append(k::L2Promotion, spelling(b, k::L2Promotion, kL2Promotion));
  entry.append(k::OobFill, spelling(b, k::OobFill, kOobFill));
  return entry.getDictionary(b.getContext());
}
