// The GPU pipelines route each option to the pass that declares it; options
// of the other strategy, unknown keys and values the option's type rejects
// are errors before any pass runs. So is an input or output file that
// cannot be opened.
//
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="strategy=tcgen05 rows-per-block=64" 2>&1 | FileCheck %s --check-prefix=CUDA-ONLY
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="stages=3" 2>&1 | FileCheck %s --check-prefix=TCGEN05-ONLY
// RUN: not nvfp4-opt %s --nvfp4-to-host-sim="bogus=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="export-bogus=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN-EXPORT
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="strategy=tensor" 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a chip=sm_100a" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="strategy=tcgen05 strategy=cuda-cores" 2>&1 | FileCheck %s --check-prefix=TWICE-STRATEGY
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="chip=sm_80" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90" 2>&1 | FileCheck %s --check-prefix=CHIP90
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="chip=sm_100" 2>&1 | FileCheck %s --check-prefix=CHIP100
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="decode=wmma" 2>&1 | FileCheck %s --check-prefix=DECODE
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="chip=sm_90a split-k=abc" 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not nvfp4-opt %s.missing 2>&1 | FileCheck %s --check-prefix=NOINPUT
// RUN: not nvfp4-opt %s -o %t.missing-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=NOOUTPUT
//
// With strategy=tcgen05 the chip defaults to the tensor-core pass's own
// (sm_100a) for every kernel, the scale-layout conversion's included.
// RUN: nvfp4-opt %s --nvfp4-to-ptx="strategy=tcgen05" | FileCheck %s --check-prefix=TCGEN05-CHIP
// RUN: nvfp4-opt %s --nvfp4-to-ptx | FileCheck %s --check-prefix=DEFAULT-CHIP
//
// Every option at a value other than its default reaches the patterns (the
// pass checks that its options struct reproduces its options).
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 256x4096x1 | nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_100a rows-per-block=16 rows-per-thread=2 lanes-per-row=16 bytes-per-load=8 loads-in-flight=3 decode=dp4a cache-hints=false prefetch=false interleave-rows=false max-registers=80 vector-in-shared=true async-copy-stages=2 split-k=2 cta-split-k=2 cta-reduction=global one-pass=false pdl=true pin-loads=true row-offsets=true quad-pairs=true" | FileCheck %s --check-prefix=ALL
// RUN: nvfp4-opt %s --convert-nvfp4-to-tcgen05="chip=sm_100a stages=2" | FileCheck %s --check-prefix=ALL-TCGEN05
//
// --help shows every option with its default.
// RUN: nvfp4-opt --help | FileCheck %s --check-prefix=HELP

// CUDA-ONLY: error: option 'rows-per-block' does not apply to strategy=tcgen05 (it is an option of strategy=cuda-cores)
// TCGEN05-ONLY: error: option 'stages' does not apply to strategy=cuda-cores (it is an option of strategy=tcgen05)
// UNKNOWN: error: no option 'bogus'
// UNKNOWN-EXPORT: error: no option 'export-bogus' (nvfp4-export-kernels has no 'bogus')
// STRATEGY: error: strategy must be cuda-cores or tcgen05, got 'tensor'
// TWICE: error: option 'chip' given twice
// TWICE-STRATEGY: error: option 'strategy' given twice
// CHIP: unknown chip 'sm_80' (expected sm_90a or sm_100a)
// CHIP-NOT: unknown chip
// CHIP90: unknown chip 'sm_90' (expected sm_90a or sm_100a)
// CHIP100: unknown chip 'sm_100' (expected sm_90a or sm_100a)
// DECODE: for the --decode option: Cannot find option named 'wmma'
// DECODE-NEXT: nvfp4-opt: error: the pass options do not parse
// DECODE-NOT: error
// VALUE: for the --split-k option: 'abc' value invalid for long argument!
// VALUE-NEXT: nvfp4-opt: error: the pass options do not parse
// VALUE-NOT: error
// NOINPUT: nvfp4-opt: error: cannot open input file '{{.*}}options.mlir.missing': No such file or directory
// NOOUTPUT: nvfp4-opt: error: cannot open output file '{{.*}}missing-dir/out.mlir': No such file or directory

// TCGEN05-CHIP-COUNT-2: gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a"
// DEFAULT-CHIP-COUNT-2: gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a"

// ALL: chip = "sm_100a", config = {async_copy_stages = 2 : i64, bytes_per_load = 8 : i64, cache_hints = false, cta_reduction = "global", cta_split_k = 2 : i64, decode = "dp4a", index_bits = 64 : i64, interleave_rows = false, lanes_per_row = 16 : i64, loads_in_flight = 3 : i64, max_registers = 80 : i64, one_pass_steps = 0 : i64, pdl = true, pin_loads = true, prefetch = false, quad_pairs = false, row_offsets = true, rows_per_block = 16 : i64, rows_per_thread = 2 : i64, split_k = 2 : i64
// ALL-TCGEN05: stages = 2 : i64

// HELP: --convert-nvfp4-to-gpu
// HELP: --chip=<chip>{{.*}}- Target chip (default: sm_90a)
// HELP: --decode=<value>{{.*}}- How e2m1 becomes arithmetic (default: chip)
// HELP: --convert-nvfp4-to-tcgen05
// HELP: --chip=<chip>{{.*}}- Target chip (default: sm_100a)
// HELP: --stages=<long>{{.*}}- Shared-memory ring slots (1: no overlap of loads and MMAs; 1-8) (default: 4)
// HELP: --nvfp4-to-ptx
// HELP: --strategy=<value>{{.*}}- Which kernel a gemv becomes (default: cuda-cores)

func.func @gemv(%a: memref<1x128x32xi8>, %sfa: memref<1x128x4xf8E4M3FN>,
    %b: memref<1x32xi8>, %sfb: memref<1x4xf8E4M3FN>, %c: memref<1x128xf32>) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c
      : memref<1x128x32xi8>, memref<1x128x4xf8E4M3FN>, memref<1x32xi8>,
        memref<1x4xf8E4M3FN> into memref<1x128xf32>
  return
}

func.func @convert(%lin: memref<1x256x16xf8E4M3FN>, %blk: memref<1x2x4x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4> : memref<1x256x16xf8E4M3FN> to memref<1x2x4x512xf8E4M3FN>
  return
}
