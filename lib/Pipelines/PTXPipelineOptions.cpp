//===- PTXPipelineOptions.cpp - route pipeline options to their passes ----===//
//
// The GPU pipelines declare no kernel option of their own: each key of the
// pipeline's option string goes to the pass that declares it (Passes.td), so
// an option is written once and the pipelines never fall behind the passes.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Pipelines/PipelineBuilders.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// The one option of the GPU pipelines that belongs to no pass.
struct StrategyOption : public PassPipelineOptions<StrategyOption> {
  Option<KernelStrategy> strategy{
      *this, "strategy",
      llvm::cl::desc("Which kernel a gemv becomes (default: cuda-cores); "
                     "every other option is one of convert-nvfp4-to-gpu "
                     "(cuda-cores), convert-nvfp4-to-tcgen05 (tcgen05) or, "
                     "prefixed export-, nvfp4-export-kernels"),
      llvm::cl::init(KernelStrategy::CudaCores),
      llvm::cl::values(
          clEnumValN(KernelStrategy::CudaCores, "cuda-cores",
                     "CUDA-core decode (convert-nvfp4-to-gpu)"),
          clEnumValN(KernelStrategy::Tcgen05, "tcgen05",
                     "Blackwell tensor cores (convert-nvfp4-to-tcgen05)"))};
};

/// One `key=value` (or bare `key`) of an option string, as written.
struct OptionToken {
  StringRef key;
  StringRef text;
};

/// Splits `text` at the spaces outside quotes and braces, as the pass
/// option parser does.
SmallVector<OptionToken> splitOptions(StringRef text) {
  SmallVector<OptionToken> tokens;
  size_t i = 0, n = text.size();
  while (i < n) {
    while (i < n && isspace(static_cast<unsigned char>(text[i])))
      ++i;
    if (i == n)
      break;
    size_t start = i;
    int depth = 0;
    char quote = 0;
    for (; i < n; ++i) {
      char c = text[i];
      if (quote) {
        quote = c == quote ? 0 : quote;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      } else if (depth <= 0 && isspace(static_cast<unsigned char>(c))) {
        break;
      }
    }
    StringRef token = text.slice(start, i);
    tokens.push_back({token.split('=').first, token});
  }
  return tokens;
}

/// The keys `pass` declares, each with its default as written in a pipeline.
llvm::StringMap<std::string> declaredOptions(Pass &pass) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  pass.printAsTextualPipeline(os);
  StringRef body = StringRef(printed).split('{').second;
  body = body.substr(0, body.rfind('}'));
  llvm::StringMap<std::string> keys;
  for (OptionToken token : splitOptions(body))
    keys[token.key] = token.text.str();
  return keys;
}

/// Appends `token` to the option string `options`.
void append(std::string &options, StringRef token) {
  if (!options.empty())
    options += ' ';
  options += token;
}

} // namespace

FailureOr<PTXPipelineOptions> mlir::nvfp4::parsePTXPipelineOptions(
    StringRef text, function_ref<LogicalResult(const Twine &)> errorHandler) {
  auto fail = [&](const Twine &message) -> FailureOr<PTXPipelineOptions> {
    (void)errorHandler(message);
    return failure();
  };
  SmallVector<OptionToken> tokens = splitOptions(text);
  PTXPipelineOptions options;
  llvm::StringSet<> given;
  for (OptionToken token : tokens) {
    if (!given.insert(token.key).second)
      return fail("option '" + token.key + "' given twice");
    if (token.key != "strategy")
      continue;
    StrategyOption strategy;
    auto &parser = strategy.strategy.getParser();
    StringRef value = token.text.split('=').second;
    unsigned index = parser.findOption(value);
    if (index == parser.getNumOptions()) {
      std::string names;
      for (unsigned i = 0; i < parser.getNumOptions(); ++i)
        names += (i ? " or " : "") + parser.getOption(i).str();
      return fail("strategy must be " + names + ", got '" + value + "'");
    }
    if (failed(strategy.parseFromString(token.text)))
      return failure();
    options.strategy = strategy.strategy;
  }
  bool tensorCores = options.strategy == KernelStrategy::Tcgen05;
  StringRef strategyName = tensorCores ? "tcgen05" : "cuda-cores";

  llvm::StringMap<std::string> cudaKeys =
      declaredOptions(*createConvertNVFP4ToGPU());
  llvm::StringMap<std::string> tcgen05Keys =
      declaredOptions(*createConvertNVFP4ToTcgen05());
  llvm::StringMap<std::string> exportKeys =
      declaredOptions(*createNVFP4ExportKernels());
  llvm::StringMap<std::string> &ownKeys = tensorCores ? tcgen05Keys : cudaKeys;
  llvm::StringMap<std::string> &otherKeys =
      tensorCores ? cudaKeys : tcgen05Keys;

  std::string own, other, exporting;
  for (OptionToken token : tokens) {
    if (token.key == "strategy")
      continue;
    if (token.key.consume_front("export-")) {
      if (!exportKeys.contains(token.key))
        return fail("no option 'export-" + token.key +
                    "' (nvfp4-export-kernels has no '" + token.key + "')");
      options.exportFiles |= token.key == "dir";
      append(exporting, token.text.drop_front(strlen("export-")));
      continue;
    }
    bool ownsKey = ownKeys.contains(token.key);
    bool otherOwnsKey = otherKeys.contains(token.key);
    if (!ownsKey && otherOwnsKey)
      return fail("option '" + token.key + "' does not apply to strategy=" +
                  strategyName + " (it is an option of strategy=" +
                  (tensorCores ? "cuda-cores" : "tcgen05") + ")");
    if (!ownsKey)
      return fail("no option '" + token.key + "'");
    append(own, token.text);
    if (otherOwnsKey)
      append(other, token.text);
  }
  // A key both kernel passes declare (the chip) takes one value for the
  // whole pipeline: the default of the strategy's own pass.
  for (const auto &key : ownKeys)
    if (otherKeys.contains(key.getKey()) && !given.contains(key.getKey()))
      append(other, key.getValue());

  StringRef cudaText = tensorCores ? StringRef(other) : StringRef(own);
  StringRef tcgen05Text = tensorCores ? StringRef(own) : StringRef(other);
  // One pass after the other, so that a value both reject is reported once.
  FailureOr<ConvertNVFP4ToGPUOptions> cuda =
      parseConvertNVFP4ToGPUOptions(cudaText, errorHandler);
  if (failed(cuda))
    return failure();
  FailureOr<ConvertNVFP4ToTcgen05Options> tcgen05 =
      parseConvertNVFP4ToTcgen05Options(tcgen05Text, errorHandler);
  if (failed(tcgen05))
    return failure();
  FailureOr<NVFP4ExportKernelsOptions> exportOptions =
      parseNVFP4ExportKernelsOptions(exporting, errorHandler);
  if (failed(exportOptions))
    return failure();
  options.cudaCores = *cuda;
  options.tensorCores = *tcgen05;
  options.exportKernels = *exportOptions;
  return options;
}

void mlir::nvfp4::describePTXPipelineOptions(
    function_ref<void(const detail::PassOptions &)> print) {
  print(StrategyOption());
}
