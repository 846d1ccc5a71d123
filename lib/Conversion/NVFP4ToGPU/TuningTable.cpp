//===- TuningTable.cpp - per-kernel options a tuning run chose ------------===//

#include "TuningTable.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// The table's format version (key "version").
constexpr int64_t kTableVersion = 1;

/// The options a table may give: those the cost model chooses when left at
/// 0 (Passes.td spells them; a lit test checks every one lowers).
struct Tunable {
  const char *name;
  int64_t ConvertNVFP4ToGPUOptions::*field;
  /// Whether -1 ("none") is a value, besides the positive ones.
  bool takesNone = false;
};
constexpr Tunable kTunables[] = {
    {"rows-per-block", &ConvertNVFP4ToGPUOptions::rowsPerBlock},
    {"rows-per-thread", &ConvertNVFP4ToGPUOptions::rowsPerThread},
    {"lanes-per-row", &ConvertNVFP4ToGPUOptions::lanesPerRow},
    {"bytes-per-load", &ConvertNVFP4ToGPUOptions::bytesPerLoad},
    {"loads-in-flight", &ConvertNVFP4ToGPUOptions::loadsInFlight},
    {"split-k", &ConvertNVFP4ToGPUOptions::splitK},
    {"cta-split-k", &ConvertNVFP4ToGPUOptions::ctaSplitK},
    {"cta-threads", &ConvertNVFP4ToGPUOptions::ctaThreads},
    {"index-bits", &ConvertNVFP4ToGPUOptions::indexBits},
    {"max-registers", &ConvertNVFP4ToGPUOptions::maxRegisters,
     /*takesNone=*/true},
};

std::string tunableNames() {
  std::string names;
  for (const Tunable &t : kTunables)
    names += (names.empty() ? "" : ", ") + std::string(t.name);
  return names;
}

} // namespace

FailureOr<TuningTable> TuningTable::load(Location loc, StringRef path,
                                         StringRef chip) {
  auto fail = [&](const Twine &message) {
    emitError(loc) << "tuning table '" << path << "': " << message;
    return failure();
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return fail("cannot read it (" + file.getError().message() + ")");
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*file)->getBuffer());
  if (!json)
    return fail("not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *root = json->getAsObject();
  if (!root)
    return fail("expected an object with \"version\", \"chip\" and "
                "\"kernels\"");
  std::optional<int64_t> version = root->getInteger("version");
  if (version != kTableVersion)
    return fail("\"version\" must be " + Twine(kTableVersion));
  std::optional<StringRef> tableChip = root->getString("chip");
  if (!tableChip)
    return fail("\"chip\" must be a string");
  if (*tableChip != chip)
    return fail("made for chip " + *tableChip + ", compiling for " + chip);
  const llvm::json::Object *kernels = root->getObject("kernels");
  if (!kernels)
    return fail("\"kernels\" must be an object of kernel names");
  for (const auto &[key, value] : *root)
    if (key != "version" && key != "chip" && key != "kernels")
      return fail("unknown key \"" + key.str() + "\"");

  TuningTable table;
  for (const auto &[kernel, entry] : *kernels) {
    const llvm::json::Object *options = entry.getAsObject();
    if (!options)
      return fail("kernel " + kernel.str() +
                  ": expected an object of option values");
    auto &values = table.kernels[kernel.str()];
    for (const auto &option : *options) {
      StringRef name = option.first;
      const llvm::json::Value &value = option.second;
      const Tunable *tunable = llvm::find_if(
          kTunables, [&](const Tunable &t) { return name == t.name; });
      if (tunable == std::end(kTunables))
        return fail("kernel " + kernel.str() + ": '" + name.str() +
                    "' is not an option the table can give (" + tunableNames() +
                    ")");
      std::optional<int64_t> number = value.getAsInteger();
      if (!number || (*number < 1 && !(tunable->takesNone && *number == -1)))
        return fail("kernel " + kernel.str() + ": '" + name.str() +
                    "' must be " + (tunable->takesNone ? "-1 or " : "") +
                    "a positive integer");
      values.push_back({unsigned(tunable - kTunables), *number});
    }
  }
  return table;
}

ConvertNVFP4ToGPUOptions
TuningTable::apply(StringRef kernel, ConvertNVFP4ToGPUOptions options) const {
  auto it = kernels.find(kernel);
  if (it == kernels.end())
    return options;
  for (auto [index, value] : it->second) {
    int64_t &field = options.*kTunables[index].field;
    if (field == 0)
      field = value;
  }
  return options;
}
