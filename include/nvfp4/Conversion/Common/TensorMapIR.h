//===- TensorMapIR.h - Tensor maps as kernel parameters ---------*- C++ -*-===//
//
// What every lowering that reads an operand with the tensor memory
// accelerator does alike: it takes the map's address as an i64 kernel
// parameter (the host passes 0; the runtime encodes the map from the
// manifest), views it as the `!nvgpu.tensormap.descriptor` of the map, and
// describes the map in the launch dictionary, spelled through the manifest
// schema. The map itself (TiledMap, nvfp4/Support/TensorMap.h) is each
// lowering's own choice.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_CONVERSION_COMMON_TENSORMAPIR_H
#define NVFP4_CONVERSION_COMMON_TENSORMAPIR_H

#include "nvfp4/Support/TensorMap.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::nvfp4 {

/// Suspend-time hint (ns) of one mbarrier try_wait before a waiting loop
/// tries again, for every mbarrier wait of the kernels that copy through
/// tensor maps: 10 ms, as in public sm_90/sm_100 kernels.
inline constexpr int64_t kTryWaitTicks = 10000000;

/// The shared-memory box one copy through `map` writes: the box, outermost
/// first, of unsigned integers of the map's element width, in workgroup
/// memory.
MemRefType tensorMapBoxType(MLIRContext *ctx,
                            const ::nvfp4::tensormap::TiledMap &map);

/// The nvgpu descriptor type of `map` (its tensor: tensorMapBoxType).
nvgpu::TensorMapDescriptorType
tensorMapDescriptorType(MLIRContext *ctx,
                        const ::nvfp4::tensormap::TiledMap &map);

/// `address` (the i64 kernel parameter) as the descriptor of `map`: the
/// nvgpu ops take a descriptor, which convert-nvgpu-to-nvvm turns back into
/// the generic pointer.
Value tensorMapOperand(OpBuilder &b, Location loc, Value address,
                       const ::nvfp4::tensormap::TiledMap &map);

/// Appends one i64 parameter per map to `kernel` and returns, built before
/// `launchPoint`, the host's value of each (0: the runtime fills them in).
FailureOr<SmallVector<Value>>
addTensorMapParams(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                   Operation *launchPoint,
                   ArrayRef<::nvfp4::tensormap::TiledMap> maps);

/// The manifest's entry (key::TensorMaps) describing `map`.
DictionaryAttr tensorMapManifestEntry(OpBuilder &b,
                                      const ::nvfp4::tensormap::TiledMap &map);

/// Lists the maps' parameters after the others in `launch`'s params and
/// adds their entries under key::TensorMaps (nothing when `maps` is empty).
void appendTensorMapsToLaunch(OpBuilder &b, NamedAttrList &launch,
                              ArrayRef<::nvfp4::tensormap::TiledMap> maps);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_COMMON_TENSORMAPIR_H
