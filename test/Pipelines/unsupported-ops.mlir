// Every GPU pipeline names each nvfp4 op it has no kernel for, at the op,
// and fails: quantize and dequantize. (The gemv forms the tcgen05 lowering
// lacks: tcgen05-one-vector.mlir.)
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics --convert-nvfp4-to-gpu
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics --convert-nvfp4-to-tcgen05
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics --nvfp4-to-ptx
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics --nvfp4-to-ptx="strategy=tcgen05"
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics --nvfp4-to-host-sim
// One run reports every op, and exits with an error:
// RUN: not nvfp4-opt %s --nvfp4-to-ptx 2>&1 | FileCheck %s
// RUN: not nvfp4-opt %s --nvfp4-to-ptx="strategy=tcgen05" 2>&1 | FileCheck %s
// RUN: not nvfp4-opt %s --nvfp4-to-host-sim 2>&1 | FileCheck %s
// RUN: not nvfp4-opt %s --convert-nvfp4-to-gpu 2>&1 | FileCheck %s
// RUN: not nvfp4-opt %s --convert-nvfp4-to-tcgen05 2>&1 | FileCheck %s

// CHECK-DAG: unsupported-ops.mlir:[[# @LINE + 5]]:3: error: 'nvfp4.quantize' op has no GPU lowering; --nvfp4-cpu-pipeline lowers it
// CHECK-DAG: unsupported-ops.mlir:[[# @LINE + 14]]:3: error: 'nvfp4.dequantize' op has no GPU lowering
func.func @quantize(%x: memref<1x4x32xf32>, %q: memref<1x4x16xi8>,
                    %s: memref<1x4x2xf8E4M3FN>) {
  // expected-error @+1 {{'nvfp4.quantize' op has no GPU lowering; --nvfp4-cpu-pipeline lowers it}}
  nvfp4.quantize <nvfp4> <linear> %x into %q, %s
      : memref<1x4x32xf32> into memref<1x4x16xi8>, memref<1x4x2xf8E4M3FN>
  return
}

// -----

func.func @dequantize(%q: memref<1x4x16xi8>, %s: memref<1x4x1xf8E8M0FNU>,
                      %y: memref<1x4x32xbf16>) {
  // expected-error @+1 {{'nvfp4.dequantize' op has no GPU lowering; --nvfp4-cpu-pipeline lowers it}}
  nvfp4.dequantize <mxfp4> <linear> %q, %s into %y
      : memref<1x4x16xi8>, memref<1x4x1xf8E8M0FNU> into memref<1x4x32xbf16>
  return
}
