//===- ExportKernels.cpp - write PTX and launch manifests -----------------===//

#include "nvfp4/Transforms/Passes.h"

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"
#include "nvfp4/Support/ManifestSchema.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_NVFP4EXPORTKERNELS
#include "nvfp4/Transforms/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
namespace schema = ::nvfp4::manifest;

namespace {

llvm::json::Value toJson(Attribute attr) {
  if (auto s = dyn_cast<StringAttr>(attr))
    return s.getValue().str();
  // BoolAttr is an IntegerAttr of i1: test it first.
  if (auto b = dyn_cast<BoolAttr>(attr))
    return b.getValue();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getInt();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array out;
    for (Attribute a : array)
      out.push_back(toJson(a));
    return out;
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object out;
    for (NamedAttribute n : dict)
      out[n.getName().getValue()] = toJson(n.getValue());
    return out;
  }
  return nullptr;
}

struct NVFP4ExportKernelsPass
    : public mlir::nvfp4::impl::NVFP4ExportKernelsBase<NVFP4ExportKernelsPass> {
  using Base::Base;

  mlir::nvfp4::NVFP4ExportKernelsOptions currentOptions() const {
    mlir::nvfp4::NVFP4ExportKernelsOptions options;
    options.directory = directory;
    options.prefix = prefix;
    return options;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
      module.emitError() << "cannot create directory '" << directory
                         << "': " << ec.message();
      return signalPassFailure();
    }
    WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
      auto info =
          launch->getAttrOfType<DictionaryAttr>(mlir::nvfp4::kLaunchAttrName);
      if (!info)
        return WalkResult::advance();
      return succeeded(exportKernel(module, launch, info))
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult exportKernel(ModuleOp module, gpu::LaunchFuncOp launch,
                             DictionaryAttr info) {
    StringRef moduleName = launch.getKernelModuleName().getValue();
    auto binary = module.lookupSymbol<gpu::BinaryOp>(moduleName);
    if (!binary)
      return launch.emitError()
             << "kernel module '" << moduleName
             << "' is not serialized yet: run gpu-module-to-binary{format=isa} "
                "before nvfp4-export-kernels";
    auto object = dyn_cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
      return binary.emitError() << "kernel module '" << moduleName
                                << "' does not hold PTX text (use format=isa)";
    std::string base = prefix + launch.getKernelName().getValue().str();
    SmallString<256> ptxPath(directory), jsonPath(directory);
    llvm::sys::path::append(ptxPath, base + ".ptx");
    llvm::sys::path::append(jsonPath, base + ".json");

    llvm::json::Object manifest = *toJson(info).getAsObject();
    manifest[schema::key::Ptx] = base + ".ptx";
    manifest[schema::key::Version] = schema::kVersion;
    if (failed(write(launch, ptxPath, object.getObject().getValue())))
      return failure();
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
       << "\n";
    return write(launch, jsonPath, text);
  }

  LogicalResult write(Operation *op, StringRef path, StringRef contents) {
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    if (ec)
      return op->emitError()
             << "cannot write '" << path << "': " << ec.message();
    out << contents;
    return success();
  }
};

} // namespace

FailureOr<mlir::nvfp4::NVFP4ExportKernelsOptions>
mlir::nvfp4::parseNVFP4ExportKernelsOptions(
    StringRef text, function_ref<LogicalResult(const Twine &)> errorHandler) {
  NVFP4ExportKernelsPass pass;
  if (failed(pass.initializeOptions(text, errorHandler)))
    return failure();
  return pass.currentOptions();
}
