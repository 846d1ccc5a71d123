//===- NVFP4Attrs.td - nvfp4 attributes --------------------*- tablegen -*-===//

#ifndef NVFP4_ATTRS_TD
#define NVFP4_ATTRS_TD

include "nvfp4/Dialect/NVFP4/IR/NVFP4Dialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def NVFP4_ScaleFormat : I32EnumAttr<"ScaleFormat",
    "block scale format of FP4 data", [
      I32EnumAttrCase<"NVFP4", 0, "nvfp4">,
      I32EnumAttrCase<"MXFP4", 1, "mxfp4">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::nvfp4";
}

def NVFP4_ScaleFormatAttr
    : EnumAttr<NVFP4_Dialect, NVFP4_ScaleFormat, "format"> {
  let summary = "block scale format: nvfp4 (e4m3fn per 16) or mxfp4 (ue8m0 per 32)";
  let assemblyFormat = "`<` $value `>`";
}

def NVFP4_ScaleLayout : I32EnumAttr<"ScaleLayout",
    "storage layout of a scale-factor matrix", [
      I32EnumAttrCase<"Linear", 0, "linear">,
      I32EnumAttrCase<"Blocked128x4", 1, "blocked128x4">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::nvfp4";
}

def NVFP4_ScaleLayoutAttr
    : EnumAttr<NVFP4_Dialect, NVFP4_ScaleLayout, "layout"> {
  let summary = "scale layout: linear (row-major) or blocked128x4 (512-byte atoms)";
  let assemblyFormat = "`<` $value `>`";
}

#endif // NVFP4_ATTRS_TD
