// The register budget (.maxnreg): by default the most registers a thread
// that keep the whole grid resident at once, at most 128, none under 56
// (cost::residentGridBudget); where there is none, the CUDA-core kernel
// takes 64 if its CTA splits K four ways into 16-byte loads
// (cost::chooseRegisterBudget). max-registers gives one, -1 none.
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 256x1024x2 2304x3584x4 4608x3584x1 5120x4096x1 8192x8192x1 10240x8192x1 4937x11632x1 \
// RUN:   | nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=DEFAULT
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 256x1024x2 \
// RUN:   | nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_90a max-registers=-1" \
// RUN:   | FileCheck %s --check-prefix=NONE --implicit-check-not=maxnreg
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 256x1024x2 \
// RUN:   | nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_90a max-registers=80" \
// RUN:   | FileCheck %s --check-prefix=GIVEN
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 256x1024x1:n8 7168x16384x1:n8 \
// RUN:   | nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_90a" \
// RUN:   | FileCheck %s --check-prefix=MMA
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 128256x4096x1:n8 128256x4096x1:n16 128256x4096x1:n16:vbf16 \
// RUN:   | nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_90a" \
// RUN:   | FileCheck %s --check-prefix=MMA-TWO
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 256x1024x1 \
// RUN:   | not nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_90a max-registers=-2" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANGE
// The tensor-core kernel from 28 registers: ptxas cannot fit its MMAs in 24.
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 256x1024x1:n8 \
// RUN:   | not nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_90a max-registers=27" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MMA-RANGE
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 256x1024x1:n8 \
// RUN:   | nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_90a max-registers=28" \
// RUN:   | FileCheck %s --check-prefix=MMA-LEAST
// RUN: %python %nvfp4_src_root/scripts/nvfp4_ir.py 256x1024x1 \
// RUN:   | nvfp4-opt --convert-nvfp4-to-gpu="chip=sm_90a max-registers=24" \
// RUN:   | FileCheck %s --check-prefix=LEAST

// 128 CTAs, one an SM: the budget's ceiling.
// DEFAULT: gpu.launch_func @nvfp4_gemv_256x1024x2{{.*}}max_registers = 128
// 144 CTAs a batch, 576 in all, 5 an SM: 102 registers, down to 96.
// DEFAULT: gpu.launch_func @nvfp4_gemv_2304x3584x4{{.*}}max_registers = 96
// 1152 CTAs of 128 threads, 9 an SM: 65536 / 1152 registers, down to 56.
// DEFAULT: gpu.launch_func @nvfp4_gemv_4608x3584x1{{.*}}max_registers = 56
// 1280 CTAs, 10 an SM: 51 registers, under the budget's floor; the CTA
// splits K four ways: the wave budget.
// DEFAULT: gpu.launch_func @nvfp4_gemv_5120x4096x1{{.*}}max_registers = 64{{.*}}split_k = 4
// 1024 CTAs, 8 an SM: 64.
// DEFAULT: gpu.launch_func @nvfp4_gemv_8192x8192x1{{.*}}max_registers = 64
// 1280 CTAs again, K split two ways: none.
// DEFAULT: gpu.launch_func @nvfp4_gemv_10240x8192x1{{.*}}max_registers = 0{{.*}}split_k = 2
// 1235 CTAs splitting K four ways, in 8-byte loads: none.
// DEFAULT: gpu.launch_func @nvfp4_gemv_4937x11632x1{{.*}}bytes_per_load = 8{{.*}}max_registers = 0{{.*}}split_k = 4
// DEFAULT: gpu.func @nvfp4_gemv_256x1024x2_nvfp4_linear_f16({{.*}} kernel attributes {nvvm.maxnreg = 128 : i32,
// DEFAULT: gpu.func @nvfp4_gemv_4608x3584x1_nvfp4_linear_f16({{.*}} kernel attributes {nvvm.maxnreg = 56 : i32,
// DEFAULT: gpu.func @nvfp4_gemv_5120x4096x1_nvfp4_linear_f16({{.*}} kernel attributes {nvvm.maxnreg = 64 : i32,
// DEFAULT: gpu.func @nvfp4_gemv_8192x8192x1_nvfp4_linear_f16({{.*}} kernel attributes {nvvm.maxnreg = 64 : i32,
// DEFAULT: gpu.func @nvfp4_gemv_10240x8192x1_nvfp4_linear_f16({{.*}} kernel attributes {nvvm.reqntid

// NONE: gpu.launch_func @nvfp4_gemv_256x1024x2{{.*}}max_registers = 0
// GIVEN: gpu.launch_func @nvfp4_gemv_256x1024x2{{.*}}max_registers = 80
// GIVEN: kernel attributes {nvvm.maxnreg = 80 : i32,
// The tensor-core kernel: 16 CTAs, the resident grid's 128.
// MMA: gpu.launch_func @nvfp4_gemv_256x1024x1_n8{{.*}}decode = "mma"{{.*}}max_registers = 128
// 224 CTAs of 448 threads, 2 an SM: 73 registers, down to 72 (the second
// gemv of the module: its budget is its own).
// MMA: gpu.launch_func @nvfp4_gemv_7168x16384x1_n8{{.*}}decode = "mma"{{.*}}max_registers = 72
// MMA: kernel attributes {nvvm.maxnreg = 128 : i32,
// MMA: kernel attributes {nvvm.maxnreg = 72 : i32,
// 1002 CTAs of 128 threads, 8 an SM: 64 registers, enough for one MMA of
// eight vectors, not for two of sixteen (cost::kMmaTwoMmaLeastBudget): none.
// MMA-TWO: gpu.launch_func @nvfp4_gemv_128256x4096x1_n8{{.*}}decode = "mma"{{.*}}max_registers = 64
// MMA-TWO: gpu.launch_func @nvfp4_gemv_128256x4096x1_n16{{.*}}decode = "mma"{{.*}}max_registers = 0
// MMA-TWO: gpu.launch_func @nvfp4_gemv_128256x4096x1_n16_vbf16{{.*}}decode = "mma"{{.*}}max_registers = 0
// MMA-TWO: kernel attributes {nvvm.maxnreg = 64 : i32,
// MMA-TWO-NOT: nvvm.maxnreg
// RANGE: error: 'nvfp4.gemv' op max-registers must be -1, 0 or in [24, 255], got -2
// MMA-RANGE: error: 'nvfp4.gemv' op max-registers must be -1, 0 or in [28, 255] with decode=mma (ptxas needs 28 registers for its MMAs), got 27
// MMA-LEAST: kernel attributes {nvvm.maxnreg = 28 : i32,
// LEAST: kernel attributes {nvvm.maxnreg = 24 : i32,
