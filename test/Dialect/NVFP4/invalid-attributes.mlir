// The dialect's discardable attributes are verified wherever they appear
// (nvfp4.launch against the manifest schema; see also
// test/Transforms/export-kernels.mlir).
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{nvfp4.launch belongs on a gpu.launch_func}}
func.func @f() attributes {nvfp4.launch = {}} {
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch must be a dictionary}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        {nvfp4.launch = "gemv"}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch has no known "op"}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        {nvfp4.launch = {op = "gemm"}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>, %dst: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "grid" must be three positive integers}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>, %dst : memref<512xi8>)
        {nvfp4.launch = {kernel = "k", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "blocked128x4", to = "linear",
                         element = "f8E4M3FN", grid = [1, 0, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"]}}
    return
  }
}

// -----

// expected-error @+1 {{nvfp4.scale_staging' must be "linear-to-blocked" or "blocked-copy"}}
func.func @f() attributes {nvfp4.scale_staging = "copy"} {
  return
}

// -----

// expected-error @+1 {{unknown nvfp4 dialect attribute 'nvfp4.lanch'}}
func.func @f() attributes {nvfp4.lanch = {}} {
  return
}
