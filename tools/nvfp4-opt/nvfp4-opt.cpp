//===- nvfp4-opt.cpp - the nvfp4 optimizer driver -------------------------===//
//
// mlir-opt with the nvfp4 dialect, its passes and pipelines, and every
// upstream dialect and pass the lowerings go through.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"
#include "nvfp4/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::nvfp4::registerNVFP4ConversionPasses();
  mlir::nvfp4::registerNVFP4Pipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registry.insert<mlir::nvfp4::NVFP4Dialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "nvfp4 optimizer driver\n", registry));
}
