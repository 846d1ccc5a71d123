//===- nvfp4-opt.cpp - the nvfp4 optimizer driver -------------------------===//
//
// mlir-opt with the nvfp4 dialect, its passes and pipelines, and every
// upstream dialect and pass the lowerings go through.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"
#include "nvfp4/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

/// MlirOptMain's driver, but where a pass option does not parse, after the
/// option parser's own line, a line that says so in place of the empty
/// unlocated error MlirOptMain adds; files that do not open are errors
/// named as the tool's.
static LogicalResult optMain(int argc, char **argv, DialectRegistry &registry) {
  llvm::InitLLVM init(argc, argv);
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "nvfp4 optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return MlirOptMain(argc, argv, inputFilename, outputFilename, registry);
  MlirOptMainConfig parsed = config;
  config.setPassPipelineSetupFn([parsed](PassManager &pm) {
    ScopedDiagnosticHandler sayWhat(pm.getContext(), [](Diagnostic &d) {
      if (d.getSeverity() != DiagnosticSeverity::Error || !d.str().empty())
        return failure(); // to MlirOptMain's handler
      llvm::errs() << "nvfp4-opt: error: the pass options do not parse\n";
      return success();
    });
    return parsed.setupPassPipeline(pm);
  });
  // A terminal on stdin is most often a forgotten input file.
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "nvfp4-opt: reading IR from the terminal (end it with "
                    "ctrl-d)\n";
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << "nvfp4-opt: error: " << error << "\n";
    return failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "nvfp4-opt: error: " << error << "\n";
    return failure();
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return failure();
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  registerAllPasses();
  nvfp4::registerNVFP4ConversionPasses();
  nvfp4::registerNVFP4Pipelines();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registry.insert<nvfp4::NVFP4Dialect>();
  return asMainReturnCode(optMain(argc, argv, registry));
}
