// A tuning table gives, per gemv kernel, the options the cost model would
// choose: they are used where the option string leaves them at 0; kernels
// the table does not name keep the cost model's choice.
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '{"version": 1, "chip": "sm_90a", "kernels": {"nvfp4_gemv_64x4096x1_nvfp4_linear_f16": {"rows-per-thread": 4, "split-k": 2, "rows-per-block": 8}, "nvfp4_gemv_9x16x1_nvfp4_linear_f16": {"rows-per-thread": 2}}}' > %t/table.json
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/table.json" | FileCheck %s --check-prefix=TABLE
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu | FileCheck %s --check-prefix=MODEL
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/table.json rows-per-thread=1" | FileCheck %s --check-prefix=GIVEN
// Through the pipeline as well:
// RUN: nvfp4-opt %s --nvfp4-to-ptx="tuning-table=%t/table.json export-dir=%t/ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/ptx/nvfp4_gemv_64x4096x1_nvfp4_linear_f16.json
// Every option a table may give is one the pass takes, each value checked
// as on the command line:
// RUN: echo '{"version": 1, "chip": "sm_90a", "kernels": {"nvfp4_gemv_64x4096x1_nvfp4_linear_f16": {"rows-per-block": 8, "rows-per-thread": 4, "lanes-per-row": 16, "bytes-per-load": 8, "loads-in-flight": 2, "split-k": 2, "cta-split-k": 1, "cta-threads": 64, "index-bits": 32, "max-registers": 72}}}' > %t/all.json
// RUN: nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/all.json" | FileCheck %s --check-prefix=ALL
// RUN: echo '{"version": 1, "chip": "sm_90a", "kernels": {"nvfp4_gemv_64x4096x1_nvfp4_linear_f16": {"split-k": 17}}}' > %t/range.json
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/range.json" 2>&1 | FileCheck %s --check-prefix=RANGE
// Tables that are not valid: one error naming the file, nothing lowered.
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/missing.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo '{"version": 1, "chip": "sm_90a", "kernels": {' > %t/syntax.json
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/syntax.json" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: echo '{"version": 2, "chip": "sm_90a", "kernels": {}}' > %t/version.json
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/version.json" 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: echo '{"version": 1, "chip": "sm_100a", "kernels": {}}' > %t/chip.json
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/chip.json" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: echo '{"version": 1, "chip": "sm_90a", "kernels": {"k": {"decode": 1}}}' > %t/option.json
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/option.json" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: echo '{"version": 1, "chip": "sm_90a", "kernels": {"k": {"split-k": "2"}}}' > %t/value.json
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/value.json" 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: echo '{"version": 1, "chip": "sm_90a", "kernels": {"k": {"max-registers": 0}}}' > %t/budget.json
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/budget.json" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: echo '{"version": 1, "chip": "sm_90a", "kernels": {}, "comment": 1}' > %t/key.json
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu="tuning-table=%t/key.json" 2>&1 | FileCheck %s --check-prefix=KEY

// TABLE: gpu.launch_func @nvfp4_gemv_64x4096x1{{.*}}rows_per_block = 8 : i64, rows_per_thread = 4 : i64, split_k = 2 : i64
// TABLE: gpu.launch_func @nvfp4_gemv_200x2048x1{{.*}}rows_per_thread = 1 : i64
// MODEL: gpu.launch_func @nvfp4_gemv_64x4096x1{{.*}}rows_per_thread = 1 : i64
// MODEL: gpu.launch_func @nvfp4_gemv_200x2048x1{{.*}}rows_per_thread = 1 : i64
// GIVEN: gpu.launch_func @nvfp4_gemv_64x4096x1{{.*}}rows_per_block = 8 : i64, rows_per_thread = 1 : i64, split_k = 2 : i64
// MANIFEST: "rows_per_thread": 4,
// MANIFEST: "split_k": 2,
// ALL: gpu.launch_func @nvfp4_gemv_64x4096x1{{.*}}bytes_per_load = 8 : i64, {{.*}}index_bits = 32 : i64, {{.*}}lanes_per_row = 16 : i64, loads_in_flight = 2 : i64, max_registers = 72 : i64, {{.*}}rows_per_block = 8 : i64, rows_per_thread = 4 : i64, split_k = 2 : i64
// RANGE: tuning-table.mlir:[[@LINE+10]]:3: error: 'nvfp4.gemv' op split-k must be in [1, 16], got 17
// MISSING: error: tuning table '{{.*}}missing.json': cannot read it
// SYNTAX: error: tuning table '{{.*}}syntax.json': not JSON:
// VERSION: error: tuning table '{{.*}}version.json': "version" must be 1
// CHIP: error: tuning table '{{.*}}chip.json': made for chip sm_100a, compiling for sm_90a
// OPTION: error: tuning table '{{.*}}option.json': kernel k: 'decode' is not an option the table can give (rows-per-block, rows-per-thread, lanes-per-row, bytes-per-load, loads-in-flight, split-k, cta-split-k, cta-threads, index-bits, max-registers)
// VALUE: error: tuning table '{{.*}}value.json': kernel k: 'split-k' must be a positive integer
// BUDGET: error: tuning table '{{.*}}budget.json': kernel k: 'max-registers' must be -1 or a positive integer
// KEY: error: tuning table '{{.*}}key.json': unknown key "comment"
func.func @gemv_64x4096x1_nvfp4_linear_f16(%a: memref<1x64x2048xi8>, %sfa: memref<1x64x256xf8E4M3FN>, %b: memref<1x2048xi8>, %sfb: memref<1x256xf8E4M3FN>, %c: memref<1x64xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x64x2048xi8>, memref<1x64x256xf8E4M3FN>, memref<1x2048xi8>, memref<1x256xf8E4M3FN> into memref<1x64xf16>
  return
}

func.func @gemv_200x2048x1_nvfp4_linear_f16(%a: memref<1x200x1024xi8>, %sfa: memref<1x200x128xf8E4M3FN>, %b: memref<1x1024xi8>, %sfb: memref<1x128xf8E4M3FN>, %c: memref<1x200xf16>, %alpha: f32) {
  nvfp4.gemv <nvfp4> <linear> %a, %sfa, %b, %sfb into %c alpha(%alpha)
      : memref<1x200x1024xi8>, memref<1x200x128xf8E4M3FN>, memref<1x1024xi8>, memref<1x128xf8E4M3FN> into memref<1x200xf16>
  return
}
