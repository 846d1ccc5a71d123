//===- Passes.td - nvfp4 conversion passes -----------------*- tablegen -*-===//

#ifndef NVFP4_CONVERSION_PASSES_TD
#define NVFP4_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

// An option whose help ends with its default, written once: `shown` is the
// default as a user types it (the C++ initializer by default).
class NVFP4Option<string varName, string arg, string valueType, string default,
                  string desc, string shown = default,
                  string additionalFlags = "">
    : Option<varName, arg, valueType, default,
             desc # " (default: " # shown # ")", additionalFlags>;

// The chip option of the GPU lowerings: a name of the chip table
// (nvfp4/Support/Chips.h), checked when it is parsed.
class ChipOption<string default>
    : NVFP4Option<"chip", "chip", "::mlir::nvfp4::ChipName",
                  "\"" # default # "\"", "Target chip", default>;

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
  // LLVM: the quantizers' maxNum is the LLVM intrinsic (Codec.h says why).
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ConvertNVFP4ToGPU : Pass<"convert-nvfp4-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower every nvfp4 op to CUDA-core GPU kernels";
  let description = [{
    Outlines each nvfp4 op (static shapes) into a `gpu.func` kernel in its
    own `gpu.module` and replaces the op by a `gpu.launch_func`; a layout
    conversion is one thread per destination word (per byte where a row's
    scale columns are no multiple of 4), padding included; a
    quantize one thread per block of values (a two-level one first launches
    the reduction of its global scale), a dequantize one thread per 32
    bytes of output, with the CPU lowering's arithmetic (the same bytes). Each launch carries an
    `nvfp4.launch` dictionary (grid, block, shape, formats, parameters, the
    options used) from which `nvfp4-export-kernels` writes the manifest.
    Every gemv form has a kernel: one or N (up to 16) vectors, packed e2m1
    or 16-bit `b` (one sum per row and vector).

    GEMV kernel: each CTA owns `rows-per-block` rows of one batch. A row is
    reduced by `lanes-per-row` threads, by `split-k` such groups of one CTA
    that share its K range (partials added in shared memory), and by
    `cta-split-k` CTAs (partials written to a workspace in the kernel's
    module and added in a fixed order by the last CTA to finish, so the
    result is the same bits on every run). Any K that is a multiple of the
    block works: a row's last partial step is predicated. Each thread works
    on `rows-per-thread` rows at the same K offsets, so one decode of b
    serves them all; with blocked scales and 4 rows a thread,
    `interleave-rows` makes them the rows 32 apart whose scales share one
    16-byte line. Loads are `bytes-per-load` wide, `loads-in-flight` of
    them issued per step, the next step's prefetched (`prefetch`), a
    through the non-coherent path without L1 allocation (`cache-hints`).
    `decode` picks how e2m1 becomes arithmetic: `dp4a` (byte lookups with
    nvvm.prmt and integer 4-way dot products), `cvt`
    (nvvm.convert.f4x2.to.f16x2, sm_100a), `f32` (plain integer decode; the
    default for one vector of f16 or bf16 values under 3072 rows) or `mma`
    (the default for 8 or more packed vectors, for 6 and 7 from 768 rows,
    4 and 5 from 2048 and 3 from 3072 with K >= 128, and for 16-bit ones
    but that; the only one for a gemv with `tiled_codes`). With N vectors a
    thread decodes each unit of a once for all of them.

    `decode=mma` (NVFP4; b packed, or f16 or bf16 values) is a tensor-core
    kernel: a warp owns 16-row tiles (`rows-per-thread` / 2 of them: 2, 4
    or 8 rows a thread), each lane decodes 16 bytes of two rows of each
    tile and of one vector to f16 values (bf16 for bf16 b) times their
    block scale (exact) and feeds `nvgpu.mma.sync` m16n8k16 (`nvvm.mma.sync`
    for bf16) with f32 accumulators, up to 8 vectors a warp-wide MMA (two
    for 16). `split-k` warps of a CTA and `cta-split-k` CTAs share a row's
    K (the CTAs' partials through global memory);
    `lanes-per-row` (4) and `bytes-per-load` (16) are fixed; the shared-
    memory options but `async-copy-stages`, and `prefetch`, do not apply.
    Every option left at 0 is chosen per shape and chip by the cost model
    of docs/design.md (constants measured on the H200, docs/benchmarks.md).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::DLTIDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    ChipOption<"sm_90a">,
    NVFP4Option<"rowsPerBlock", "rows-per-block", "int64_t", "0",
                "Rows one CTA reduces (0: cost model)">,
    NVFP4Option<"rowsPerThread", "rows-per-thread", "int64_t", "0",
                "Rows each thread reduces at the same K positions, sharing "
                "one decode of b (1-8; 0: cost model)">,
    NVFP4Option<"lanesPerRow", "lanes-per-row", "int64_t", "0",
                "Threads that share one row (power of two <= 32; 0: cost "
                "model)">,
    NVFP4Option<"bytesPerLoad", "bytes-per-load", "int64_t", "0",
                "Bytes of a each thread loads at once (8 or 16; 0: largest "
                "that fits K)">,
    NVFP4Option<"loadsInFlight", "loads-in-flight", "int64_t", "0",
                "Steps whose loads are issued before their first use (1-8; "
                "0: cost model)">,
    NVFP4Option<"decode", "decode", "::mlir::nvfp4::DecodeChoice",
                "::mlir::nvfp4::DecodeChoice::ChipDefault",
                "How e2m1 becomes arithmetic", "chip",
                [{::llvm::cl::values(
                  clEnumValN(::mlir::nvfp4::DecodeChoice::ChipDefault, "chip",
                             "cvt where the chip converts e2m1, else dp4a"),
                  clEnumValN(::mlir::nvfp4::DecodeChoice::Dp4a, "dp4a",
                             "byte lookups (prmt) and 4-way integer dot "
                             "products"),
                  clEnumValN(::mlir::nvfp4::DecodeChoice::Cvt, "cvt",
                             "cvt.rn.f16x2.e2m1x2 and f16x2 FMAs (sm_100a)"),
                  clEnumValN(::mlir::nvfp4::DecodeChoice::F32, "f32",
                             "integer decode to f32"),
                  clEnumValN(::mlir::nvfp4::DecodeChoice::Mma, "mma",
                             "scaled f16 (bf16) operands of warp-level "
                             "tensor-core MMAs (nvgpu.mma.sync; NVFP4, b "
                             "packed, f16 or bf16)"))}]>,
    NVFP4Option<"cacheHints", "cache-hints", "bool", "true",
                "Load a through the non-coherent path without L1 "
                "allocation">,
    NVFP4Option<"prefetch", "prefetch", "bool", "true",
                "Issue the next group of loads before decoding the current "
                "one">,
    NVFP4Option<"interleaveRows", "interleave-rows", "bool", "true",
                "With blocked scales and 4 rows a thread, give a "
                "thread the rows 32 apart whose scales share one 16-byte "
                "line">,
    NVFP4Option<"pinLoads", "pin-loads", "bool", "false",
                "Make each step's decode wait for every load of its step "
                "(a, b and the scales) through a chain of byte permutes "
                "into the first word it decodes (b's, or a's when b is in "
                "shared memory), so that ptxas issues them all before the "
                "decode instead of moving some toward their use (CUDA-core "
                "kernel)">,
    NVFP4Option<"rowOffsets", "row-offsets", "bool", "false",
                "Where the grid has no row past M (M a multiple of a CTA's "
                "rows, of 128 with interleaved rows), index a thread's rows "
                "unclamped, so that their addresses are constant offsets of "
                "one (elsewhere rows past M are clamped to the last row); "
                "always for tiled codes">,
    NVFP4Option<"quadPairs", "quad-pairs", "bool", "false",
                "decode=mma: the two quads of lanes 4 apart read 128 "
                "adjacent bytes of one row of a (or packed vector) a load, "
                "then trade 16 bytes a row (shfl.xor 4), instead of 64 "
                "bytes of each of their rows; for a warp's whole steps, in "
                "adjacent pairs. Not "
                "with async-copy-stages, nor where a row has fewer than "
                "two whole 64-byte steps (the manifest's quad_pairs says "
                "which was built); the CUDA-core kernel ignores it">,
    NVFP4Option<"indexBits", "index-bits", "int64_t", "0",
                "Width of the CUDA-core kernel's index arithmetic, 32 or 64 "
                "(0: the cost model). 32 makes each address a 32-bit offset "
                "from its buffer's 64-bit base; it needs every buffer under "
                "1 GiB and neither async-copy-stages nor tma">,
    NVFP4Option<"maxRegisters", "max-registers", "int64_t", "0",
                "Registers a thread of any kernel the pass writes may take "
                "(.maxnreg), in [24, 255] ([28, 255] for a GEMV with "
                "decode=mma); 0: each kernel's default (a GEMV's from the "
                "cost model, 56 for a quantizer of two blocks a thread, "
                "else none); -1: none">,
    NVFP4Option<"vectorInShared", "vector-in-shared", "bool", "false",
                "Decode b once per CTA into shared memory (dp4a, one "
                "packed vector; when it fits)">,
    NVFP4Option<"asyncCopyStages", "async-copy-stages", "int64_t", "0",
                "Stages of a copied into shared memory by cp.async "
                "(nvgpu.device_async_copy) ahead of the decode, so the "
                "bytes in flight take no registers (2-8; 0: loads into "
                "registers). With decode=mma: each warp's stages of a, b "
                "and their scale words, in dynamic shared memory">,
    NVFP4Option<"tma", "tma", "bool", "false",
                "Fill the async-copy-stages stages with tensor-memory-"
                "accelerator copies (nvgpu.tma.async.load, one box per K "
                "slice and step issued by one thread, completion on an "
                "nvgpu mbarrier) instead of per-thread cp.async; the kernel "
                "takes a tensor map of a (sm_90a and later)">,
    NVFP4Option<"pdl", "pdl", "bool", "false",
                "Programmatic dependent launch: the kernel lets the next "
                "kernel of the stream launch at once "
                "(griddepcontrol.launch_dependents) and waits for the "
                "previous one (griddepcontrol.wait) only after issuing its "
                "first loads of a, before it reads b or writes an output. "
                "Launched without the PDL attribute it behaves as without "
                "(sm_90a and later)">,
    NVFP4Option<"splitK", "split-k", "int64_t", "0",
                "Lane groups of one CTA that split a row's K range (partials "
                "added in shared memory; 1-16, with decode=mma 1-32 warps; 0: "
                "cost model)">,
    NVFP4Option<"ctaSplitK", "cta-split-k", "int64_t", "0",
                "CTAs that split a row's K range (partials added in a fixed "
                "order by the last CTA, so every run gives the same bits; "
                "1-64; 0: cost model)">,
    NVFP4Option<"ctaReduction", "cta-reduction",
                "::mlir::nvfp4::CtaReductionChoice",
                "::mlir::nvfp4::CtaReductionChoice::Auto",
                "How the CTAs of a cta-split-k split add their partial sums",
                "auto",
                [{::llvm::cl::values(
                  clEnumValN(::mlir::nvfp4::CtaReductionChoice::Auto, "auto",
                             "cluster where cta-split-k <= 8 (the cost "
                             "model then splits across at most 8 CTAs), "
                             "else global"),
                  clEnumValN(::mlir::nvfp4::CtaReductionChoice::Cluster,
                             "cluster",
                             "the split's CTAs form a thread-block cluster "
                             "and write their partials into the shared "
                             "memory of its first CTA, which adds them "
                             "after a cluster barrier (cta-split-k <= 8)"),
                  clEnumValN(::mlir::nvfp4::CtaReductionChoice::Global,
                             "global",
                             "partials through a global workspace; the "
                             "last CTA to count itself in adds them"))}]>,
    NVFP4Option<"onePass", "one-pass", "bool", "true",
                "Read a K slice that ends in a partial step in one pass when "
                "its loads (rows-per-thread x steps, the partial one "
                "included) are few (the cost model's limit): every load "
                "issued before any decode, lanes past the slice discarding "
                "their sums, instead of the partial step loaded after the "
                "whole ones (CUDA-core kernel, loads into registers)">,
    NVFP4Option<"ctaThreads", "cta-threads", "int64_t", "0",
                "Threads a CTA of the CUDA-core kernel aims for: the cost "
                "model fills it with row groups and splits of K within it "
                "(a multiple of 32 in [32, 1024]; 0: the cost model's 128)">,
    NVFP4Option<"tuningTable", "tuning-table", "std::string", "",
                "JSON file of per-kernel options written by "
                "bench/suite/tune.py (docs/design.md, \"Tuning tables\"): "
                "for each gemv kernel it names, the values it gives to "
                "options whose 0 leaves the choice to the cost model are "
                "used where they are 0 here">
  ];
}

def ConvertNVFP4ToTcgen05 : Pass<"convert-nvfp4-to-tcgen05", "::mlir::ModuleOp"> {
  let summary = "Lower nvfp4.gemv to Blackwell tensor-core (tcgen05) kernels";
  let description = [{
    Outlines each `nvfp4.gemv` (static shapes, NVFP4 or MXFP4, linear or
    blocked128x4 scales) into a `gpu.func` kernel for sm_100a in its own
    `gpu.module` and replaces the op by a `gpu.launch_func` with dynamic
    shared memory and an `nvfp4.launch` dictionary (as convert-nvfp4-to-gpu,
    plus `"strategy": "tcgen05"`). It takes one or N = 1..16 vectors of
    packed e2m1; a gemv of 16-bit `b` or of a dynamic number of vectors is
    a located error; the other ops are left for convert-nvfp4-to-gpu.

    A CTA of 128 threads owns 128 rows of one batch. The vectors are the B
    operand of `tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16`
    (NVFP4) or `.kind::mxf4.block_scale.block32` (MXFP4), padded to N = 8
    (up to 8 vectors) or 16; the f32 accumulator lives in tensor memory. K is walked in stages of one
    128x4 scale atom column through a ring of `stages` shared-memory slots
    filled with tensor-memory-accelerator copies where the shape allows
    (`tma-copies`) and cp.async otherwise; scales reach tensor memory with
    `tcgen05.cp.32x128b.warpx4`, linear scales being rearranged into the
    blocked atom while they are staged. See docs/tcgen05.md.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    ChipOption<"sm_100a">,
    NVFP4Option<"stages", "stages", "int64_t", "4",
                "Shared-memory ring slots (1: no overlap of loads and MMAs; "
                "1-8)">,
    NVFP4Option<"tmaCopies", "tma-copies", "bool", "true",
                "Copy a's tiles (K a multiple of 32, at least 64) and "
                "blocked sfa atoms (K a multiple of 4 scale blocks) with "
                "tensor-memory-accelerator copies (nvgpu.tma.async.load, "
                "issued by one thread, counted by an nvgpu mbarrier); the "
                "kernel takes their tensor maps. false: every copy is a "
                "per-thread cp.async">
  ];
}

def ConvertGPUToHostSim : Pass<"convert-gpu-to-host-sim", "::mlir::ModuleOp"> {
  let summary = "Turn NVVM-lowered GPU kernels into host code run by a "
                "simulation runtime";
  let description = [{
    Takes every `gpu.module` whose kernels are already in the LLVM and NVVM
    dialects (the IR `gpu-module-to-binary` would serialize) and moves its
    functions into the host module as plain host code: special registers,
    barriers and warp shuffles become calls into the simulation runtime
    (`nvfp4/Runtime/HostSimABI.h`), which runs each CTA's threads as fibers;
    `prmt`, `dp4a`, the paired conversions to f16x2 and the non-coherent
    vector loads of inline PTX become exact runtime or LLVM equivalents;
    shared-memory globals become per-CTA storage and address spaces are
    dropped. Each kernel gets a C-callable launcher `<prefix><kernel>` taking
    the kernel's arguments, with the grid and block of its `gpu.launch_func`,
    which is replaced by a call to it.

    An NVVM op, intrinsic call or inline assembly the pass does not know is a
    located error: nothing is simulated approximately.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"prefix", "prefix", "std::string", /*default=*/"\"\"",
           "Prefix of every symbol the pass creates or moves to the host">
  ];
}

#endif // NVFP4_CONVERSION_PASSES_TD
