// nvfp4-dedup-kernels keeps the first of every group of kernel modules that
// are identical up to their symbol names, points the launches of the others
// (and their nvfp4.launch "kernel") at it and erases them. Modules that
// differ, differ in their manifests, or have a use other than a launch stay.
// RUN: nvfp4-opt %s --allow-unregistered-dialect --nvfp4-dedup-kernels \
// RUN:   | FileCheck %s

// CHECK:     gpu.module @k {
// CHECK-NOT: gpu.module @k_0
// CHECK:     gpu.module @k_other_value
// CHECK:     gpu.module @k_other_grid
// CHECK:     gpu.module @k_used
// CHECK-NOT: gpu.module @k_0

// CHECK-LABEL: func.func @f
// CHECK:      gpu.launch_func @k::@k
// CHECK-SAME: kernel = "k"
// CHECK:      gpu.launch_func @k::@k
// CHECK-SAME: kernel = "k"
// CHECK:      gpu.launch_func @k_other_value::@k_other_value
// CHECK:      gpu.launch_func @k_other_grid::@k_other_grid
// CHECK:      gpu.launch_func @k_used::@k_used
// CHECK:      "test.use"() {ref = @k_used::@k_used}
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%x: memref<4xi8>) kernel {
      %v = arith.constant 1 : i8
      %i = arith.constant 0 : index
      memref.store %v, %x[%i] : memref<4xi8>
      gpu.return
    }
  }
  gpu.module @k_0 {
    gpu.func @k_0(%x: memref<4xi8>) kernel {
      %v = arith.constant 1 : i8
      %i = arith.constant 0 : index
      memref.store %v, %x[%i] : memref<4xi8>
      gpu.return
    }
  }
  gpu.module @k_other_value {
    gpu.func @k_other_value(%x: memref<4xi8>) kernel {
      %v = arith.constant 2 : i8
      %i = arith.constant 0 : index
      memref.store %v, %x[%i] : memref<4xi8>
      gpu.return
    }
  }
  gpu.module @k_other_grid {
    gpu.func @k_other_grid(%x: memref<4xi8>) kernel {
      %v = arith.constant 1 : i8
      %i = arith.constant 0 : index
      memref.store %v, %x[%i] : memref<4xi8>
      gpu.return
    }
  }
  gpu.module @k_used {
    gpu.func @k_used(%x: memref<4xi8>) kernel {
      %v = arith.constant 1 : i8
      %i = arith.constant 0 : index
      memref.store %v, %x[%i] : memref<4xi8>
      gpu.return
    }
  }
  func.func @f(%x: memref<4xi8>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<4xi8>)
        {nvfp4.launch = {kernel = "k", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "linear", to = "linear",
                         element = "f8E4M3FN", grid = [1, 1, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"]}}
    gpu.launch_func @k_0::@k_0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<4xi8>)
        {nvfp4.launch = {kernel = "k_0", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "linear", to = "linear",
                         element = "f8E4M3FN", grid = [1, 1, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"]}}
    gpu.launch_func @k_other_value::@k_other_value blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<4xi8>)
        {nvfp4.launch = {kernel = "k_other_value", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "linear", to = "linear",
                         element = "f8E4M3FN", grid = [1, 1, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"]}}
    gpu.launch_func @k_other_grid::@k_other_grid blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<4xi8>)
        {nvfp4.launch = {kernel = "k_other_grid", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "linear", to = "linear",
                         element = "f8E4M3FN", grid = [2, 1, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"]}}
    gpu.launch_func @k_used::@k_used blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<4xi8>)
        {nvfp4.launch = {kernel = "k_used", chip = "sm_90a",
                         op = "convert_scale_layout", rows = 1, cols = 4,
                         l = 1, from = "linear", to = "linear",
                         element = "f8E4M3FN", grid = [1, 1, 1],
                         block = [1, 1, 1], shared_bytes = 0,
                         params = ["source", "dest"]}}
    "test.use"() {ref = @k_used::@k_used} : () -> ()
    return
  }
}
