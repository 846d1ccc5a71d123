// tiled_codes are read by the tensor-core kernel only: MXFP4, and a decode
// of the CUDA-core kernel, are located errors; so is the tcgen05 lowering.
// RUN: not nvfp4-opt %s -split-input-file --convert-nvfp4-to-gpu="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=MMA
// RUN: not nvfp4-opt %s -split-input-file --convert-nvfp4-to-gpu="chip=sm_90a decode=dp4a" 2>&1 | FileCheck %s --check-prefix=DP4A
// RUN: not nvfp4-opt %s -split-input-file --convert-nvfp4-to-tcgen05 2>&1 | FileCheck %s --check-prefix=TCGEN05

// MMA: mma-tiled-invalid.mlir:{{[0-9]+}}:3: error: 'nvfp4.gemv' op tiled_codes (read by decode=mma) need NVFP4 (e4m3 scales, exact in f16 operands), not MXFP4
// MMA: gpu.launch_func @nvfp4_gemv_64x1024x1_n2
// MMA-SAME: tiled_codes = true
// DP4A: mma-tiled-invalid.mlir:{{[0-9]+}}:3: error: 'nvfp4.gemv' op tiled_codes are read by the tensor-core kernel only: give decode=mma or leave decode unset
// DP4A: mma-tiled-invalid.mlir:{{[0-9]+}}:3: error: 'nvfp4.gemv' op tiled_codes are read by the tensor-core kernel only: give decode=mma or leave decode unset
// TCGEN05: mma-tiled-invalid.mlir:{{[0-9]+}}:3: error: 'nvfp4.gemv' op has no tcgen05 kernel for tiled_codes (its copies read a's rows as they are); --convert-nvfp4-to-gpu (decode=mma) and --nvfp4-cpu-pipeline lower it
func.func @mxfp4(%a: memref<1x64x512xi8>, %sfa: memref<1x64x32xf8E8M0FNU>,
    %b: memref<1x2x512xi8>, %sfb: memref<1x2x32xf8E8M0FNU>,
    %c: memref<1x2x64xf16>) {
  nvfp4.gemv <mxfp4> <linear> tiled_codes %a, %sfa, %b, %sfb into %c
      : memref<1x64x512xi8>, memref<1x64x32xf8E8M0FNU>, memref<1x2x512xi8>,
        memref<1x2x32xf8E8M0FNU> into memref<1x2x64xf16>
  return
}

// -----

func.func @nvfp4(%a: memref<1x64x512xi8>, %sfa: memref<1x64x64xf8E4M3FN>,
    %b: memref<1x2x512xi8>, %sfb: memref<1x2x64xf8E4M3FN>,
    %c: memref<1x2x64xf16>) {
  nvfp4.gemv <nvfp4> <linear> tiled_codes %a, %sfa, %b, %sfb into %c
      : memref<1x64x512xi8>, memref<1x64x64xf8E4M3FN>, memref<1x2x512xi8>,
        memref<1x2x64xf8E4M3FN> into memref<1x2x64xf16>
  return
}
