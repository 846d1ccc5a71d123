// nvfp4-export-kernels writes each launch's nvfp4.launch dictionary as the
// manifest, with the PTX file name and the schema version
// (ManifestSchema.h); a dictionary the schema does not allow is refused by
// the dialect verifier (lib/Dialect/NVFP4/IR/NVFP4Attributes.cpp).
// RUN: rm -rf %t && nvfp4-opt %s -split-input-file -verify-diagnostics \
// RUN:   --nvfp4-export-kernels="dir=%t" -o /dev/null
// RUN: FileCheck %s < %t/k.json
// RUN: FileCheck %s --check-prefix=MAPS < %t/kmaps.json
// RUN: FileCheck %s --check-prefix=VEC < %t/kvec.json

// CHECK:      {
// CHECK:        "op": "convert_scale_layout",
// CHECK:        "ptx": "k.ptx",
// CHECK:        "to": "linear",
// CHECK-NEXT:   "version": 5
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
    // expected-error @+1 {{nvfp4.launch lacks "element", which manifest version 5 requires}}
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
    // expected-error @+1 {{nvfp4.launch "to" is "swizzled", which manifest version 5 does not know}}
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

// -----

// A gemv's tensor maps are written as the launch has them.
// MAPS:      "params": [
// MAPS:        "a_tensor_map"
// MAPS-NEXT:  ],
// MAPS:      "tensor_maps": [
// MAPS-NEXT:   {
// MAPS-NEXT:     "box": [
// MAPS-NEXT:       128,
// MAPS:          "data_type": "uint8",
// MAPS:          "element_strides": [
// MAPS:          "l2_promotion": "256b",
// MAPS-NEXT:     "oob_fill": "zero",
// MAPS-NEXT:     "param": "a_tensor_map",
// MAPS:          "swizzle": "128b",
// MAPS-NEXT:     "tensor": "a"
// MAPS-NEXT:   }
// MAPS-NEXT: ],
module attributes {gpu.container_module} {
  gpu.binary @kmaps [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // One operand per param (the function's sequence binds each); the map
    // is a placeholder the runner replaces.
    %map = arith.constant 0 : i64
    gpu.launch_func @kmaps::@kmaps blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>, %src : memref<512xi8>,
             %src : memref<512xi8>, %src : memref<512xi8>,
             %src : memref<512xi8>, %map : i64)
        {nvfp4.launch = {kernel = "kmaps", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 1, vector = "e2m1",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "sfb", "c", "a_tensor_map"],
                         tensor_maps = [{param = "a_tensor_map", tensor = "a",
                                         data_type = "uint8",
                                         dims = [256, 256, 2],
                                         strides = [256, 65536],
                                         box = [128, 64, 1],
                                         element_strides = [1, 1, 1],
                                         swizzle = "128b",
                                         l2_promotion = "256b",
                                         oob_fill = "zero"}]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k5 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "tensor_maps" entry "swizzle" is "16b", which manifest version 5 does not know}}
    gpu.launch_func @k5::@k5 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "k5", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 1, vector = "e2m1",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "sfb", "c", "a_tensor_map"],
                         tensor_maps = [{param = "a_tensor_map", tensor = "a",
                                         data_type = "uint8", dims = [256],
                                         strides = [], box = [128],
                                         element_strides = [1],
                                         swizzle = "16b", l2_promotion = "none",
                                         oob_fill = "zero"}]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k6 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "tensor_maps" entry lacks "oob_fill", which manifest version 5 requires}}
    gpu.launch_func @k6::@k6 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "k6", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 1, vector = "e2m1",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "sfb", "c", "a_tensor_map"],
                         tensor_maps = [{param = "a_tensor_map", tensor = "a",
                                         data_type = "uint8", dims = [256],
                                         strides = [], box = [128],
                                         element_strides = [1],
                                         swizzle = "none",
                                         l2_promotion = "none"}]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k7 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "tensor_maps" must be an array of dictionaries, on a gemv}}
    gpu.launch_func @k7::@k7 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "k7", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "blocked128x4", to = "linear",
                         element = "f8E4M3FN", grid = [1, 1, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"], tensor_maps = []}}
    return
  }
}

// -----

// N vectors and 16-bit vectors: "n" and "vector" are written as the launch
// has them, and a gemv of 16-bit vectors lists no sfb.
// VEC:      "n": 8,
// VEC:      "params": [
// VEC-NEXT:   "a",
// VEC-NEXT:   "sfa",
// VEC-NEXT:   "b",
// VEC-NEXT:   "c",
// VEC-NEXT:   "alpha"
// VEC-NEXT: ],
// VEC:      "vector": "bf16",
// VEC-NEXT: "version": 5
module attributes {gpu.container_module} {
  gpu.binary @kvec [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>, %alpha: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kvec::@kvec blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>, %src : memref<512xi8>,
             %src : memref<512xi8>, %src : memref<512xi8>, %alpha : f32)
        {nvfp4.launch = {kernel = "kvec", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 8, vector = "bf16",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "c", "alpha"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kv1 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch lacks "n", which manifest version 5 requires}}
    gpu.launch_func @kv1::@kv1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "kv1", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         vector = "bf16",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "c", "alpha"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kv2 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch lacks "vector", which manifest version 5 requires}}
    gpu.launch_func @kv2::@kv2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "kv2", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 8,
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "c", "alpha"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kv3 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "n" must be an integer in [1, 16]}}
    gpu.launch_func @kv3::@kv3 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "kv3", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 0, vector = "bf16",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "c", "alpha"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kv4 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "n" must be an integer in [1, 16]}}
    gpu.launch_func @kv4::@kv4 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "kv4", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 17, vector = "bf16",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "c", "alpha"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kv5 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "vector" is "f32", which manifest version 5 does not know}}
    gpu.launch_func @kv5::@kv5 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "kv5", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 8, vector = "f32",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "c", "alpha"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kv6 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "params" has "sfb", which a gemv of bf16 vectors does not take}}
    gpu.launch_func @kv6::@kv6 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "kv6", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 8, vector = "bf16",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "sfb", "c"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kv7 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "params" lacks "sfb"}}
    gpu.launch_func @kv7::@kv7 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "kv7", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 8, vector = "e2m1",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "c"]}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kv8 [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
  func.func @f(%src: memref<512xi8>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{nvfp4.launch "params" has "dest", which a gemv of e2m1 vectors does not take}}
    gpu.launch_func @kv8::@kv8 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<512xi8>)
        {nvfp4.launch = {kernel = "kv8", chip = "sm_90a", op = "gemv",
                         m = 256, k = 512, l = 2, scale_format = "nvfp4",
                         scale_layout = "linear", output = "f16",
                         n = 8, vector = "e2m1",
                         grid = [64, 2, 1], block = [128, 1, 1],
                         shared_bytes = 0,
                         params = ["a", "sfa", "b", "sfb", "c", "dest"]}}
    return
  }
}
