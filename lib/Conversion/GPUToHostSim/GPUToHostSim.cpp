//===- GPUToHostSim.cpp - NVVM-lowered kernels as host code ---------------===//
//
// For each gpu.module (its kernels already in the LLVM/NVVM dialects): move
// its symbols into the host module under `<prefix><module>__`, place its
// shared-memory globals in the per-CTA buffer of the runtime, rewrite the
// GPU instructions (InstructionPatterns.cpp), drop address spaces, check that
// nothing GPU-specific is left, and give each launched kernel an argument
// trampoline and a C-callable launcher that replaces its gpu.launch_func.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Conversion/GPUToHostSim/GPUToHostSim.h"
#include "nvfp4/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_CONVERTGPUTOHOSTSIM
#include "nvfp4/Conversion/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;

namespace {

/// Grid, block and dynamic shared bytes of a launch, all constants.
struct LaunchShape {
  int64_t grid[3], block[3], dynamicShared = 0;
};

FailureOr<LaunchShape> launchShape(gpu::LaunchFuncOp launch) {
  LaunchShape s;
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  Value dims[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
  for (int i = 0; i < 6; ++i) {
    std::optional<int64_t> v = getConstantIntValue(dims[i]);
    if (!v)
      return launch.emitError("host simulation needs constant grid and "
                              "block sizes");
    (i < 3 ? s.grid[i] : s.block[i - 3]) = *v;
  }
  if (Value dyn = launch.getDynamicSharedMemorySize()) {
    std::optional<int64_t> v = getConstantIntValue(dyn);
    if (!v)
      return launch.emitError("host simulation needs a constant dynamic "
                              "shared memory size");
    s.dynamicShared = *v;
  }
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.hasClusterSize())
    return launch.emitError("host simulation supports synchronous launches "
                            "without clusters only");
  return s;
}

class KernelModuleLowering {
public:
  KernelModuleLowering(ModuleOp host, gpu::GPUModuleOp kernels,
                       StringRef prefix)
      : host(host), kernels(kernels), prefix(prefix.str()),
        symbolPrefix(prefix.str() + kernels.getName().str() + "__") {}

  LogicalResult run(ArrayRef<gpu::LaunchFuncOp> launches) {
    if (failed(moveSymbolsToHost()) || failed(placeSharedMemory()))
      return failure();
    RewritePatternSet patterns(host.getContext());
    nvfp4::populateGPUToHostSimPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    int32_t loadSite = 0;
    for (Operation *op : moved) {
      walkAndApplyPatterns(op, frozen);
      nvfp4::insertAlignmentChecks(op);
      nvfp4::insertLoadTraces(op, loadSite);
    }
    dropAddressSpaces();
    if (failed(checkFullyLowered()))
      return failure();
    for (gpu::LaunchFuncOp launch : launches)
      if (failed(replaceLaunch(launch)))
        return failure();
    return success();
  }

private:
  ModuleOp host;
  gpu::GPUModuleOp kernels;
  std::string prefix, symbolPrefix;
  SmallVector<Operation *> moved;
  llvm::StringMap<LLVM::LLVMFuncOp> launchers; // kernel name -> launcher
  int64_t staticShared = 0;
  llvm::StringMap<DenseI32ArrayAttr> clusterDims; // moved kernel -> its own

  LogicalResult moveSymbolsToHost() {
    SymbolTable hostSymbols(host);
    for (Operation &op : *kernels.getBody()) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        continue;
      if (op.getName().getDialectNamespace() != "llvm")
        return op.emitError("'")
               << op.getName()
               << "' in a kernel module: host simulation needs kernels "
                  "lowered to the LLVM and NVVM dialects";
      auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
      if (func && func.isExternal())
        return func.emitError("kernel calls external function '")
               << func.getName() << "', which has no host simulation";
    }
    for (Operation &op : llvm::make_early_inc_range(*kernels.getBody())) {
      if (auto sym = dyn_cast<SymbolOpInterface>(op)) {
        auto newName =
            StringAttr::get(host.getContext(), symbolPrefix + sym.getName());
        if (failed(SymbolTable::replaceAllSymbolUses(&op, newName, kernels)))
          return op.emitError("cannot rename for host simulation");
        SymbolTable::setSymbolName(&op, newName);
        if (hostSymbols.lookup(newName))
          return op.emitError("host symbol '") << newName << "' exists already";
      } else if (!op.hasTrait<OpTrait::IsTerminator>()) {
        return op.emitError("unexpected op in a kernel module");
      }
    }
    for (Operation &op : llvm::make_early_inc_range(*kernels.getBody())) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        continue;
      op.moveBefore(kernels);
      moved.push_back(&op);
      if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op)) {
        // GPU-only function attributes (nvvm.kernel, nvvm.reqntid, ...);
        // the cluster shape is the launch's to honour.
        if (auto dims = func->getAttrOfType<DenseI32ArrayAttr>(
                NVVM::NVVMDialect::getClusterDimAttrName()))
          clusterDims[func.getName()] = dims;
        for (NamedAttribute attr : llvm::to_vector(func->getDiscardableAttrs()))
          func->removeDiscardableAttr(attr.getName());
        if (!func.isExternal())
          func.setLinkage(LLVM::Linkage::Internal);
      }
    }
    return success();
  }

  /// Shared-memory globals get offsets in the runtime's per-CTA buffer; the
  /// dynamic part follows the static part, and every external zero-sized
  /// array (PTX's `.extern .shared`, the dynamic memory) starts there.
  LogicalResult placeSharedMemory() {
    llvm::StringMap<int64_t> offsets;
    DataLayout layout(host);
    SmallVector<LLVM::GlobalOp> shared, dynamic;
    for (Operation *op : moved) {
      auto global = dyn_cast<LLVM::GlobalOp>(op);
      if (!global || global.getAddrSpace() != 3)
        continue;
      if (global.getValueOrNull() || global.getInitializerBlock())
        return global.emitError("shared-memory global with an initializer");
      shared.push_back(global);
      int64_t size = layout.getTypeSize(global.getGlobalType());
      if (size == 0 && global.getLinkage() == LLVM::Linkage::External) {
        dynamic.push_back(global);
        continue;
      }
      int64_t align = std::max<int64_t>(global.getAlignment().value_or(16), 1);
      staticShared = llvm::alignTo(staticShared, align);
      offsets[global.getSymName()] = staticShared;
      staticShared += size;
    }
    staticShared = llvm::alignTo(staticShared, 16);
    for (LLVM::GlobalOp global : dynamic) {
      if (global.getAlignment().value_or(1) > 16)
        return global.emitError("dynamic shared memory aligned to more than "
                                "16 bytes has no host simulation");
      offsets[global.getSymName()] = staticShared;
    }
    if (shared.empty())
      return success();
    bool ok = true;
    for (Operation *op : moved) {
      op->walk([&](LLVM::AddressOfOp addr) {
        auto it = offsets.find(addr.getGlobalName());
        if (it == offsets.end())
          return;
        OpBuilder b(addr);
        Location loc = addr.getLoc();
        auto ptr = LLVM::LLVMPointerType::get(b.getContext());
        Value base =
            LLVM::CallOp::create(b, loc, ptr, "nvfp4sim_shared", ValueRange{})
                .getResult();
        Value at = LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), base,
                                       ArrayRef<LLVM::GEPArg>{it->second});
        // The type is still ptr<3> here; dropAddressSpaces unifies it.
        Value cast = LLVM::AddrSpaceCastOp::create(b, loc, addr.getType(), at);
        addr.replaceAllUsesWith(cast);
        addr.erase();
      });
    }
    for (LLVM::GlobalOp global : shared) {
      if (!SymbolTable::symbolKnownUseEmpty(global, host)) {
        global.emitError("shared-memory global used other than by address");
        ok = false;
        continue;
      }
      llvm::erase(moved, global.getOperation());
      global.erase();
    }
    return success(ok);
  }

  /// Every pointer becomes a plain host pointer; address-space casts vanish.
  void dropAddressSpaces() {
    AttrTypeReplacer replacer;
    replacer.addReplacement(
        [](LLVM::LLVMPointerType type) -> std::optional<Type> {
          return LLVM::LLVMPointerType::get(type.getContext());
        });
    for (Operation *op : moved) {
      if (auto global = dyn_cast<LLVM::GlobalOp>(op))
        global.setAddrSpace(0);
      replacer.recursivelyReplaceElementsIn(op, /*replaceAttrs=*/true,
                                            /*replaceLocs=*/false,
                                            /*replaceTypes=*/true);
      op->walk([](LLVM::AddrSpaceCastOp cast) {
        cast.replaceAllUsesWith(cast.getArg());
        cast.erase();
      });
    }
  }

  /// Whatever has no pattern is an error at its location.
  LogicalResult checkFullyLowered() {
    bool ok = true;
    for (Operation *top : moved) {
      top->walk([&](Operation *op) {
        StringRef dialect = op->getName().getDialectNamespace();
        if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op)) {
          op->emitError("inline assembly '")
              << asmOp.getAsmString() << "' has no host simulation";
          ok = false;
        } else if (auto intr = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
          if (intr.getIntrin().starts_with("llvm.nvvm.")) {
            op->emitError("intrinsic '")
                << intr.getIntrin() << "' has no host simulation";
            ok = false;
          }
        } else if (dialect != "llvm") {
          op->emitError("'") << op->getName()
                             << "' has no host simulation (see "
                                "lib/Conversion/GPUToHostSim)";
          ok = false;
        }
      });
    }
    return success(ok);
  }

  /// `<prefix><kernel>(args...)` runs the grid of `launch` through the
  /// runtime; the trampoline unpacks the argument block for each thread.
  FailureOr<LLVM::LLVMFuncOp> launcherFor(gpu::LaunchFuncOp launch,
                                          const LaunchShape &shape) {
    StringRef kernelName = launch.getKernelName().getValue();
    auto kernel =
        host.lookupSymbol<LLVM::LLVMFuncOp>(symbolPrefix + kernelName.str());
    if (!kernel || kernel.isExternal())
      return launch.emitError("kernel '") << kernelName << "' not found";
    auto found = launchers.find(kernelName);
    if (found != launchers.end()) {
      auto known =
          found->second->getAttrOfType<DenseI64ArrayAttr>("nvfp4sim.launch");
      SmallVector<int64_t> dims(shape.grid, shape.grid + 3);
      dims.append(shape.block, shape.block + 3);
      dims.push_back(shape.dynamicShared);
      if (known.asArrayRef() != ArrayRef<int64_t>(dims))
        return launch.emitError("kernel '")
               << kernelName << "' is launched with two different shapes";
      return found->second;
    }

    // A kernel's CTAs form clusters where it says so (.reqnctapercluster):
    // the runtime then runs each cluster's CTAs together.
    int64_t clusterX = 1;
    if (DenseI32ArrayAttr dims = clusterDims.lookup(kernel.getName())) {
      ArrayRef<int32_t> d = dims.asArrayRef();
      if (d.size() != 3 || d[1] != 1 || d[2] != 1 || d[0] < 1 ||
          shape.grid[0] % d[0] != 0)
        return launch.emitError("host simulation runs clusters along x "
                                "that divide the grid only");
      clusterX = d[0];
    }

    MLIRContext *ctx = host.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    ArrayRef<Type> argTypes = kernel.getFunctionType().getParams();
    auto argsStruct = LLVM::LLVMStructType::getLiteral(ctx, argTypes);
    Location loc = launch.getLoc();
    OpBuilder b(ctx);
    b.setInsertionPointAfter(kernel);

    auto entry = LLVM::LLVMFuncOp::create(
        b, loc, kernel.getName().str() + "__entry",
        LLVM::LLVMFunctionType::get(voidType, {ptrType}),
        LLVM::Linkage::Internal);
    {
      OpBuilder::InsertionGuard guard(b);
      Block *body = entry.addEntryBlock(b);
      b.setInsertionPointToStart(body);
      SmallVector<Value> args;
      for (auto [i, type] : llvm::enumerate(argTypes)) {
        Value field = LLVM::GEPOp::create(
            b, loc, ptrType, argsStruct, body->getArgument(0),
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
        args.push_back(LLVM::LoadOp::create(b, loc, type, field));
      }
      LLVM::CallOp::create(b, loc, kernel, args);
      LLVM::ReturnOp::create(b, loc, ValueRange{});
    }

    auto launcher = LLVM::LLVMFuncOp::create(
        b, loc, prefix + kernelName.str(),
        LLVM::LLVMFunctionType::get(voidType, argTypes));
    SmallVector<int64_t> dims(shape.grid, shape.grid + 3);
    dims.append(shape.block, shape.block + 3);
    dims.push_back(shape.dynamicShared);
    launcher->setAttr("nvfp4sim.launch", b.getDenseI64ArrayAttr(dims));
    {
      OpBuilder::InsertionGuard guard(b);
      Block *body = launcher.addEntryBlock(b);
      b.setInsertionPointToStart(body);
      Value one = LLVM::ConstantOp::create(b, loc, b.getI64Type(), 1);
      Value block = LLVM::AllocaOp::create(b, loc, ptrType, argsStruct, one);
      for (auto [i, arg] : llvm::enumerate(body->getArguments())) {
        Value field = LLVM::GEPOp::create(
            b, loc, ptrType, argsStruct, block,
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
        LLVM::StoreOp::create(b, loc, arg, field);
      }
      Value entryPtr = LLVM::AddressOfOp::create(b, loc, entry);
      SmallVector<Value> callArgs = {entryPtr, block};
      for (int64_t d : ArrayRef<int64_t>(dims).take_front(6))
        callArgs.push_back(LLVM::ConstantOp::create(b, loc, b.getI32Type(), d));
      callArgs.push_back(LLVM::ConstantOp::create(
          b, loc, b.getI64Type(), staticShared + shape.dynamicShared));
      StringRef launchFn = "nvfp4sim_launch";
      if (clusterX > 1) {
        launchFn = "nvfp4sim_launch_cluster";
        callArgs.push_back(
            LLVM::ConstantOp::create(b, loc, b.getI32Type(), clusterX));
      }
      LLVM::CallOp::create(b, loc, TypeRange{}, launchFn, callArgs);
      LLVM::ReturnOp::create(b, loc, ValueRange{});
    }
    launchers[kernelName] = launcher;
    return launcher;
  }

  /// The gpu.launch_func becomes a call of the launcher with the memrefs'
  /// aligned pointers (the bare-pointer convention of the kernels).
  LogicalResult replaceLaunch(gpu::LaunchFuncOp launch) {
    FailureOr<LaunchShape> shape = launchShape(launch);
    if (failed(shape))
      return failure();
    FailureOr<LLVM::LLVMFuncOp> launcher = launcherFor(launch, *shape);
    if (failed(launcher))
      return failure();
    OpBuilder b(launch);
    Location loc = launch.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    ArrayRef<Type> params = launcher->getFunctionType().getParams();
    if (params.size() != launch.getKernelOperands().size())
      return launch.emitError("launch and kernel disagree on the arguments");
    SmallVector<Value> args;
    for (auto [operand, param] :
         llvm::zip_equal(launch.getKernelOperands(), params)) {
      Value v = operand;
      if (isa<MemRefType>(v.getType())) {
        Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, v);
        Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
        v = LLVM::IntToPtrOp::create(b, loc, ptrType, i64);
      }
      if (v.getType() != param)
        return launch.emitError("kernel argument of type ")
               << operand.getType() << " is passed as " << param
               << " by the kernel";
      args.push_back(v);
    }
    LLVM::CallOp::create(b, loc, *launcher, args);
    launch.erase();
    return success();
  }
};

struct ConvertGPUToHostSimPass
    : public nvfp4::impl::ConvertGPUToHostSimBase<ConvertGPUToHostSimPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp host = getOperation();
    SmallVector<gpu::GPUModuleOp> kernelModules(
        host.getOps<gpu::GPUModuleOp>());
    if (kernelModules.empty())
      return;
    nvfp4::declareHostSimRuntime(host);
    declareLaunch(host);
    llvm::StringMap<SmallVector<gpu::LaunchFuncOp>> launches;
    host.walk([&](gpu::LaunchFuncOp launch) {
      launches[launch.getKernelModuleName().getValue()].push_back(launch);
    });
    for (gpu::GPUModuleOp kernels : kernelModules) {
      KernelModuleLowering lowering(host, kernels, prefix);
      if (failed(lowering.run(launches.lookup(kernels.getName()))))
        return signalPassFailure();
      kernels.erase();
    }
    host->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }

  /// nvfp4sim_launch and nvfp4sim_launch_cluster (HostSimABI.h).
  static void declareLaunch(ModuleOp host) {
    MLIRContext *ctx = host.getContext();
    OpBuilder b = OpBuilder::atBlockBegin(host.getBody());
    Type i32 = b.getI32Type(), ptr = LLVM::LLVMPointerType::get(ctx);
    SmallVector<Type> params = {ptr, ptr, i32, i32,           i32,
                                i32, i32, i32, b.getI64Type()};
    for (StringRef name : {"nvfp4sim_launch", "nvfp4sim_launch_cluster"}) {
      if (!host.lookupSymbol(name))
        LLVM::LLVMFuncOp::create(
            b, host.getLoc(), name,
            LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params));
      params.push_back(i32);
    }
  }
};

} // namespace
