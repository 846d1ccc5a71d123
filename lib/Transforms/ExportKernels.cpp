//===- ExportKernels.cpp - write PTX, cubins and launch manifests ---------===//

#include "nvfp4/Transforms/Passes.h"

#include "nvfp4/Dialect/NVFP4/IR/LaunchJson.h"

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"
#include "nvfp4/Support/ManifestSchema.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_NVFP4EXPORTKERNELS
#include "nvfp4/Transforms/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
namespace schema = ::nvfp4::manifest;

namespace {

/// Removes a file this pass was writing, unless it is not a regular file
/// (a device or a pipe the user pointed the name at).
void removePartial(StringRef path) {
  if (llvm::sys::fs::is_regular_file(path))
    llvm::sys::fs::remove(path);
}

/// Writes `contents` to `path`. A failure, including one that only shows
/// when the stream is flushed (a full disk), is a diagnostic at `loc` and
/// leaves no partial file.
LogicalResult writeFile(Location loc, StringRef path, StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec)
    return emitError(loc) << "cannot write '" << path << "': " << ec.message();
  out << contents;
  out.close();
  if (!out.has_error())
    return success();
  ec = out.error();
  // Without this the stream's destructor ends the process.
  out.clear_error();
  removePartial(path);
  return emitError(loc) << "cannot write '" << path << "': " << ec.message();
}

/// The line of a tool's log to quote: its first that names an error or a
/// fatal one (ptxas -v may report other kernels first), else its first
/// non-empty one.
std::string quotedLine(StringRef log) {
  StringRef first;
  for (StringRef text = log; !text.empty();) {
    auto [line, rest] = text.split('\n');
    text = rest;
    line = line.trim();
    if (line.contains("error") || line.contains("fatal"))
      return line.str();
    if (first.empty())
      first = line;
  }
  return first.str();
}

/// The number that ends where the first `unit` of `text` begins ("72" of
/// "Used 72 registers" for " registers"), 0 without one.
int64_t numberBefore(StringRef text, StringRef unit) {
  size_t at = text.find(unit);
  if (at == StringRef::npos)
    return 0;
  StringRef head = text.take_front(at);
  StringRef digits =
      head.take_back(head.size() - head.rtrim("0123456789").size());
  int64_t n;
  return digits.getAsInteger(10, n) ? 0 : n;
}

/// The number right after the first `label` of `text` (".maxnreg 64"), 0
/// without one.
int64_t numberAfter(StringRef text, StringRef label) {
  size_t at = text.find(label);
  if (at == StringRef::npos)
    return 0;
  StringRef rest = text.drop_front(at + label.size());
  unsigned long long n;
  return rest.consumeInteger(10, n) ? 0 : int64_t(n);
}

/// The input file of `module` without a line: errors about the pass's
/// options or its directory are one line naming the file, not an excerpt of
/// the module's first line.
Location inputFileLoc(ModuleOp module) {
  Location loc = module.getLoc();
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return FileLineColLoc::get(file.getFilename(), 0, 0);
  return loc;
}

struct NVFP4ExportKernelsPass
    : public mlir::nvfp4::impl::NVFP4ExportKernelsBase<NVFP4ExportKernelsPass> {
  using Base::Base;

  mlir::nvfp4::NVFP4ExportKernelsOptions currentOptions() const {
    mlir::nvfp4::NVFP4ExportKernelsOptions options;
    options.directory = directory;
    options.prefix = prefix;
    options.cubin = cubin;
    options.ptxas = ptxas;
    return options;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    written.clear();
    names.clear();
    // Diagnostics go to a location, not to an op: an op would be printed
    // with them, the whole module for a module-level error.
    Location loc = inputFileLoc(module);
    if (directory.empty()) {
      emitError(loc) << "nvfp4-export-kernels: dir must not be empty";
      return signalPassFailure();
    }
    if (StringRef(prefix).find_first_of("/\\") != StringRef::npos) {
      emitError(loc) << "nvfp4-export-kernels: prefix '" << prefix
                     << "' contains a path separator; it must be the start "
                        "of a file name";
      return signalPassFailure();
    }
    if (cubin && failed(findPtxas(loc)))
      return signalPassFailure();
    if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
      emitError(loc) << "nvfp4-export-kernels: cannot create directory '"
                     << directory << "': " << ec.message();
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
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>())
      if (failed(exportSequence(func)))
        return signalPassFailure();
    printSummary();
  }

  /// Resolves the ptxas to run: the option, else PATH, $CUDA_HOME/bin and
  /// /usr/local/cuda/bin.
  LogicalResult findPtxas(Location loc) {
    if (!ptxas.empty()) {
      if (llvm::sys::fs::can_execute(ptxas)) {
        ptxasPath = ptxas;
        return success();
      }
      return emitError(loc) << "nvfp4-export-kernels: ptxas '" << ptxas
                            << "' is not an executable file";
    }
    SmallVector<std::string> dirs;
    if (const char *home = std::getenv("CUDA_HOME"))
      dirs.push_back((Twine(home) + "/bin").str());
    dirs.push_back("/usr/local/cuda/bin");
    if (auto found = llvm::sys::findProgramByName("ptxas")) {
      ptxasPath = *found;
      return success();
    }
    SmallVector<StringRef> paths(dirs.begin(), dirs.end());
    if (auto found = llvm::sys::findProgramByName("ptxas", paths)) {
      ptxasPath = *found;
      return success();
    }
    return emitError(loc) << "nvfp4-export-kernels: cubin=true needs ptxas, "
                             "found neither on PATH nor in $CUDA_HOME/bin "
                             "nor in /usr/local/cuda/bin";
  }

  LogicalResult exportKernel(ModuleOp module, gpu::LaunchFuncOp launch,
                             DictionaryAttr info) {
    Location loc = launch.getLoc();
    StringRef moduleName = launch.getKernelModuleName().getValue();
    auto binary = module.lookupSymbol<gpu::BinaryOp>(moduleName);
    if (!binary)
      return emitError(loc)
             << "kernel module '" << moduleName
             << "' is not serialized yet: run gpu-module-to-binary{format=isa} "
                "before nvfp4-export-kernels";
    auto object = dyn_cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
      return emitError(binary.getLoc())
             << "kernel module '" << moduleName
             << "' does not hold PTX text (use format=isa)";
    StringRef kernel = launch.getKernelName().getValue();
    if (kernel.find_first_of("/\\") != StringRef::npos)
      return emitError(loc)
             << "kernel name '" << kernel << "' contains a path separator";
    std::string base = prefix + kernel.str();
    SmallString<256> ptxPath(directory), jsonPath(directory),
        cubinPath(directory);
    llvm::sys::path::append(ptxPath, base + ".ptx");
    llvm::sys::path::append(jsonPath, base + ".json");
    llvm::sys::path::append(cubinPath, base + ".cubin");

    llvm::json::Object manifest =
        *mlir::nvfp4::launchValueToJson(info).getAsObject();
    manifest[schema::key::Ptx] = base + ".ptx";
    manifest[schema::key::Version] = schema::kVersion;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
       << "\n";

    // A kernel launched again (the same op twice, merged by
    // nvfp4-dedup-kernels) is written once; its manifests must agree.
    auto [it, inserted] = written.try_emplace(base, text);
    if (!inserted) {
      if (it->second == text)
        return success();
      return emitError(loc) << "kernel '" << base
                            << "' is launched with two different manifests";
    }

    if (failed(writeFile(loc, ptxPath, object.getObject().getValue())))
      return failure();
    if (failed(writeFile(loc, jsonPath, text))) {
      removePartial(ptxPath);
      return failure();
    }
    if (cubin) {
      auto chip = info.getAs<StringAttr>(schema::key::Chip);
      if (!chip || failed(assemble(loc, chip.getValue(), ptxPath,
                                   object.getObject().getValue(), cubinPath))) {
        if (!chip)
          emitError(loc) << "nvfp4.launch of '" << base << "' has no chip";
        removePartial(ptxPath);
        removePartial(jsonPath);
        return failure();
      }
    }
    names.push_back(base);
    return success();
  }

  /// Writes the sequence file of `func` (ManifestSchema.h) when it launches
  /// nvfp4 kernels: its launches in program order and the arguments they
  /// share.
  LogicalResult exportSequence(func::FuncOp func) {
    SmallVector<gpu::LaunchFuncOp> launches;
    func.walk([&](gpu::LaunchFuncOp launch) {
      if (launch->hasAttr(mlir::nvfp4::kLaunchAttrName))
        launches.push_back(launch);
    });
    if (launches.empty())
      return success();
    llvm::json::Array launchList;
    std::map<unsigned, int64_t> buffers; // argument index -> bytes
    for (gpu::LaunchFuncOp launch : launches) {
      llvm::json::Array args;
      if (failed(sequenceArgs(func, launch, args, buffers)))
        return failure();
      std::string base = prefix + launch.getKernelName().getValue().str();
      launchList.push_back(
          llvm::json::Object{{schema::seq_key::Manifest, base + ".json"},
                             {schema::seq_key::Args, std::move(args)}});
    }
    llvm::json::Array bufferList;
    for (auto [arg, bytes] : buffers)
      bufferList.push_back(
          llvm::json::Object{{schema::seq_key::Arg, int64_t(arg)},
                             {schema::seq_key::Bytes, bytes}});
    llvm::json::Object sequence{
        {schema::seq_key::Version, schema::kSequenceVersion},
        {schema::seq_key::Function, func.getSymName().str()},
        {schema::seq_key::Buffers, std::move(bufferList)},
        {schema::seq_key::Launches, std::move(launchList)}};
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(sequence)))
       << "\n";
    SmallString<256> path(directory);
    llvm::sys::path::append(
        path, schema::sequenceFileName(prefix, func.getSymName()));
    return writeFile(func.getLoc(), path, text);
  }

  /// The sequence entries of `launch`'s arguments, in its manifest's params
  /// order; every buffer argument is recorded in `buffers`.
  LogicalResult sequenceArgs(func::FuncOp func, gpu::LaunchFuncOp launch,
                             llvm::json::Array &args,
                             std::map<unsigned, int64_t> &buffers) {
    auto info =
        launch->getAttrOfType<DictionaryAttr>(mlir::nvfp4::kLaunchAttrName);
    auto params = info.getAs<ArrayAttr>(schema::key::Params);
    ValueRange operands = launch.getKernelOperands();
    if (!params || params.size() != operands.size())
      return emitError(launch.getLoc())
             << "nvfp4.launch of '" << launch.getKernelName().getValue()
             << "' lists " << (params ? params.size() : 0) << " params for "
             << operands.size() << " kernel arguments";
    for (auto [param, operand] : llvm::zip(params, operands)) {
      StringRef name = cast<StringAttr>(param).getValue();
      if (name == schema::name(schema::Param::ATensorMap) ||
          name == schema::name(schema::Param::SFATensorMap)) {
        args.push_back(llvm::json::Object{{schema::seq_key::TensorMap, true}});
        continue;
      }
      auto arg = dyn_cast<BlockArgument>(operand);
      if (!arg || arg.getOwner() != &func.getBody().front())
        return emitError(launch.getLoc())
               << "argument '" << name << "' of the launch of '"
               << launch.getKernelName().getValue()
               << "' is not an argument of function '" << func.getSymName()
               << "': its sequence cannot be exported";
      unsigned index = arg.getArgNumber();
      if (arg.getType().isF32()) {
        args.push_back(llvm::json::Object{{schema::seq_key::Arg, index},
                                          {schema::seq_key::Scalar, true}});
        continue;
      }
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || !type.hasStaticShape() ||
          !type.getElementType().isIntOrFloat())
        return emitError(launch.getLoc())
               << "argument '" << name << "' of the launch of '"
               << launch.getKernelName().getValue()
               << "' is neither an f32 nor a static memref";
      buffers[index] = type.getNumElements() *
                       type.getElementType().getIntOrFloatBitWidth() / 8;
      args.push_back(llvm::json::Object{{schema::seq_key::Arg, index}});
    }
    return success();
  }

  /// Runs ptxas on one exported kernel (its PTX text `ptx`); its first
  /// error line is quoted. A kernel ptxas spills to local memory is a
  /// warning: a spill in the K loop can cost more than the registers saved.
  LogicalResult assemble(Location loc, StringRef chip, StringRef ptxPath,
                         StringRef ptx, StringRef cubinPath) {
    SmallString<128> logPath;
    if (llvm::sys::fs::createTemporaryFile("nvfp4-ptxas", "log", logPath))
      logPath.clear();
    std::string arch = ("-arch=" + chip).str();
    SmallVector<StringRef> args = {ptxasPath, arch, "-v",
                                   ptxPath,   "-o", cubinPath};
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                            StringRef(logPath)};
    std::string message;
    int status = llvm::sys::ExecuteAndWait(
        ptxasPath, args, /*Env=*/std::nullopt,
        logPath.empty() ? ArrayRef<std::optional<StringRef>>()
                        : ArrayRef<std::optional<StringRef>>(redirects),
        /*SecondsToWait=*/0, /*MemoryLimit=*/0, &message);
    std::string log;
    if (!logPath.empty()) {
      if (auto buffer = llvm::MemoryBuffer::getFile(logPath))
        log = (*buffer)->getBuffer().str();
      llvm::sys::fs::remove(logPath);
    }
    if (status == 0) {
      if (int64_t spilled = numberBefore(log, " bytes spill stores")) {
        InFlightDiagnostic warning = emitWarning(loc);
        warning << "ptxas spills " << spilled << " bytes of '"
                << llvm::sys::path::filename(ptxPath) << "' to local memory at "
                << numberBefore(log, " registers") << " registers";
        if (int64_t budget = numberAfter(ptx, ".maxnreg "))
          warning << " (.maxnreg " << budget << ")";
      }
      return success();
    }
    removePartial(cubinPath);
    InFlightDiagnostic diag = emitError(loc);
    diag << "ptxas failed on '" << ptxPath << "'";
    if (status < 0)
      diag << ": " << message;
    else
      diag << " (exit status " << status << ")";
    if (std::string output = quotedLine(log); !output.empty())
      diag << ": " << output;
    return diag;
  }

  /// One line on stderr: what was written, and where.
  void printSummary() {
    llvm::raw_ostream &os = llvm::errs();
    os << "nvfp4-export-kernels: ";
    if (names.empty()) {
      os << "no nvfp4 kernels, nothing written to '" << directory << "'\n";
      return;
    }
    os << "wrote " << names.size()
       << (names.size() == 1 ? " kernel" : " kernels") << " to '" << directory
       << "' (" << (cubin ? ".ptx, .json, .cubin" : ".ptx, .json") << "): ";
    // A suite of a hundred kernels still gets a line that fits a terminal.
    constexpr size_t kNamesShown = 4;
    llvm::interleaveComma(ArrayRef(names).take_front(kNamesShown), os);
    if (names.size() > kNamesShown)
      os << " and " << names.size() - kNamesShown << " more";
    os << "\n";
  }

  std::string ptxasPath;
  llvm::StringMap<std::string> written;
  SmallVector<std::string> names;
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
