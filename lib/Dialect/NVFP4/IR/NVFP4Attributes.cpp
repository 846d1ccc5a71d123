//===- NVFP4Attributes.cpp - the dialect's discardable attributes ---------===//
//
// nvfp4.launch carries, on a gpu.launch_func, everything a runtime without
// MLIR needs to launch the kernel; nvfp4-export-kernels writes it as the
// manifest. Checking it against the manifest schema here makes a lowering
// that drifts from the schema fail where the attribute is made.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/IR/NVFP4.h"
#include "nvfp4/Support/Formats.h"
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
  auto kindOp = static_cast<schema::Op>(known - ops.begin());
  // Every key of `dict` in `keys` must be present, with a known spelling
  // where the schema enumerates them; `what` names the dictionary.
  auto checkKeys = [&](DictionaryAttr dict,
                       const std::vector<const char *> &keys,
                       StringRef what) -> LogicalResult {
    for (const char *key : keys) {
      // Written by nvfp4-export-kernels itself.
      if (StringRef(key) == schema::key::Version ||
          StringRef(key) == schema::key::Ptx)
        continue;
      Attribute field = dict.get(key);
      if (!field)
        return op->emitOpError()
               << what << " lacks \"" << key << "\", which manifest version "
               << schema::kVersion << " requires";
      std::vector<const char *> names = schema::spellings(key);
      auto str = dyn_cast<StringAttr>(field);
      if (!names.empty() && (!str || llvm::none_of(names, [&](const char *n) {
            return str.getValue() == n;
          })))
        return op->emitOpError() << what << " \"" << key << "\" is " << field
                                 << ", which manifest version "
                                 << schema::kVersion << " does not know";
    }
    return success();
  };
  if (failed(checkKeys(info, schema::requiredKeys(kindOp), kLaunchAttrName)))
    return failure();
  if (Attribute maps = info.get(schema::key::TensorMaps)) {
    auto list = dyn_cast<ArrayAttr>(maps);
    if (kindOp != schema::Op::Gemv || !list ||
        !llvm::all_of(list, llvm::IsaPred<DictionaryAttr>))
      return op->emitOpError()
             << kLaunchAttrName
             << " \"tensor_maps\" must be an array of dictionaries, on a gemv";
    std::vector<const char *> keys = schema::tensorMapKeys();
    for (auto entry : list.getAsRange<DictionaryAttr>()) {
      for (NamedAttribute member : entry)
        if (llvm::none_of(keys, [&](const char *k) {
              return member.getName().getValue() == k;
            }))
          return op->emitOpError()
                 << kLaunchAttrName << " \"tensor_maps\" entry has \""
                 << member.getName().getValue() << "\", which manifest version "
                 << schema::kVersion << " does not know";
      if (failed(checkKeys(
              entry, keys,
              (Twine(kLaunchAttrName) + " \"tensor_maps\" entry").str())))
        return failure();
    }
  }
  // The parameters: the op's required ones (a gemv's sfb exactly when its
  // vectors are e2m1), any of its optional ones, no other.
  auto vector = ::nvfp4::ref::VectorElement::E2M1;
  if (kindOp == schema::Op::Gemv) {
    auto n = info.getAs<IntegerAttr>(schema::key::N);
    if (!n || n.getInt() < 1 || n.getInt() > ::nvfp4::formats::kMaxGemvVectors)
      return op->emitOpError() << kLaunchAttrName << " \"" << schema::key::N
                               << "\" must be an integer in [1, "
                               << ::nvfp4::formats::kMaxGemvVectors << "]";
    std::vector<const char *> vectors = schema::spellings(schema::key::Vector);
    StringRef spelled = info.getAs<StringAttr>(schema::key::Vector).getValue();
    vector = static_cast<::nvfp4::ref::VectorElement>(
        llvm::find(vectors, spelled) - vectors.begin());
  }
  // A quantizer's global_scale parameter exactly when it is two-level.
  bool twoLevel = false;
  if (Attribute field = info.get(schema::key::GlobalScale)) {
    auto flag = dyn_cast<BoolAttr>(field);
    if (!flag)
      return op->emitOpError()
             << kLaunchAttrName << " \"" << schema::key::GlobalScale
             << "\" must be a boolean";
    twoLevel = flag.getValue();
  }
  schema::ParamSet set = schema::params(kindOp, vector, twoLevel);
  std::vector<schema::Param> all = set.required;
  all.insert(all.end(), set.optional.begin(), set.optional.end());
  auto params = info.getAs<ArrayAttr>(schema::key::Params);
  if (!params || !llvm::all_of(params, llvm::IsaPred<StringAttr>))
    return op->emitOpError() << kLaunchAttrName << " \"" << schema::key::Params
                             << "\" must be an array of strings";
  auto listed = [&](schema::Param param) {
    return llvm::any_of(params.getAsValueRange<StringAttr>(),
                        [&](StringRef s) { return s == schema::name(param); });
  };
  std::string taker = schema::name(kindOp);
  if (kindOp == schema::Op::Gemv)
    taker += std::string(" of ") + ::nvfp4::ref::name(vector) + " vectors";
  if ((kindOp == schema::Op::Quantize || kindOp == schema::Op::Dequantize) &&
      !twoLevel)
    taker += " without a global scale";
  for (StringRef entry : params.getAsValueRange<StringAttr>())
    if (llvm::none_of(all, [&](schema::Param param) {
          return entry == schema::name(param);
        }))
      return op->emitOpError()
             << kLaunchAttrName << " \"" << schema::key::Params << "\" has \""
             << entry << "\", which a " << taker << " does not take";
  for (schema::Param param : set.required)
    if (!listed(param))
      return op->emitOpError()
             << kLaunchAttrName << " \"" << schema::key::Params << "\" lacks \""
             << schema::name(param) << "\"";
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
