//===- TensorMapIR.cpp - Tensor maps as kernel parameters -----------------===//

#include "nvfp4/Conversion/Common/TensorMapIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::nvfp4;
using ::nvfp4::tensormap::TiledMap;
namespace schema = ::nvfp4::manifest;

namespace {

/// The schema's spelling of `value` of the enumerated entry key `key`.
template <typename Enum>
StringAttr spelling(OpBuilder &b, const char *key, Enum value) {
  return b.getStringAttr(schema::spellings(key)[static_cast<size_t>(value)]);
}

} // namespace

MemRefType mlir::nvfp4::tensorMapBoxType(MLIRContext *ctx,
                                         const TiledMap &map) {
  auto workgroup = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  SmallVector<int64_t> shape(map.box.rbegin(), map.box.rend());
  return MemRefType::get(shape, IntegerType::get(ctx, 8 * map.elementBytes()),
                         MemRefLayoutAttrInterface(), workgroup);
}

nvgpu::TensorMapDescriptorType
mlir::nvfp4::tensorMapDescriptorType(MLIRContext *ctx, const TiledMap &map) {
  // nvgpu numbers its kinds in the schema's (and the driver's) order.
  return nvgpu::TensorMapDescriptorType::get(
      ctx, tensorMapBoxType(ctx, map),
      nvgpu::TensorMapSwizzleKind(static_cast<uint32_t>(map.swizzle)),
      nvgpu::TensorMapL2PromoKind(static_cast<uint32_t>(map.l2Promotion)),
      nvgpu::TensorMapOOBKind(static_cast<uint32_t>(map.oobFill)),
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

Value mlir::nvfp4::tensorMapOperand(OpBuilder &b, Location loc, Value address,
                                    const TiledMap &map) {
  Value pointer = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
  return UnrealizedConversionCastOp::create(
             b, loc, tensorMapDescriptorType(b.getContext(), map), pointer)
      .getResult(0);
}

FailureOr<SmallVector<Value>>
mlir::nvfp4::addTensorMapParams(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                                Operation *launchPoint,
                                ArrayRef<TiledMap> maps) {
  SmallVector<Value> hostValues;
  // The host cannot encode a map (that takes the CUDA driver): the runtime
  // that launches the kernel encodes it from the manifest's `tensor_maps`.
  for (size_t i = 0; i < maps.size(); ++i) {
    if (failed(kernel.insertArgument(kernel.getNumArguments(),
                                     rewriter.getI64Type(), DictionaryAttr(),
                                     launchPoint->getLoc())))
      return failure();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(launchPoint);
    hostValues.push_back(arith::ConstantIntOp::create(
        rewriter, launchPoint->getLoc(), rewriter.getI64Type(), 0));
  }
  return hostValues;
}

DictionaryAttr mlir::nvfp4::tensorMapManifestEntry(OpBuilder &b,
                                                   const TiledMap &map) {
  namespace k = schema::map_key;
  NamedAttrList entry;
  entry.append(k::Param, b.getStringAttr(schema::name(map.param)));
  entry.append(k::Tensor, b.getStringAttr(schema::name(map.tensor)));
  entry.append(k::DataType, spelling(b, k::DataType, map.dataType));
  entry.append(k::Dims, b.getI64ArrayAttr(map.dims));
  entry.append(k::Strides, b.getI64ArrayAttr(map.strides));
  entry.append(k::Box, b.getI64ArrayAttr(map.box));
  entry.append(k::ElementStrides,
               b.getI64ArrayAttr(SmallVector<int64_t>(map.box.size(), 1)));
  entry.append(k::Swizzle, spelling(b, k::Swizzle, map.swizzle));
  entry.append(k::L2Promotion, spelling(b, k::L2Promotion, map.l2Promotion));
  entry.append(k::OobFill, spelling(b, k::OobFill, map.oobFill));
  return entry.getDictionary(b.getContext());
}

void mlir::nvfp4::appendTensorMapsToLaunch(OpBuilder &b, NamedAttrList &launch,
                                           ArrayRef<TiledMap> maps) {
  if (maps.empty())
    return;
  namespace key = schema::key;
  SmallVector<Attribute> params(
      cast<ArrayAttr>(launch.get(key::Params)).getValue());
  SmallVector<Attribute> entries;
  for (const TiledMap &map : maps) {
    params.push_back(b.getStringAttr(schema::name(map.param)));
    entries.push_back(tensorMapManifestEntry(b, map));
  }
  launch.set(key::Params, b.getArrayAttr(params));
  launch.append(key::TensorMaps, b.getArrayAttr(entries));
}
