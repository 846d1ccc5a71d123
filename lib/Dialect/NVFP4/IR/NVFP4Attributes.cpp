//===- NVFP4Attributes.cpp - the dialect's discardable attributes ---------===//
//
// nvfp4.launch carries, on a gpu.launch_func, everything a runtime without
// MLIR needs to launch the kernel; nvfp4-export-kernels writes it as the
// manifest. Checking it against the manifest schema here makes a lowering
// that drifts from the schema fail where the attribute is made.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"
#include "nvfp4/Support/ManifestSchema.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::nvfp4;
namespace schema = ::nvfp4::manifest;

namespace {

/// An array of three positive integers (grid, block).
bool isDim3(Attribute attr) {
  auto array = dyn_cast_or_null<ArrayAttr>(attr);
  return array && array.size() == 3 && llvm::all_of(array, [](Attribute a) {
           auto i = dyn_cast<IntegerAttr>(a);
           return i && i.getInt() >= 1;
         });
}

LogicalResult verifyLaunch(Operation *op, Attribute value) {
  if (op->getName().getStringRef() != "gpu.launch_func")
    return op->emitOpError()
           << kLaunchAttrName << " belongs on a gpu.launch_func";
  auto info = dyn_cast<DictionaryAttr>(value);
  if (!info)
    return op->emitOpError() << kLaunchAttrName << " must be a dictionary";
  auto kind = info.getAs<StringAttr>(schema::key::Op);
  std::vector<const char *> ops = schema::spellings(schema::key::Op);
  auto known = llvm::find_if(
      ops, [&](const char *name) { return kind && kind.getValue() == name; });
  if (known == ops.end())
    return op->emitOpError()
           << kLaunchAttrName << " has no known \"" << schema::key::Op << "\"";
  for (const char *key :
       schema::requiredKeys(static_cast<schema::Op>(known - ops.begin()))) {
    // Written by nvfp4-export-kernels itself.
    if (StringRef(key) == schema::key::Version ||
        StringRef(key) == schema::key::Ptx)
      continue;
    Attribute field = info.get(key);
    if (!field)
      return op->emitOpError() << kLaunchAttrName << " lacks \"" << key
                               << "\", which manifest version "
                               << schema::kVersion << " requires";
    std::vector<const char *> names = schema::spellings(key);
    auto str = dyn_cast<StringAttr>(field);
    if (!names.empty() && (!str || llvm::none_of(names, [&](const char *n) {
          return str.getValue() == n;
        })))
      return op->emitOpError() << kLaunchAttrName << " \"" << key << "\" is "
                               << field << ", which manifest version "
                               << schema::kVersion << " does not know";
  }
  for (const char *key : {schema::key::Grid, schema::key::Block})
    if (!isDim3(info.get(key)))
      return op->emitOpError() << kLaunchAttrName << " \"" << key
                               << "\" must be three positive integers";
  return success();
}

} // namespace

LogicalResult NVFP4Dialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kLaunchAttrName)
    return verifyLaunch(op, attr.getValue());
  if (name == kScaleStagingAttrName) {
    auto str = dyn_cast<StringAttr>(attr.getValue());
    if (!str || (str.getValue() != kStagingLinearToBlocked &&
                 str.getValue() != kStagingBlockedCopy))
      return op->emitOpError() << "'" << kScaleStagingAttrName << "' must be \""
                               << kStagingLinearToBlocked << "\" or \""
                               << kStagingBlockedCopy << "\"";
    return success();
  }
  return op->emitOpError() << "unknown nvfp4 dialect attribute '" << name
                           << "'";
}
