//===- LaunchJson.cpp - nvfp4.launch values as JSON -----------------------===//

#include "nvfp4/Dialect/NVFP4/IR/LaunchJson.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

llvm::json::Value mlir::nvfp4::launchValueToJson(Attribute attr) {
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
      out.push_back(launchValueToJson(a));
    return out;
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object out;
    for (NamedAttribute n : dict)
      out[n.getName().getValue()] = launchValueToJson(n.getValue());
    return out;
  }
  return nullptr;
}
