// nvfp4-export-kernels writes each launch's nvfp4.launch dictionary as the
// manifest, with the PTX file name and the schema version
// (ManifestSchema.h); a dictionary the schema does not allow is refused by
// the dialect verifier (lib/Dialect/NVFP4/IR/NVFP4Attributes.cpp).
// RUN: rm -rf %t && nvfp4-opt %s -split-input-file -verify-diagnostics \
// RUN:   --nvfp4-export-kernels="dir=%t" -o /dev/null
// RUN: FileCheck %s < %t/k.json

// CHECK:      {
// CHECK:        "op": "convert_scale_layout",
// CHECK:        "ptx": "k.ptx",
// CHECK:        "to": "linear",
// CHECK-NEXT:   "version": 2
// CHECK-NEXT: }
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>, %dst: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>, %dst : memref<512xi8>)
        {nvfp4.launch = {kernel = "k", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "blocked128x4", to = "linear",
                         element = "f8E4M3FN", grid = [1, 1, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k2 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>, %dst: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch lacks "element", which manifest version 2 requires}}
    gpu.launch_func @k2::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>, %dst : memref<512xi8>)
        {nvfp4.launch = {kernel = "k2", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "blocked128x4", to = "linear",
                         grid = [1, 1, 1], block = [1, 1, 1],
                         shared_bytes = 0, params = ["source", "dest"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k3 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>, %dst: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "to" is "swizzled", which manifest version 2 does not know}}
    gpu.launch_func @k3::@k3 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>, %dst : memref<512xi8>)
        {nvfp4.launch = {kernel = "k3", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "blocked128x4", to = "swizzled",
                         element = "f8E4M3FN", grid = [1, 1, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k4 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>, %dst: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch has no known "op"}}
    gpu.launch_func @k4::@k4 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>, %dst : memref<512xi8>)
        {nvfp4.launch = {kernel = "k4", op = "gemm"}}
    return
  }
}
