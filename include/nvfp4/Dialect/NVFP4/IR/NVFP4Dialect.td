//===- NVFP4Dialect.td - nvfp4 dialect definition ----------*- tablegen -*-===//

#ifndef NVFP4_DIALECT_TD
#define NVFP4_DIALECT_TD

include "mlir/IR/OpBase.td"

def NVFP4_Dialect : Dialect {
  let name = "nvfp4";
  let cppNamespace = "::mlir::nvfp4";
  let summary = "Block-scaled FP4 (NVFP4, MXFP4) matrix-vector products";
  let description = [{
    The `nvfp4` dialect models batched matrix-vector products whose matrix and
    vector are stored as packed e2m1 values with one scale factor per block of
    16 (NVFP4, e4m3fn scales) or 32 (MXFP4, ue8m0 scales) values along K, the
    layouts of those scale factors, and the conversions into and out of the
    format. Operations work on memrefs in destination-passing style.

    FP4 data is stored two values a byte in `i8` memrefs (element `2j` in the
    low nibble of byte `j`); see docs/design.md for why.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let hasCanonicalizer = 0;
  // nvfp4.launch (on gpu.launch_func: what a runtime needs to launch the
  // kernel, the manifest's content) and nvfp4.scale_staging (on a tcgen05
  // gpu.func: how scales reach the 128x4 atoms) are verified by the
  // dialect; any other nvfp4.* attribute is an error.
  let hasOperationAttrVerify = 1;
}

class NVFP4_Op<string mnemonic, list<Trait> traits = []>
    : Op<NVFP4_Dialect, mnemonic, traits>;

#endif // NVFP4_DIALECT_TD
