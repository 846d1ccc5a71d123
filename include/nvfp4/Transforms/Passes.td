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
    `<dir>/<prefix><kernel>.ptx` and `<dir>/<prefix><kernel>.json`, and with
    `cubin=true` also `<dir>/<prefix><kernel>.cubin` assembled by `ptxas`.
    The manifest holds what a runtime without MLIR needs: the entry symbol,
    the chip, the problem shape and formats (the number of right-hand
    vectors and what they hold included), grid and block sizes, shared
    memory and the order and kinds of the kernel parameters
    (docs/nvfp4-run.md). Its keys, spellings and version are those of
    `include/nvfp4/Support/ManifestSchema.h`, which `nvfp4-run` reads with:
    the pass writes the schema version, and the dialect verifier refuses a
    launch dictionary that lacks a required key, spells a value the schema
    does not know or lists parameters other than the op's (a gemv takes
    `sfb` exactly when its vectors are e2m1). A kernel launched several times
    is written once.

    For every host function (`func.func`) that launches nvfp4 kernels it also
    writes `<dir>/<prefix><function>.sequence.json`: the function's launches
    in program order, each naming its manifest and binding every kernel
    parameter to a function argument, and the sizes of the memref arguments
    they use, so that `nvfp4-run --sequence` runs them in order on shared
    buffers (docs/nvfp4-run.md, "Sequences"). A launch argument that is no
    argument of the function is a located error.

    With `cubin=true`, a kernel that ptxas spills to local memory is a
    warning naming the bytes, the registers and the kernel's `.maxnreg`
    (the `max-registers` option of `convert-nvfp4-to-gpu`).

    On success the pass prints one line on stderr naming what it wrote. Any
    failure (a directory that cannot be created, a file that cannot be
    written completely, `ptxas` missing or failing) is one located error;
    the files of the kernel being written are then removed, so that no PTX
    is left without its manifest. The prefix is part of a file name: one
    that contains a path separator is refused. The IR is left unchanged.
  }];
  let options = [
    Option<"directory", "dir", "std::string", /*default=*/"\".\"",
           "Directory the files are written to (created if missing)">,
    Option<"prefix", "prefix", "std::string", /*default=*/"\"\"",
           "Prefix of every file name (no path separators)">,
    Option<"cubin", "cubin", "bool", /*default=*/"false",
           "Also assemble <kernel>.cubin with ptxas">,
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"\"",
           "ptxas to run for cubin=true (empty: from PATH, $CUDA_HOME/bin "
           "or /usr/local/cuda/bin)">
  ];
}

def NVFP4DedupKernels : Pass<"nvfp4-dedup-kernels", "::mlir::ModuleOp"> {
  let summary = "Merge identical GPU kernel modules";
  let description = [{
    Identical operations in one module (the same GEMV twice, say) are
    outlined into kernel modules that differ only in their names (`_0`,
    `_1`, ...). This pass keeps the first of every group of `gpu.module`s
    that are identical up to the names of their symbols, points the
    `gpu.launch_func`s of the others (and the `kernel` entry of their
    `nvfp4.launch` dictionaries) at it and erases them. A module used by
    anything other than `gpu.launch_func` is left alone. `--nvfp4-to-ptx`
    runs it before serializing the kernels, so that each distinct kernel is
    assembled and exported once.
  }];
}

#endif // NVFP4_TRANSFORMS_PASSES_TD
