//===- Passes.td - nvfp4 transforms ------------------------*- tablegen -*-===//

#ifndef NVFP4_TRANSFORMS_PASSES_TD
#define NVFP4_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NVFP4ExportKernels : Pass<"nvfp4-export-kernels", "::mlir::ModuleOp"> {
  let summary = "Write the PTX of every nvfp4 kernel and its launch manifest";
  let description = [{
    For every `gpu.launch_func` carrying an `nvfp4.launch` dictionary (set by
    `convert-nvfp4-to-gpu`) whose kernel module has been serialized to a
    `gpu.binary` in PTX form (`gpu-module-to-binary{format=isa}`), writes
    `<dir>/<prefix><kernel>.ptx` and `<dir>/<prefix><kernel>.json`. The
    manifest holds what a runtime without MLIR needs: the entry symbol, the
    chip, the problem shape and formats, grid and block sizes, shared memory
    and the order and kinds of the kernel parameters (docs/nvfp4-run.md). Its
    keys, spellings and version are those of
    `include/nvfp4/Support/ManifestSchema.h`, which `nvfp4-run` reads with:
    the pass writes the schema version and refuses a launch dictionary that
    lacks a required key or spells a value the schema does not know. The IR
    is left unchanged.
  }];
  let options = [
    Option<"directory", "dir", "std::string", /*default=*/"\".\"",
           "Directory the files are written to (created if missing)">,
    Option<"prefix", "prefix", "std::string", /*default=*/"\"\"",
           "Prefix of every file name">
  ];
}

#endif // NVFP4_TRANSFORMS_PASSES_TD
