//===- Passes.td - nvfp4 conversion passes -----------------*- tablegen -*-===//

#ifndef NVFP4_CONVERSION_PASSES_TD
#define NVFP4_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertNVFP4ToLoops : Pass<"convert-nvfp4-to-loops"> {
  let summary = "Lower nvfp4 operations to scf loops over memrefs (CPU)";
  let description = [{
    Rewrites `nvfp4.gemv`, `nvfp4.quantize`, `nvfp4.dequantize` and
    `nvfp4.convert_scale_layout` into `scf.for` loops of scalar `memref`
    loads and stores and `arith` arithmetic. FP4 and scale decoding is done
    with integer arithmetic, so the result runs on any CPU backend; the loops
    define the executable semantics every other lowering is checked against.
    Sizes are read from the memrefs, so dynamic shapes are supported.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ConvertNVFP4ToGPU : Pass<"convert-nvfp4-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower nvfp4.gemv to CUDA-core GPU kernels";
  let description = [{
    Outlines each `nvfp4.gemv` (static shapes) into a `gpu.func` kernel in a
    `gpu.module` named after the chip and replaces the op by a
    `gpu.launch_func`. Every choice that matters for speed is an option; the
    defaults are tuned for the chip. Each kernel carries an
    `nvfp4.launch` dictionary (grid, block, shape, formats) from which
    `nvfp4-export-kernels` writes the launch manifest.

    Kernel structure: each CTA owns `rows-per-block` rows of one batch; a row
    is reduced by `lanes-per-row` threads (each thread works on
    `rows-per-thread` rows at once, so one decode of b serves them all) that stride along K with loads of
    `bytes-per-load` bytes, `loads-in-flight` loads issued before their first
    use; lanes combine partial sums with `gpu.shuffle`. `decode` picks how e2m1
    becomes arithmetic: `dp4a` (byte lookup with nvvm.prmt and integer dot
    products, any sm_61+ chip), `cvt` (nvvm.convert.f4x2.to.f16x2, sm_100a),
    or `f32` (plain integer decode to f32, the simplest).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target chip (sm_90a, sm_100a)">,
    Option<"rowsPerBlock", "rows-per-block", "int64_t", /*default=*/"0",
           "Rows of a one CTA reduces (0: chip default)">,
    Option<"rowsPerThread", "rows-per-thread", "int64_t", /*default=*/"0",
           "Rows each thread reduces at the same K positions, sharing one "
           "decode of b (0: chip default)">,
    Option<"lanesPerRow", "lanes-per-row", "int64_t", /*default=*/"0",
           "Threads that share one row (power of two <= 32; 0: chip default)">,
    Option<"bytesPerLoad", "bytes-per-load", "int64_t", /*default=*/"0",
           "Bytes of a each thread loads at once (8 or 16; 0: largest that fits K)">,
    Option<"loadsInFlight", "loads-in-flight", "int64_t", /*default=*/"0",
           "Loads of a issued before their first use (0: chip default)">,
    Option<"decode", "decode", "std::string", /*default=*/"\"\"",
           "e2m1 decode: dp4a, cvt or f32 (empty: chip default)">,
    Option<"cacheHints", "cache-hints", "bool", /*default=*/"true",
           "Load a through the non-coherent path without L1 allocation">
  ];
}

#endif // NVFP4_CONVERSION_PASSES_TD
