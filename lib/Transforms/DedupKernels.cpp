//===- DedupKernels.cpp - merge identical GPU kernel modules --------------===//
//
// Two gpu.modules are the same kernel when they print identically once the
// module and every symbol it defines are renamed in order of appearance.
// The first of each group stays; launches of the others are pointed at it.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Transforms/Passes.h"

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_NVFP4DEDUPKERNELS
#include "nvfp4/Transforms/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;

namespace {

/// The text of `module` with its own name and the names of the symbols it
/// defines replaced by their position.
std::string fingerprint(gpu::GPUModuleOp module) {
  OwningOpRef<gpu::GPUModuleOp> copy = module.clone();
  MLIRContext *ctx = module.getContext();
  copy->setSymName("m");
  unsigned index = 0;
  for (Operation &op : copy->getBody()->getOperations()) {
    auto name = op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!name)
      continue;
    auto renamed = StringAttr::get(ctx, "s" + std::to_string(index++));
    if (failed(SymbolTable::replaceAllSymbolUses(name, renamed, *copy)))
      return ""; // Not comparable: never merged.
    SymbolTable::setSymbolName(&op, renamed);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(os, OpPrintingFlags().printGenericOpForm());
  return text;
}

/// The nvfp4.launch dictionary of `launch` without its kernel name.
std::string launchInfo(gpu::LaunchFuncOp launch) {
  auto info =
      launch->getAttrOfType<DictionaryAttr>(mlir::nvfp4::kLaunchAttrName);
  if (!info)
    return "";
  NamedAttrList entries(info);
  entries.erase("kernel");
  std::string text;
  llvm::raw_string_ostream os(text);
  os << entries.getDictionary(launch.getContext());
  return text;
}

struct NVFP4DedupKernelsPass
    : public mlir::nvfp4::impl::NVFP4DedupKernelsBase<NVFP4DedupKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The launches of every kernel module; a module with any other use is
    // not merged.
    llvm::DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>> launches;
    llvm::DenseSet<Operation *> otherUses;
    auto uses = SymbolTable::getSymbolUses(&module.getBodyRegion());
    if (!uses)
      return;
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringAttr root = use.getSymbolRef().getRootReference();
      auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(root);
      if (!gpuModule)
        continue;
      auto launch = dyn_cast<gpu::LaunchFuncOp>(use.getUser());
      if (launch && use.getSymbolRef().getNestedReferences().size() == 1)
        launches[gpuModule].push_back(launch);
      else
        otherUses.insert(gpuModule);
    }

    llvm::StringMap<gpu::GPUModuleOp> first;
    SmallVector<gpu::GPUModuleOp> merged;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      if (otherUses.contains(gpuModule) || !launches.count(gpuModule))
        continue;
      std::string key = fingerprint(gpuModule);
      if (key.empty())
        continue;
      // The manifests must agree too, but for the kernel's name.
      for (gpu::LaunchFuncOp launch : launches[gpuModule])
        key += launchInfo(launch);
      auto [it, inserted] = first.try_emplace(key, gpuModule);
      if (inserted)
        continue;
      redirect(launches[gpuModule], gpuModule, it->second);
      merged.push_back(gpuModule);
    }
    for (gpu::GPUModuleOp gpuModule : merged)
      gpuModule.erase();
  }

  /// Points the launches of `from`'s kernels at the same kernels of `to`.
  static void redirect(ArrayRef<gpu::LaunchFuncOp> launchOps,
                       gpu::GPUModuleOp from, gpu::GPUModuleOp to) {
    // Symbols correspond by position (that is what the fingerprint compared).
    llvm::DenseMap<StringAttr, StringAttr> names;
    auto symbols = [](gpu::GPUModuleOp m) {
      SmallVector<StringAttr> out;
      for (Operation &op : m.getBody()->getOperations())
        if (auto name =
                op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
          out.push_back(name);
      return out;
    };
    for (auto [a, b] : llvm::zip(symbols(from), symbols(to)))
      names[a] = b;
    for (gpu::LaunchFuncOp launch : launchOps) {
      StringAttr kernel = names.lookup(launch.getKernelName());
      launch.setKernelAttr(SymbolRefAttr::get(
          to.getSymNameAttr(), {FlatSymbolRefAttr::get(kernel)}));
      auto info =
          launch->getAttrOfType<DictionaryAttr>(mlir::nvfp4::kLaunchAttrName);
      if (!info || !info.get("kernel"))
        continue;
      NamedAttrList entries(info);
      entries.set("kernel", kernel);
      launch->setAttr(mlir::nvfp4::kLaunchAttrName,
                      entries.getDictionary(launch.getContext()));
    }
  }
};

} // namespace
